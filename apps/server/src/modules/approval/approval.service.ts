import { DEFAULT_ORDER_EXPIRE_MINUTES, fenToYuan, ORDER_STATUS, type OrderStatus } from '@sitemall/contract';
import { eq, type SQLWrapper, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { rowJson } from '../../lib/columns';
import { failure } from '../../lib/errors';
import { prepared } from '../../lib/prepared';
import { EXPIRY_BATCH, lockExpiredOrders } from '../order/expiry';
import { siteOrder } from '../order/lines';
import { endUnpaidOrders, moveOrders, type OrderRow, statusName } from '../order/order.service';
import { approvalRule } from './approval.tables';

/**
 * Order approval: a site's rule sends big orders to approvers before payment. Submission asks
 * approvalFor (order/submit.ts); approvers (the console; tests and the ops CLI now) approve,
 * pass on to the second level, or reject; the timer expires what nobody decided. Every move
 * is moveOrders'.
 */

export type ApprovalRule = typeof approvalRule.$inferSelect;
const HOUR_MS = 3_600_000;

export const APPROVAL_MSG = {
  notWaiting: '订单不在待审批状态',
  badReason: '请填写不通过的原因（最多 200 字）',
  notFound: '订单不存在',
  levelChanged: '订单审批状态已变化，请刷新后再试',
  sameApprover: '两级审批须由不同人员完成',
} as const;

export interface RuleInput {
  siteId: number;
  minAmount: number;
  levels: 1 | 2;
  expireHours?: number;
  isEnabled?: boolean;
  minQty?: number | null;
  sources?: number[];
  vipLevelIds?: number[];
}

/** Sets a site's rule (the console's form); min amount in fen. */
export async function setApprovalRule(db: Db, rule: RuleInput): Promise<ApprovalRule> {
  const values = {
    siteId: rule.siteId,
    minAmount: rule.minAmount,
    levels: rule.levels,
    expireHours: rule.expireHours ?? 48,
    isEnabled: rule.isEnabled ?? true,
    minQty: rule.minQty ?? null,
    sources: [...new Set(rule.sources ?? [])].sort((a, b) => a - b),
    vipLevelIds: [...new Set(rule.vipLevelIds ?? [])].sort((a, b) => a - b),
  };
  const [row] = await db
    .insert(approvalRule)
    .values(values)
    .onConflictDoUpdate({ target: approvalRule.siteId, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  return row as ApprovalRule;
}

/** What a rule looks at in an order being submitted. */
export interface OrderFactsForApproval {
  siteId: number;
  payAmount: number;
  /** Pieces in the order. */
  qty?: number;
  /** Supply source codes of its lines. */
  sources?: readonly number[];
  /** The member's VIP level id (null: none). */
  vipLevelId?: number | null;
}

/**
 * Whether the rule sends the order to approvers: for a member of a listed group (any member
 * when none is listed), an order paying at least the amount, or of at least the pieces, or with
 * a line from a listed source.
 */
export function ruleMatches(rule: RuleFacts, order: OrderFactsForApproval): boolean {
  if (!rule.isEnabled) return false;
  if (rule.vipLevelIds.length > 0 && !rule.vipLevelIds.includes(order.vipLevelId ?? -1)) return false;
  return (
    order.payAmount >= rule.minAmount ||
    (rule.minQty !== null && (order.qty ?? 0) >= rule.minQty) ||
    (order.sources ?? []).some((source) => rule.sources.includes(source))
  );
}

/** A site's approval rule, if it has one. */
async function ruleOf(db: Db, siteId: number) {
  const [rule] = await prepared(db, 'approval_rule_of_site', (name) =>
    db
      .select()
      .from(approvalRule)
      .where(eq(approvalRule.siteId, sql.placeholder('siteId')))
      .prepare(name),
  ).execute({ siteId });
  return rule;
}

/** What of a site's rule decides an order's approval (the rule's row without its timestamp). */
export type RuleFacts = Omit<ApprovalRule, 'updatedAt'>;

/**
 * SQL: the site's approval rule as RuleFacts (JSON; null: none), for the statement that reads a
 * checkout's facts in one round trip (order/checkout-facts.ts).
 */
export const approvalRuleSql = (siteId: SQLWrapper) =>
  sql<RuleFacts | null>`(select ${rowJson(approvalRule, ['updatedAt'])} from ${approvalRule} where ${approvalRule.siteId} = ${siteId})`;

/**
 * Whether this order must be approved under the site's rule (null: the site has none): the
 * status it is created in (11) and when it expires unapproved; undefined when it goes straight
 * to payment.
 */
export function approvalFor(
  rule: RuleFacts | null,
  order: OrderFactsForApproval,
  now = new Date(),
): { status: OrderStatus; expireAt: Date } | undefined {
  if (!rule || !ruleMatches(rule, order)) return undefined;
  return {
    status: ORDER_STATUS.pendingApproval,
    expireAt: new Date(now.getTime() + rule.expireHours * HOUR_MS),
  };
}

async function waitingOrder(db: Db, siteId: number, orderNo: string): Promise<OrderRow> {
  const row = await siteOrder(db, siteId, orderNo);
  if (!row) throw failure(APPROVAL_MSG.notFound);
  if (row.status !== ORDER_STATUS.pendingApproval && row.status !== ORDER_STATUS.pendingFinalApproval)
    throw failure(`${APPROVAL_MSG.notWaiting}（${statusName(row.status)}）`);
  return row;
}

export interface ApprovalInput {
  siteId: number;
  orderNo: string;
  /** Who decides (the console's operator name), for the order's history. */
  approver: string;
  note?: string;
}

/**
 * Approves an order. On a two-level site the first approval passes it on (11 → 12); the last
 * one makes it payable (→ 15) with a fresh payment time. Two approvers deciding one order at
 * once: the conditional move lets one win; the other is told the order is no longer waiting.
 */
export async function approveOrder(
  db: Db,
  input: ApprovalInput & { payMinutes?: number; expectStatus?: number },
  now = new Date(),
): Promise<OrderRow> {
  const order = await waitingOrder(db, input.siteId, input.orderNo);
  // The level the approver saw: a second click (or tab) on a two-level order must not pass
  // the level after it too.
  if (input.expectStatus !== undefined && order.status !== input.expectStatus)
    throw failure(`${APPROVAL_MSG.levelChanged}（${statusName(order.status)}）`);
  const rule = await ruleOf(db, order.siteId);
  const passOn = order.status === ORDER_STATUS.pendingApproval && (rule?.levels ?? 1) === 2;
  const who = `${input.approver}${input.note ? `：${input.note.trim().slice(0, 200)}` : ''}`;
  const [moved] = await db.transaction((tx) =>
    passOn
      ? moveOrders(tx, [order.id], {
          from: order.status,
          to: ORDER_STATUS.pendingFinalApproval,
          note: `一级审批通过，待二级审批（${who}）`,
        })
      : moveOrders(tx, [order.id], {
          from: order.status,
          to: ORDER_STATUS.approvedPendingPayment,
          note: `审批通过，待付款（${who}）`,
          set: {
            expireAt: new Date(now.getTime() + (input.payMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES) * 60_000),
          },
        }),
  );
  if (!moved) throw failure(APPROVAL_MSG.notWaiting);
  return moved;
}

/** Rejects an order (→ 21, final) with a reason the member sees; its stock returns. */
export async function rejectOrder(db: Db, input: ApprovalInput & { reason: string }): Promise<OrderRow> {
  const reason = input.reason.trim();
  if (!reason || reason.length > 200) throw failure(APPROVAL_MSG.badReason);
  const order = await waitingOrder(db, input.siteId, input.orderNo);
  const [moved] = await db.transaction((tx) =>
    endUnpaidOrders(
      tx,
      [order.id],
      ORDER_STATUS.notApproved,
      `审批不通过：${reason}（${input.approver}）`,
      order.status as OrderStatus,
    ),
  );
  if (!moved) throw failure(APPROVAL_MSG.notWaiting);
  return moved;
}

/**
 * Expires orders nobody approved in time (11, 12) and approved orders nobody paid in time
 * (15; one with an open WeChat code waits for the payment reconciliation to close it, as
 * unpaid orders do), returning their stock. Safe with several processes: FOR UPDATE SKIP
 * LOCKED, and the conditional move. Answers how many expired.
 */
export async function expireApprovals(db: Db, now = new Date()): Promise<number> {
  let total = 0;
  for (const from of [
    ORDER_STATUS.pendingApproval,
    ORDER_STATUS.pendingFinalApproval,
    ORDER_STATUS.approvedPendingPayment,
  ] as const) {
    for (;;) {
      const round = await db.transaction(async (tx) => {
        const ids = await lockExpiredOrders(tx, from, now);
        if (ids.length === 0) return { picked: 0, moved: 0 };
        const note =
          from === ORDER_STATUS.approvedPendingPayment
            ? '超时未支付，订单已过期取消'
            : '超时未审批，订单已过期取消';
        const ended = await endUnpaidOrders(tx, ids, ORDER_STATUS.expired, note, from);
        return { picked: ids.length, moved: ended.length };
      });
      total += round.moved;
      if (round.picked < EXPIRY_BATCH) break;
    }
  }
  return total;
}

/** The rule as the console shows it: threshold in yuan text too. */
export async function approvalRuleOf(ctx: RequestContext, siteId: number) {
  const { db } = ctx;
  const rule = await ruleOf(db, siteId);
  return rule ? { ...rule, minAmountText: fenToYuan(rule.minAmount) } : undefined;
}
