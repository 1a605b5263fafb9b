import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * A bargain activity (activity type 2) of a site: one specification, the floor a bargain may
 * reach, the helpers that make it succeed, the bounds of one cut, the helps a member may give
 * per day, and how long a bargain lasts.
 */
export const bargainActivity = pgTable(
  'bargain_activity',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    productId: integer('product_id').notNull(),
    specificationId: integer('specification_id').notNull(),
    floorPrice: integer('floor_price').notNull(),
    helpMax: integer('help_max').notNull(),
    cutMin: integer('cut_min').notNull(),
    cutMax: integer('cut_max').notNull(),
    helperDailyQuota: integer('helper_daily_quota').notNull().default(3),
    hours: integer('hours').notNull().default(24),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('bargain_activity_site_idx').on(t.siteId, t.endAt),
    check('bargain_activity_window_check', sql`${t.startAt} < ${t.endAt}`),
    check(
      'bargain_activity_numbers_check',
      sql`${t.floorPrice} >= 0 and ${t.helpMax} between 1 and 100 and ${t.cutMin} >= 1
        and ${t.cutMax} >= ${t.cutMin} and ${t.helperDailyQuota} >= 1 and ${t.hours} between 1 and 720`,
    ),
  ],
);

/**
 * A member's bargain: the price moves down from the start price by the helpers' cuts, never
 * below the floor (guarded UPDATE and CHECK). One open bargain (in progress or successful) per
 * member and product: a partial unique key, so parallel starts make one.
 */
export const bargainRecord = pgTable(
  'bargain_record',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => bargainActivity.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull(),
    productId: integer('product_id').notNull(),
    specificationId: integer('specification_id').notNull(),
    startPrice: integer('start_price').notNull(),
    floorPrice: integer('floor_price').notNull(),
    price: integer('price').notNull(),
    helpCount: integer('help_count').notNull().default(0),
    helpMax: integer('help_max').notNull(),
    /** BARGAIN_STATUS: 1 in progress, 2 success, 3 failed, 4 ordered. */
    status: smallint('status').notNull().default(1),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    orderNo: text('order_no'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bargain_record_open_idx')
      .on(t.siteId, t.memberId, t.productId)
      .where(sql`${t.status} in (1, 2)`),
    index('bargain_record_activity_idx').on(t.activityId, t.createdAt),
    index('bargain_record_order_idx').on(t.orderNo),
    index('bargain_record_expiry_idx').on(t.expireAt).where(sql`${t.status} in (1, 2)`),
    check('bargain_record_status_check', sql`${t.status} in (1, 2, 3, 4)`),
    check(
      'bargain_record_price_check',
      sql`${t.price} >= ${t.floorPrice} and ${t.price} <= ${t.startPrice} and ${t.floorPrice} >= 0`,
    ),
    check('bargain_record_help_check', sql`${t.helpCount} >= 0 and ${t.helpCount} <= ${t.helpMax}`),
  ],
);

/** A help: one per helper and bargain (the key refuses a second, even in parallel). */
export const bargainHelp = pgTable(
  'bargain_help',
  {
    recordId: integer('record_id')
      .notNull()
      .references(() => bargainRecord.id, { onDelete: 'cascade' }),
    helperId: integer('helper_id').notNull(),
    siteId: integer('site_id').notNull(),
    cut: integer('cut').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.recordId, t.helperId] }),
    check('bargain_help_cut_check', sql`${t.cut} >= 0`),
  ],
);

/** Helps a member gave in an activity on a mall day: a capped upsert keeps it within the quota. */
export const bargainHelperDay = pgTable(
  'bargain_helper_day',
  {
    activityId: integer('activity_id').notNull(),
    memberId: integer('member_id').notNull(),
    day: text('day').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.activityId, t.memberId, t.day] }),
    check('bargain_helper_day_used_check', sql`${t.used} >= 1`),
  ],
);
