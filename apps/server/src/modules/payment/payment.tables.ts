import type { WechatCodeState } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * What a WeChat code pays for: a mall order (modules/order) or a pack purchase (modules/packs).
 * Payment never reads either; each registers the service that learns of a payment.
 */
export const PAYEES = ['order', 'pack'] as const;
export type Payee = (typeof PAYEES)[number];

/**
 * A site's WeChat Pay merchant account: what the adapter signs with and verifies against.
 * Pointing api_base at https://api.mch.weixin.qq.com with real credentials is all it takes
 * to leave the simulator.
 */
export const payMerchant = pgTable('pay_merchant', {
  siteId: integer('site_id').primaryKey(),
  appid: text('appid').notNull(),
  mchid: text('mchid').notNull(),
  /** Serial number of the merchant API certificate. */
  serialNo: text('serial_no').notNull(),
  privateKeyPem: text('private_key_pem').notNull(),
  apiV3Key: text('api_v3_key').notNull(),
  /** Serial → PEM public key: platform certificates and PUB_KEY_ID_… keys alike. */
  platformKeys: jsonb('platform_keys').$type<Record<string, string>>().notNull(),
  apiBase: text('api_base').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One WeChat Native code (one out_trade_no) asked for an order or a pack purchase (payee). */
export const wechatCode = pgTable(
  'wechat_code',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    payee: text('payee').$type<Payee>().notNull().default('order'),
    /** The payee's row: mall_order.id or pack_order.id (no foreign key: two tables). */
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    orderNo: text('order_no').notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    codeUrl: text('code_url').notNull(),
    state: text('state').$type<WechatCodeState>().notNull(),
    cashAmount: integer('cash_amount').notNull(),
    /** Points held for this code (mixed payment); 0 when WeChat pays it all. */
    pointsAmount: integer('points_amount').notNull(),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    transactionId: text('transaction_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When WeChat was last asked about this code (reconciliation, pay-page polling). */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wechat_code_out_trade_no_idx').on(t.outTradeNo),
    uniqueIndex('wechat_code_transaction_idx').on(t.transactionId),
    // At most one open code per order: two parallel "show me a code" calls cannot both open one.
    uniqueIndex('wechat_code_open_idx')
      .on(t.payee, t.orderId)
      .where(sql`${t.state} = 'open'`),
    index('wechat_code_order_idx').on(t.payee, t.orderId, t.id),
    index('wechat_code_reconcile_idx').on(t.createdAt).where(sql`${t.state} = 'open'`),
    check('wechat_code_amounts_check', sql`${t.cashAmount} > 0 and ${t.pointsAmount} >= 0`),
    check('wechat_code_payee_check', sql`${t.payee} in ('order', 'pack')`),
  ],
);

/** Every notify WeChat (or anyone) posted to us, verified or not, and what became of it. */
export const payNotify = pgTable(
  'pay_notify',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    kind: text('kind').$type<'transaction' | 'refund'>().notNull(),
    eventId: text('event_id'),
    outTradeNo: text('out_trade_no'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    body: text('body').notNull(),
    /** applied, duplicate, ignored, refunded, or rejected: <why>. */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pay_notify_trade_idx').on(t.outTradeNo)],
);

/** A refund we asked WeChat for (a payment that arrived after its order had ended). */
export const payRefund = pgTable(
  'pay_refund',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    codeId: bigint('code_id', { mode: 'number' })
      .notNull()
      .references(() => wechatCode.id, { onDelete: 'cascade' }),
    outRefundNo: text('out_refund_no').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    /** requested (not yet accepted), PROCESSING, SUCCESS, CLOSED or ABNORMAL. */
    status: text('status').notNull(),
    refundId: text('refund_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pay_refund_no_idx').on(t.outRefundNo), index('pay_refund_status_idx').on(t.status)],
);

/**
 * The money journal: each WeChat payment and refund applied, once. The unique key
 * (pay:<transaction_id>, refund:<out_refund_no>) is what makes a repeated notify a no-op.
 */
export const payJournal = pgTable(
  'pay_journal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    orderNo: text('order_no').notNull(),
    codeId: bigint('code_id', { mode: 'number' })
      .notNull()
      .references(() => wechatCode.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'wechat_pay' | 'wechat_refund'>().notNull(),
    /** Fen: positive for money in, negative for money returned. */
    amount: integer('amount').notNull(),
    entryKey: text('entry_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pay_journal_key_idx').on(t.entryKey), index('pay_journal_order_idx').on(t.orderNo)],
);
