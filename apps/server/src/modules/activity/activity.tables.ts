import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export interface GiftAddress {
  consignee: string;
  phone: string;
  address: string;
}

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

/**
 * A marketing activity of a site (spec section 9: type 1 preferential, 2 bargain; code, default
 * cj001), here with its lottery: cost per draw, chances per period, share bonus.
 */
export const mktActivity = pgTable(
  'mkt_activity',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    code: text('code').notNull(),
    type: smallint('type').notNull().default(1),
    name: text('name').notNull(),
    ruleHtml: text('rule_html').notNull().default(''),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    /** 'all' or 'invited' (white users only). */
    audience: text('audience').notNull().default('all'),
    costPoints: integer('cost_points').notNull().default(0),
    chances: integer('chances').notNull().default(1),
    /** 'day' (chances every mall day) or 'activity' (for the whole activity). */
    period: text('period').notNull().default('day'),
    shareBonus: integer('share_bonus').notNull().default(0),
    /** Points (fen) the activity may give away as prizes; null: no cap. */
    budget: integer('budget'),
    /** Points given so far: a points prize is `budget_used + amount <= budget` or no prize. */
    budgetUsed: integer('budget_used').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [
    uniqueIndex('mkt_activity_code_idx').on(t.siteId, t.code),
    check(
      'mkt_activity_budget_check',
      sql`${t.budgetUsed} >= 0 and (${t.budget} is null or ${t.budgetUsed} <= ${t.budget})`,
    ),
    check('mkt_activity_audience_check', sql`${t.audience} in ('all', 'invited')`),
    check('mkt_activity_period_check', sql`${t.period} in ('day', 'activity')`),
    check(
      'mkt_activity_numbers_check',
      sql`${t.costPoints} >= 0 and ${t.chances} >= 0 and ${t.shareBonus} >= 0`,
    ),
  ],
);

/** Invited users of an activity: a partner's white code, bound to a member or a phone. */
export const mktWhiteUser = pgTable(
  'mkt_white_user',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => mktActivity.id, { onDelete: 'cascade' }),
    whiteCode: text('white_code').notNull(),
    memberId: integer('member_id'),
    phone: text('phone'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mkt_white_user_code_idx').on(t.activityId, t.whiteCode),
    index('mkt_white_user_member_idx').on(t.activityId, t.memberId),
    index('mkt_white_user_phone_idx').on(t.activityId, t.phone),
  ],
);

/** A member's chances in a period: a draw is `used + 1 where used < granted`. */
export const mktChance = pgTable(
  'mkt_chance',
  {
    activityId: integer('activity_id').notNull(),
    memberId: integer('member_id').notNull(),
    periodKey: text('period_key').notNull(),
    siteId: integer('site_id').notNull(),
    granted: integer('granted').notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.activityId, t.memberId, t.periodKey] }),
    check('mkt_chance_used_check', sql`${t.used} >= 0 and ${t.used} <= ${t.granted}`),
  ],
);

/** Bonus chances granted, one row per source (a share per period, a paid order): granted once. */
export const mktChanceGrant = pgTable(
  'mkt_chance_grant',
  {
    activityId: integer('activity_id').notNull(),
    memberId: integer('member_id').notNull(),
    source: text('source').notNull(),
    sourceRef: text('source_ref').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.activityId, t.memberId, t.source, t.sourceRef] })],
);

/** A prize of a lottery: weight, and stock (remaining null = unlimited). */
export const mktPrize = pgTable(
  'mkt_prize',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => mktActivity.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 'none' (no prize), 'points' (amount fen, credited at once), 'product' (to be claimed). */
    kind: text('kind').notNull(),
    amount: integer('amount').notNull().default(0),
    weight: integer('weight').notNull(),
    total: integer('total'),
    remaining: integer('remaining'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('mkt_prize_activity_idx').on(t.activityId),
    check('mkt_prize_kind_check', sql`${t.kind} in ('none', 'points', 'product')`),
    check('mkt_prize_weight_check', sql`${t.weight} >= 0 and ${t.amount} >= 0`),
    check('mkt_prize_remaining_check', sql`${t.remaining} is null or ${t.remaining} >= 0`),
  ],
);

/** A draw; the client's key makes a double click answer the first result. */
export const mktDraw = pgTable(
  'mkt_draw',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    activityId: integer('activity_id').notNull(),
    memberId: integer('member_id').notNull(),
    prizeId: integer('prize_id').notNull(),
    /** Points paid for this draw (fen), as the activity charged it then. */
    costPoints: integer('cost_points').notNull().default(0),
    requestKey: text('request_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mkt_draw_request_idx').on(t.activityId, t.memberId, t.requestKey)],
);

/** A prize won (spec: gift records, status 0 to be claimed, 1 claimed, -1 expired). */
export const mktGift = pgTable(
  'mkt_gift',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    activityId: integer('activity_id').notNull(),
    memberId: integer('member_id').notNull(),
    drawId: integer('draw_id').notNull(),
    prizeId: integer('prize_id').notNull(),
    status: smallint('status').notNull(),
    claimDeadline: timestamp('claim_deadline', { withTimezone: true }),
    /** Where a claimed physical prize goes (consignee, phone, full address), copied at the claim. */
    address: jsonb('address').$type<GiftAddress>(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mkt_gift_draw_idx').on(t.drawId),
    index('mkt_gift_member_idx').on(t.siteId, t.memberId, t.createdAt),
    index('mkt_gift_activity_idx').on(t.activityId, t.status),
    check('mkt_gift_status_check', sql`${t.status} in (-1, 0, 1)`),
  ],
);
