import type { IssueRow, IssueStatus, RefundRequestStatus } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Someone who runs sites in the console: not a member, with a password and an optional TOTP. */
export const operator = pgTable('operator', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Base32 TOTP secret once bound; login then needs a code. */
  totpSecret: text('totp_secret'),
  /** Set by a platform admin: the operator cannot log in without a bound TOTP. */
  totpRequired: boolean('totp_required').notNull().default(false),
  status: smallint('status').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A named set of permissions ('orders:view', 'points:manage', ...). */
export const operatorRole = pgTable('operator_role', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  permissions: jsonb('permissions').$type<string[]>().notNull(),
});

/**
 * An operator holds a role on a site scope: a list of sites, or all sites (null). The scope
 * sits on the assignment, not the role, so three roles serve any number of sites.
 */
export const operatorAssignment = pgTable(
  'operator_assignment',
  {
    id: serial('id').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operator.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => operatorRole.id, { onDelete: 'cascade' }),
    siteIds: jsonb('site_ids').$type<number[] | null>(),
  },
  (t) => [uniqueIndex('operator_assignment_role_idx').on(t.operatorId, t.roleId)],
);

/** Console sessions: opaque tokens of which only the SHA-256 is stored. */
export const operatorSession = pgTable(
  'operator_session',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operator.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('operator_session_token_idx').on(t.tokenHash)],
);

/** Every console login attempt, successful or not. */
export const operatorLoginLog = pgTable(
  'operator_login_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    username: text('username').notNull(),
    operatorId: integer('operator_id'),
    result: text('result').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
  },
  (t) => [index('operator_login_log_at_idx').on(t.at)],
);

/**
 * Every console write: who, when, where, what, before and after, why, from where. Written in
 * the transaction of the change; a trigger (migration `admin`) refuses UPDATE and DELETE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    operatorId: integer('operator_id').notNull(),
    siteId: integer('site_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason').notNull().default(''),
    ip: text('ip').notNull(),
    requestId: text('request_id').notNull(),
  },
  (t) => [index('audit_log_site_at_idx').on(t.siteId, t.at), index('audit_log_at_idx').on(t.at)],
);

/**
 * Console policy per site: points issues and order refunds above their thresholds (fen) need a
 * second approver with the finance permission.
 */
export const sitePolicy = pgTable('console_site_policy', {
  siteId: integer('site_id').primaryKey(),
  pointsIssueThreshold: integer('points_issue_threshold').notNull(),
  refundThreshold: integer('refund_threshold').notNull().default(100_000),
  updatedAt: timestamp('updated_at', { withTimezone: true }),
});

/**
 * An operator's cancel-and-refund of an order above the site's refund threshold, maker-checker:
 * submitted → approved → executed (the refund, in the approval's transaction) or rejected.
 * At most one open request per order (the partial unique index); the checker is never the maker.
 */
export const orderRefundRequest = pgTable(
  'order_refund_request',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    orderNo: text('order_no').notNull(),
    status: text('status').$type<RefundRequestStatus>().notNull().default('submitted'),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    makerId: integer('maker_id').notNull(),
    approverId: integer('approver_id'),
    decisionReason: text('decision_reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('order_refund_request_site_idx').on(t.siteId, t.status, t.id),
    uniqueIndex('order_refund_request_open_uniq')
      .on(t.orderNo)
      .where(sql`${t.status} in ('submitted', 'approved')`),
    check('order_refund_request_checker', sql`${t.approverId} is null or ${t.approverId} <> ${t.makerId}`),
    check(
      'order_refund_request_status',
      sql`${t.status} in ('submitted', 'approved', 'executed', 'rejected')`,
    ),
  ],
);

/**
 * A points issue (one member or a CSV file), maker-checker: draft → submitted → approved →
 * executed, each step a guarded UPDATE on the status, so it executes exactly once.
 */
export const pointsIssueBatch = pgTable(
  'points_issue_batch',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    status: text('status').$type<IssueStatus>().notNull().default('draft'),
    makerId: integer('maker_id').notNull(),
    approverId: integer('approver_id'),
    fileName: text('file_name').notNull().default(''),
    reason: text('reason').notNull(),
    totalAmount: integer('total_amount').notNull(),
    needsApproval: boolean('needs_approval').notNull(),
    rows: jsonb('rows').$type<IssueRow[]>().notNull(),
    refused: jsonb('refused').$type<{ line: number; detail: string }[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    executedAt: timestamp('executed_at', { withTimezone: true }),
  },
  (t) => [
    index('points_issue_batch_site_idx').on(t.siteId, t.status, t.id),
    check('points_issue_batch_checker', sql`${t.approverId} is null or ${t.approverId} <> ${t.makerId}`),
  ],
);
