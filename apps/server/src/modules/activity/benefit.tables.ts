import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { vipLevel } from '../vip/vip.tables';

/**
 * A benefit (权益) of a site: a right to one piece of a product, free of charge, that members
 * receive while the quota lasts (guarded `remaining > 0` and CHECK), one per member, and use
 * within `valid_days`.
 */
export const benefit = pgTable(
  'benefit',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    productId: integer('product_id').notNull(),
    specificationId: integer('specification_id').notNull(),
    total: integer('total').notNull(),
    remaining: integer('remaining').notNull(),
    validDays: integer('valid_days').notNull().default(30),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Who may receive it: every member (null) or members at this VIP level (its rank) or above. */
    vipLevelId: integer('vip_level_id').references(() => vipLevel.id, { onDelete: 'restrict' }),
  },
  (t) => [
    index('benefit_site_idx').on(t.siteId, t.productId),
    check('benefit_window_check', sql`${t.startAt} < ${t.endAt}`),
    check('benefit_remaining_check', sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.total}`),
    check('benefit_valid_days_check', sql`${t.validDays} between 1 and 3650`),
  ],
);

/** A benefit a member received: status 0 to use, 1 used, -1 expired; one per member and benefit. */
export const benefitReceive = pgTable(
  'benefit_receive',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    benefitId: integer('benefit_id')
      .notNull()
      .references(() => benefit.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull(),
    status: smallint('status').notNull().default(0),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    orderNo: text('order_no'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('benefit_receive_member_idx').on(t.benefitId, t.memberId),
    index('benefit_receive_mine_idx').on(t.siteId, t.memberId, t.createdAt),
    check('benefit_receive_status_check', sql`${t.status} in (-1, 0, 1)`),
  ],
);
