import type { PackOrderStatus } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A pack (gift card) product of a site: its face value, price and validity. */
export const packProduct = pgTable(
  'pack_product',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    faceValue: integer('face_value').notNull(),
    salePrice: integer('sale_price').notNull(),
    validityDays: integer('validity_days').notNull(),
    status: text('status').notNull().default('active'),
  },
  (t) => [
    index('pack_product_site_idx').on(t.siteId),
    check(
      'pack_product_value_check',
      sql`${t.faceValue} > 0 and ${t.salePrice} >= 0 and ${t.validityDays} > 0`,
    ),
  ],
);

/** An operator's issue of cards, approved by a second operator. */
export const packBatch = pgTable(
  'pack_batch',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    packProductId: integer('pack_product_id')
      .notNull()
      .references(() => packProduct.id),
    quantity: integer('quantity').notNull(),
    issuedBy: text('issued_by').notNull(),
    approvedBy: text('approved_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('pack_batch_approver_check', sql`${t.issuedBy} <> ${t.approvedBy} and ${t.quantity} > 0`)],
);

/**
 * A card. Its code and PIN exist only as keyed hashes (shown once at issue); its balance only
 * moves with a ledger entry, guarded by `balance >= x` and the CHECK.
 */
export const packCard = pgTable(
  'pack_card',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    /** The operator's batch; null for a card a member bought (its pack_order names it). */
    batchId: integer('batch_id').references(() => packBatch.id),
    name: text('name').notNull(),
    codeHash: text('code_hash').notNull(),
    codeLast4: text('code_last4').notNull(),
    pinHash: text('pin_hash').notNull(),
    faceValue: integer('face_value').notNull(),
    balance: integer('balance').notNull(),
    /** unsold, sold, bound, frozen, exhausted, expired, void. */
    status: text('status').notNull(),
    memberId: integer('member_id'),
    boundAt: timestamp('bound_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('pack_card_code_idx').on(t.siteId, t.codeHash),
    index('pack_card_member_idx').on(t.siteId, t.memberId, t.status),
    check('pack_card_balance_check', sql`${t.balance} >= 0 and ${t.balance} <= ${t.faceValue}`),
  ],
);

/** Every balance change of a card; (card, kind, biz id) is unique so a retry changes nothing. */
export const packLedger = pgTable(
  'pack_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    cardId: integer('card_id')
      .notNull()
      .references(() => packCard.id),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    /** issue, bind, pay, refund, adjust, expire. */
    bizType: text('biz_type').notNull(),
    bizId: text('biz_id').notNull(),
    /** The mall order a pay or refund entry belongs to: what a card gave to an order comes back to it. */
    orderNo: text('order_no'),
    actor: text('actor').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pack_ledger_biz_idx').on(t.cardId, t.bizType, t.bizId),
    index('pack_ledger_card_idx').on(t.cardId, t.id),
    index('pack_ledger_order_idx').on(t.orderNo),
    check('pack_ledger_balance_check', sql`${t.balanceAfter} >= 0`),
  ],
);

/**
 * A member's purchase of a pack product (packsApi.submitAndPay): with points, paid in
 * one transaction with the points debit and the card it issues; with WeChat (wx_pc), unpaid
 * until WeChat reports the payment (the card is issued then) or closed at expire_at
 * (PACK_ORDER_TRANSITIONS, movePackOrder). (site, member, request id) is
 * unique, so a retried purchase answers the first one. The card's code is kept sealed
 * (AES-GCM under a key derived from the master key) so its buyer can read it again for a while
 * (packsApi.virtualCode); the card itself keeps only hashes.
 */
export const packOrder = pgTable(
  'pack_order',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    orderNo: text('order_no').notNull(),
    memberId: integer('member_id').notNull(),
    packProductId: integer('pack_product_id')
      .notNull()
      .references(() => packProduct.id),
    requestId: text('request_id').notNull(),
    payWay: text('pay_way').notNull(),
    payAmount: integer('pay_amount').notNull(),
    /** Bound to the buyer at payment, or kept sold for the buyer to give away. */
    asGift: boolean('as_gift').notNull().default(false),
    status: text('status').$type<PackOrderStatus>().notNull(),
    cardId: integer('card_id').references(() => packCard.id),
    codeSealed: text('code_sealed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** An unpaid (WeChat) order closes at this time; null for points, paid at once. */
    expireAt: timestamp('expire_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('pack_order_no_idx').on(t.orderNo),
    uniqueIndex('pack_order_request_idx').on(t.siteId, t.memberId, t.requestId),
    index('pack_order_member_idx').on(t.siteId, t.memberId, t.id),
    check(
      'pack_order_amount_check',
      sql`${t.payAmount} >= 0 and ${t.status} in ('unpaid', 'paid', 'closed', 'refunded')`,
    ),
    check('pack_order_unpaid_check', sql`${t.status} <> 'unpaid' or ${t.expireAt} is not null`),
    index('pack_order_expire_idx').on(t.expireAt).where(sql`${t.status} = 'unpaid'`),
  ],
);
