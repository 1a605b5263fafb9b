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
import { mallOrder } from '../order/order.tables';

/** What the provider needs to issue: the show and seats, the phone and face value, the code's product. */
export interface ProviderPayload {
  /** movie */
  showId?: string;
  seatIds?: string[];
  seatNames?: string[];
  filmName?: string;
  cinemaName?: string;
  hall?: string;
  startTime?: string;
  /** topup: the phone number and face value (yuan) */
  phone?: string;
  faceValue?: number;
  /** code: the specification whose stock the codes come from, and how many */
  specificationId?: number;
  num?: number;
  name?: string;
}

/**
 * One child order's goods at a provider (promotions.md section 8). The status moves only
 * through moveProviderOrder (PROVIDER_TRANSITIONS of the contract). provider_req_id is the
 * idempotency key every issue request carries, retries included: the provider issues once per
 * id. `codes` holds the issued ticket or e-codes sealed with AES-256-GCM, never in clear.
 */
export const providerOrder = pgTable(
  'provider_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => mallOrder.id, { onDelete: 'cascade' }),
    orderNo: text('order_no').notNull(),
    childOrderNo: text('child_order_no').notNull(),
    kind: text('kind').notNull(),
    /** Which adapter: the simulator's cinema, top-up, or the local code stock. */
    provider: text('provider').notNull(),
    providerReqId: text('provider_req_id').notNull(),
    providerOrderId: text('provider_order_id'),
    status: text('status').notNull(),
    payload: jsonb('payload').$type<ProviderPayload>().notNull(),
    /** movie: the provider's seat lock and until when it holds. */
    lockId: text('lock_id'),
    lockExpiresAt: timestamp('lock_expires_at', { withTimezone: true }),
    /** Sealed JSON array of the issued codes. */
    codes: text('codes'),
    attempts: integer('attempts').notNull().default(0),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }).notNull().defaultNow(),
    /** Why the last attempt did not settle (no codes, no personal data). */
    lastError: text('last_error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('provider_order_req_idx').on(t.providerReqId),
    index('provider_order_order_idx').on(t.orderId),
    index('provider_order_child_idx').on(t.childOrderNo),
    // The issue worker reads due outbox rows; the sweeper the rows waiting for payment.
    index('provider_order_due_idx').on(t.status, t.nextRetryAt),
    check(
      'provider_order_status_check',
      sql`${t.status} in ('locked','pending','paid','issuing','issued','failed','expired')`,
    ),
    check('provider_order_kind_check', sql`${t.kind} in ('movie','topup','code')`),
  ],
);

/**
 * Pre-loaded e-codes of other brands per specification, sealed. A code is handed out by an
 * UPDATE of one available row taken with FOR UPDATE SKIP LOCKED (never to two orders); the
 * hash keeps an imported batch from loading one code twice.
 */
export const providerCode = pgTable(
  'provider_code',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    specificationId: integer('specification_id').notNull(),
    codeSealed: text('code_sealed').notNull(),
    codeHash: text('code_hash').notNull(),
    batch: text('batch').notNull().default(''),
    providerOrderId: bigint('provider_order_id', { mode: 'number' }).references(() => providerOrder.id),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('provider_code_hash_idx').on(t.siteId, t.specificationId, t.codeHash),
    index('provider_code_free_idx')
      .on(t.siteId, t.specificationId, t.id)
      .where(sql`${t.providerOrderId} is null`),
  ],
);

/**
 * Every send of a provider order's issue request and what came of it (the console's attempt
 * log): the worker's sends, an operator's retry (with who) and an operator's refund.
 */
export const providerAttempt = pgTable(
  'provider_attempt',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerOrderId: bigint('provider_order_id', { mode: 'number' })
      .notNull()
      .references(() => providerOrder.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    outcome: text('outcome').notNull(),
    note: text('note').notNull().default(''),
    operatorId: integer('operator_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('provider_attempt_order_idx').on(t.providerOrderId, t.id),
    check('provider_attempt_action_check', sql`${t.action} in ('issue','cancel','stock','retry','refund')`),
  ],
);

export interface ReconItemRow {
  kind: 'missingOurs' | 'missingTheirs' | 'amountDiffers';
  reqId: string;
  orderNo: string | null;
  siteId: number | null;
  ourAmount: number | null;
  theirAmount: number | null;
  ourStatus: string | null;
}

/**
 * One day's reconciliation of one provider's statement against our provider orders: one row
 * per (day, provider), replaced when run again (the job, or an operator's button).
 */
export const providerReconciliation = pgTable(
  'provider_reconciliation',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** China day, YYYY-MM-DD. */
    day: text('day').notNull(),
    provider: text('provider').notNull(),
    matched: integer('matched').notNull(),
    missingOurs: integer('missing_ours').notNull(),
    missingTheirs: integer('missing_theirs').notNull(),
    amountDiffers: integer('amount_differs').notNull(),
    theirTotal: bigint('their_total', { mode: 'number' }).notNull(),
    ourTotal: bigint('our_total', { mode: 'number' }).notNull(),
    items: jsonb('items').$type<ReconItemRow[]>().notNull(),
    /** Null: the daily job. */
    operatorId: integer('operator_id'),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('provider_reconciliation_day_idx').on(t.day, t.provider),
    check('provider_reconciliation_day_check', sql`${t.day} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`),
    check(
      'provider_reconciliation_counts_check',
      sql`${t.matched} >= 0 and ${t.missingOurs} >= 0 and ${t.missingTheirs} >= 0 and ${t.amountDiffers} >= 0`,
    ),
  ],
);
