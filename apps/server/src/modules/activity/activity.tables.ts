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
} from 'drizzle-orm/pg-core';

/** A daily flash-sale slot of a site ("HH:mm" to "HH:mm", China time; end "24:00" = midnight). */
export const seckillSession = pgTable(
  'seckill_session',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    index('seckill_session_site_idx').on(t.siteId),
    check('seckill_session_time_check', sql`${t.startTime} < ${t.endTime}`),
  ],
);

/**
 * A flash sale: runs in the listed daily sessions between its dates, with limits per member
 * (over the whole activity) and per order, and its own unpaid-order expiry.
 */
export const seckillActivity = pgTable(
  'seckill_activity',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    sessionIds: integer('session_ids').array().notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    memberLimit: integer('member_limit').notNull().default(1),
    orderLimit: integer('order_limit').notNull().default(1),
    /** Minutes an unpaid flash-sale order waits (shorter than the mall's 30). */
    expireMinutes: integer('expire_minutes').notNull().default(5),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    index('seckill_activity_site_idx').on(t.siteId, t.endAt),
    check('seckill_activity_limits_check', sql`${t.memberLimit} >= 1 and ${t.orderLimit} >= 1`),
    check('seckill_activity_expire_check', sql`${t.expireMinutes} between 1 and 1440`),
  ],
);

/** A specification sold in a flash sale: its activity price and its own stock. */
export const seckillSku = pgTable(
  'seckill_sku',
  {
    activityId: integer('activity_id')
      .notNull()
      .references(() => seckillActivity.id, { onDelete: 'cascade' }),
    specificationId: integer('specification_id').notNull(),
    productId: integer('product_id').notNull(),
    siteId: integer('site_id').notNull(),
    price: integer('price').notNull(),
    totalStock: integer('total_stock').notNull(),
    stock: integer('stock').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.activityId, t.specificationId] }),
    index('seckill_sku_product_idx').on(t.siteId, t.productId),
    check('seckill_sku_stock_check', sql`${t.stock} >= 0 and ${t.stock} <= ${t.totalStock}`),
    check('seckill_sku_price_check', sql`${t.price} >= 0`),
  ],
);

/** Pieces a member holds in an activity: the per-member limit is a capped upsert of this row. */
export const seckillPurchase = pgTable(
  'seckill_purchase',
  {
    activityId: integer('activity_id').notNull(),
    memberId: integer('member_id').notNull(),
    siteId: integer('site_id').notNull(),
    qty: integer('qty').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.activityId, t.memberId] }),
    check('seckill_purchase_qty_check', sql`${t.qty} >= 0`),
  ],
);

/** The flash-sale part of an order, so a cancel, expiry or refund gives it back exactly once. */
export const seckillOrder = pgTable('seckill_order', {
  orderNo: text('order_no').primaryKey(),
  siteId: integer('site_id').notNull(),
  activityId: integer('activity_id').notNull(),
  specificationId: integer('specification_id').notNull(),
  memberId: integer('member_id').notNull(),
  num: smallint('num').notNull(),
  returnedAt: timestamp('returned_at', { withTimezone: true }),
});
