import type { AfterSaleActor, AfterSaleKind, AfterSaleStatus } from '@sitemall/contract';
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

export interface Parcel {
  company: string;
  trackingNo: string;
  shipTime: string;
}

/**
 * What one order line may still give back: its paid share per channel (the order's payment
 * split over its lines, split.ts) and what has been refunded. Created when the line's first
 * case is applied for; every refund is one guarded UPDATE of this row, and the CHECK is the
 * backstop: a line never gives back more than was paid for it.
 */
export const afterSaleLine = pgTable(
  'after_sale_line',
  {
    orderLineId: bigint('order_line_id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    orderNo: text('order_no').notNull(),
    qty: integer('qty').notNull(),
    paidCash: integer('paid_cash').notNull(),
    paidPoints: integer('paid_points').notNull(),
    refundedCash: integer('refunded_cash').notNull().default(0),
    refundedPoints: integer('refunded_points').notNull().default(0),
    refundedQty: integer('refunded_qty').notNull().default(0),
  },
  (t) => [
    check(
      'after_sale_line_refund_check',
      sql`${t.refundedCash} >= 0 and ${t.refundedPoints} >= 0 and ${t.refundedQty} >= 0
        and ${t.refundedCash} <= ${t.paidCash} and ${t.refundedPoints} <= ${t.paidPoints}
        and ${t.refundedQty} <= ${t.qty}`,
    ),
  ],
);

/** One after-sales case: some pieces of one line, one kind. */
export const afterSale = pgTable(
  'after_sale',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    afterSaleNo: text('after_sale_no').notNull(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    orderNo: text('order_no').notNull(),
    childOrderId: bigint('child_order_id', { mode: 'number' }).notNull(),
    childOrderNo: text('child_order_no').notNull(),
    orderLineId: bigint('order_line_id', { mode: 'number' }).notNull(),
    kind: text('kind').$type<AfterSaleKind>().notNull(),
    status: text('status').$type<AfterSaleStatus>().notNull(),
    qty: integer('qty').notNull(),
    reason: text('reason').notNull(),
    description: text('description').notNull().default(''),
    pics: jsonb('pics').$type<string[]>().notNull().default([]),
    auditNote: text('audit_note').notNull().default(''),
    returnParcel: jsonb('return_parcel').$type<Parcel>(),
    reshipParcel: jsonb('reship_parcel').$type<Parcel>(),
    refundCash: integer('refund_cash').notNull().default(0),
    refundPoints: integer('refund_points').notNull().default(0),
    /** When the case entered its current status (timers read it). */
    statusAt: timestamp('status_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('after_sale_no_idx').on(t.afterSaleNo),
    // One open case per line: two parallel applications cannot both open one.
    uniqueIndex('after_sale_open_line_idx')
      .on(t.orderLineId)
      .where(sql`${t.status} not in ('refunded', 'completed', 'cancelled', 'rejected', 'return_refused')`),
    index('after_sale_member_idx').on(t.siteId, t.memberId, t.id),
    index('after_sale_status_idx').on(t.status, t.statusAt),
    check('after_sale_amounts_check', sql`${t.qty} > 0 and ${t.refundCash} >= 0 and ${t.refundPoints} >= 0`),
  ],
);

/** Every move of a case: its progress timeline. */
export const afterSaleLog = pgTable(
  'after_sale_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    afterSaleId: bigint('after_sale_id', { mode: 'number' })
      .notNull()
      .references(() => afterSale.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status').$type<AfterSaleStatus>(),
    toStatus: text('to_status').$type<AfterSaleStatus>().notNull(),
    actor: text('actor').$type<AfterSaleActor>().notNull(),
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('after_sale_log_case_idx').on(t.afterSaleId, t.id)],
);

/** The message thread between the member and the operator. */
export const afterSaleComment = pgTable(
  'after_sale_comment',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    afterSaleId: bigint('after_sale_id', { mode: 'number' })
      .notNull()
      .references(() => afterSale.id, { onDelete: 'cascade' }),
    author: text('author').$type<'member' | 'operator'>().notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('after_sale_comment_case_idx').on(t.afterSaleId, t.id)],
);

/**
 * The refund of a case per channel: points are credited in the refund's transaction
 * (succeeded at once); the WeChat part is queued for the payment outbox with one refund
 * number per case and settles when WeChat says so.
 */
export const afterSaleRefund = pgTable(
  'after_sale_refund',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    afterSaleId: bigint('after_sale_id', { mode: 'number' })
      .notNull()
      .references(() => afterSale.id, { onDelete: 'cascade' }),
    /** points, wechat, or pack (what gift cards paid, back to the same cards). */
    channel: text('channel').$type<'points' | 'wechat' | 'pack'>().notNull(),
    amount: integer('amount').notNull(),
    outRefundNo: text('out_refund_no').notNull(),
    status: text('status').$type<'pending' | 'succeeded'>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('after_sale_refund_case_idx').on(t.afterSaleId, t.channel),
    uniqueIndex('after_sale_refund_no_idx').on(t.outRefundNo),
    check('after_sale_refund_amount_check', sql`${t.amount} > 0`),
  ],
);

/**
 * Four eyes on after-sales refunds (issue 12): an operator with the after-sales permission
 * proposes the refund of a case (the pro-rata split at that moment), a second operator with the
 * finance permission executes or rejects it. One open proposal per case (partial unique index);
 * the proposal's guarded status move and the refund run in one transaction, so two executions
 * of one proposal refund once.
 */
export const afterSaleRefundProposal = pgTable(
  'after_sale_refund_proposal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    afterSaleId: bigint('after_sale_id', { mode: 'number' })
      .notNull()
      .references(() => afterSale.id, { onDelete: 'cascade' }),
    /** Console operator ids (the admin module's); kept as numbers, the audit log names them. */
    proposerId: integer('proposer_id').notNull(),
    cash: integer('cash').notNull(),
    points: integer('points').notNull(),
    reason: text('reason').notNull(),
    status: text('status').$type<'proposed' | 'executed' | 'rejected'>().notNull().default('proposed'),
    deciderId: integer('decider_id'),
    decideNote: text('decide_note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('after_sale_refund_proposal_open_idx').on(t.afterSaleId).where(sql`${t.status} = 'proposed'`),
    check(
      'after_sale_refund_proposal_check',
      sql`${t.cash} >= 0 and ${t.points} >= 0 and ${t.status} in ('proposed', 'executed', 'rejected')`,
    ),
  ],
);
