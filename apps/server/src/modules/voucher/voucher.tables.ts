import type { VoucherScope } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * A budget per site or campaign: the most fen its vouchers may give away. Claiming reserves a
 * voucher's face value (a percent voucher's cap) by a guarded update; the CHECK is the backstop.
 */
export const promotionBudget = pgTable(
  'promotion_budget',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    limitAmount: integer('limit_amount').notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [check('promotion_budget_used_check', sql`${t.used} >= 0 and ${t.used} <= ${t.limitAmount}`)],
);

/** What a voucher takes off, where, when, how many exist and how a member gets one. */
export const voucherTemplate = pgTable(
  'voucher_template',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    /** amount (fen off above a threshold), percent (value % off, up to cap), points (fen of points off). */
    kind: text('kind').notNull(),
    value: integer('value').notNull(),
    cap: integer('cap'),
    threshold: integer('threshold').notNull().default(0),
    scope: jsonb('scope').$type<VoucherScope>().notNull(),
    /** One voucher per group per order. */
    stackGroup: text('stack_group').notNull().default('default'),
    claimMode: text('claim_mode').notNull(),
    /** The code members type to get it (claim mode code), unique per site. */
    code: text('code'),
    claimFrom: timestamp('claim_from', { withTimezone: true }),
    claimTo: timestamp('claim_to', { withTimezone: true }),
    /** fixed: validFrom..validTo; days: validDays from the claim. */
    validMode: text('valid_mode').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    validDays: integer('valid_days'),
    totalLimit: integer('total_limit'),
    issued: integer('issued').notNull().default(0),
    perMemberLimit: integer('per_member_limit'),
    budgetId: integer('budget_id').references(() => promotionBudget.id),
    /** A full refund gives the voucher back (used → unused). */
    refundReturns: boolean('refund_returns').notNull().default(false),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('voucher_template_site_idx').on(t.siteId, t.status),
    uniqueIndex('voucher_template_code_idx').on(t.siteId, t.code),
    check('voucher_template_issued_check', sql`${t.totalLimit} is null or ${t.issued} <= ${t.totalLimit}`),
    check(
      'voucher_template_value_check',
      sql`${t.value} > 0 and (${t.kind} <> 'percent' or ${t.value} < 100) and ${t.threshold} >= 0`,
    ),
    check(
      'voucher_template_kind_check',
      sql`${t.kind} in ('amount','percent','points') and ${t.claimMode} in ('self','code','issue','review')
        and ${t.validMode} in ('fixed','days') and ${t.status} in ('draft','active','paused','ended')`,
    ),
  ],
);

/**
 * How many of a template a member has claimed: the per-member limit is a guarded upsert on
 * this row (never a count of vouchers then an insert).
 */
export const voucherClaimCounter = pgTable(
  'voucher_claim_counter',
  {
    templateId: integer('template_id')
      .notNull()
      .references(() => voucherTemplate.id, { onDelete: 'cascade' }),
    memberId: integer('member_id').notNull(),
    claimed: integer('claimed').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.memberId] }),
    check('voucher_claim_counter_check', sql`${t.claimed} >= 0`),
  ],
);

/** A member's voucher; its rules are the template's (templates never change their money rules). */
export const voucher = pgTable(
  'voucher',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => voucherTemplate.id),
    memberId: integer('member_id').notNull(),
    status: text('status').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
    validTo: timestamp('valid_to', { withTimezone: true }).notNull(),
    /** How it came (claim mode) and the member's claim number: one voucher per claim slot. */
    source: text('source').notNull(),
    claimNo: integer('claim_no').notNull(),
    orderNo: text('order_no'),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('voucher_claim_idx').on(t.templateId, t.memberId, t.claimNo),
    index('voucher_member_idx').on(t.siteId, t.memberId, t.status, t.validTo),
    index('voucher_order_idx').on(t.orderNo).where(sql`${t.orderNo} is not null`),
    index('voucher_expiry_idx').on(t.validTo).where(sql`${t.status} = 'unused'`),
    check(
      'voucher_status_check',
      sql`${t.status} in ('pending_review','unused','locked','used','expired','void')
        and (${t.status} <> 'locked' or ${t.orderNo} is not null)`,
    ),
  ],
);

/** Every status a voucher went through, with the order that moved it (audit trail). */
export const voucherEvent = pgTable(
  'voucher_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    voucherId: integer('voucher_id')
      .notNull()
      .references(() => voucher.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    orderNo: text('order_no'),
    note: text('note').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('voucher_event_voucher_idx').on(t.voucherId, t.id)],
);
