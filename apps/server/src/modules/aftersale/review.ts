import {
  AFTER_SALE_CONSOLE_MSG,
  AFTER_SALE_KIND_LABEL,
  AFTER_SALE_STATUS_LABEL,
  type CaseQueueBody,
  type ConsoleCase,
  caseTransition,
  PAGE_SIZE,
  type QueueCase,
  REFUND_PROPOSAL_STATUS_LABEL,
  type RefundProposal,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { forbidden, type OperatorCtx, requireSiteAccess, sitesToRead } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import { inSites } from '../admin/console-kit';
import { operatorNames } from '../admin/operators';
import { memberLabels } from '../identity/member-admin';
import { orderLinesById } from '../order/lines';
import { refundStatuses } from '../payment/refunds';
import type { WechatPay } from '../payment/wechat-pay';
import { caseDetail, comments } from './aftersale.service';
import { afterSale, afterSaleRefund, afterSaleRefundProposal } from './aftersale.tables';
import { type CaseRow, findCase } from './machine';
import { type CaseRef, refundCase, refundPreview, settleRefunds } from './operator';

/**
 * The console's side of after-sales (issue 12 with 15): the queue within the operator's sites,
 * a case with everything an operator decides on, every decision audited in its transaction,
 * and refunds with four eyes (proposed by after-sales, executed by a second operator holding
 * finance).
 */

const OPEN = sql`${afterSale.status} not in ('refunded', 'completed', 'cancelled', 'rejected', 'return_refused')`;
const HOUR_MS = 3_600_000;

/** Open cases first, the longest waiting at the top: what the team works through. */
export async function caseQueue(ctx: OperatorCtx, query: CaseQueueBody) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'aftersales:view', query.siteId);
  if (scope !== 'all' && scope.length === 0) return { list: [], total: 0, pageNum, pageSize: PAGE_SIZE };
  const keyword = query.keyword?.trim();
  const where = and(
    inSites(afterSale.siteId, scope),
    query.status ? eq(afterSale.status, query.status) : undefined,
    query.kind ? eq(afterSale.kind, query.kind) : undefined,
    keyword ? or(eq(afterSale.afterSaleNo, keyword), eq(afterSale.orderNo, keyword)) : undefined,
    query.openOnly ? OPEN : undefined,
  );
  const pending = sql<boolean>`exists (select 1 from ${afterSaleRefundProposal} p
    where p.after_sale_id = ${afterSale.id} and p.status = 'proposed')`;
  return listPage({
    pageNum,
    rows: ctx.db
      .select({ row: afterSale, pending })
      .from(afterSale)
      .where(where)
      .orderBy(desc(OPEN), asc(afterSale.statusAt), asc(afterSale.id)),
    total: ctx.db.select({ n: count() }).from(afterSale).where(where),
    present: async (rows): Promise<QueueCase[]> => {
      const lines = await orderLinesById(
        ctx.db,
        rows.map((r) => r.row.orderLineId),
      );
      const now = Date.now();
      return rows.map(({ row, pending: proposalPending }) => ({
        siteId: row.siteId,
        afterSaleNo: row.afterSaleNo,
        orderNo: row.orderNo,
        kind: row.kind,
        kindName: AFTER_SALE_KIND_LABEL[row.kind],
        status: row.status,
        statusName: AFTER_SALE_STATUS_LABEL[row.status],
        name: lines.get(row.orderLineId)?.name ?? '',
        qty: row.qty,
        reason: row.reason,
        createTime: row.createdAt.toISOString(),
        statusTime: row.statusAt.toISOString(),
        waitingHours: Math.floor((now - row.statusAt.getTime()) / HOUR_MS),
        proposalPending: Boolean(proposalPending),
      }));
    },
  });
}

const canRefund = (row: CaseRow) => caseTransition(row.kind, row.status, 'refund') !== undefined;

async function proposalsOf(db: Db, caseId: number): Promise<RefundProposal[]> {
  const rows = await db
    .select()
    .from(afterSaleRefundProposal)
    .where(eq(afterSaleRefundProposal.afterSaleId, caseId))
    .orderBy(desc(afterSaleRefundProposal.id));
  const names = await operatorNames(
    db,
    rows.flatMap((r) => [r.proposerId, ...(r.deciderId ? [r.deciderId] : [])]),
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    statusName: REFUND_PROPOSAL_STATUS_LABEL[r.status],
    proposerId: r.proposerId,
    proposerName: names.get(r.proposerId) ?? '',
    deciderId: r.deciderId,
    deciderName: r.deciderId ? (names.get(r.deciderId) ?? '') : '',
    cash: r.cash,
    points: r.points,
    reason: r.reason,
    decideNote: r.decideNote,
    createTime: r.createdAt.toISOString(),
  }));
}

async function refundsOf(db: Db, caseId: number) {
  const rows = await db
    .select()
    .from(afterSaleRefund)
    .where(eq(afterSaleRefund.afterSaleId, caseId))
    .orderBy(asc(afterSaleRefund.id));
  const wechat = await refundStatuses(
    db,
    rows.filter((r) => r.channel === 'wechat').map((r) => r.outRefundNo),
  );
  return rows.map((r) => ({
    channel: r.channel,
    amount: r.amount,
    outRefundNo: r.outRefundNo,
    status: r.status,
    wechatStatus: wechat.get(r.outRefundNo) ?? '',
  }));
}

/** A case of a site the operator may read, with its thread, refund preview, proposals and refunds. */
export async function consoleCase(
  ctx: OperatorCtx,
  ref: CaseRef,
  permission = 'aftersales:view',
): Promise<ConsoleCase> {
  requireSiteAccess(ctx, permission, ref.siteId);
  const row = await findCase(ctx.db, ref);
  const [detail, thread, phones, proposals, refunds, preview] = await Promise.all([
    caseDetail(ctx.db, row),
    comments(ctx.db, row.id),
    memberLabels(ctx.db, [row.memberId]),
    proposalsOf(ctx.db, row.id),
    refundsOf(ctx.db, row.id),
    canRefund(row) ? refundPreview(ctx.db, ref) : Promise.resolve(null),
  ]);
  return {
    ...detail,
    siteId: row.siteId,
    memberPhone: phones.get(row.memberId) ?? '',
    comments: thread,
    refundPreview: preview,
    proposals,
    refunds,
  };
}

/**
 * One operator decision on a case, audited in the transaction of the change (before and after
 * status); answers the case as the console shows it.
 */
export async function decideCase(
  ctx: OperatorCtx,
  ref: CaseRef,
  decision: {
    action: string;
    permission?: string;
    reason?: string;
    /** Makes the change; what it answers joins the audit row's after values. */
    run: (tx: Db, row: CaseRow) => Promise<Record<string, unknown> | undefined>;
  },
): Promise<ConsoleCase> {
  const permission = decision.permission ?? 'aftersales:manage';
  requireSiteAccess(ctx, permission, ref.siteId);
  await audited(ctx, async (tx, record) => {
    const row = await findCase(tx, ref);
    const extra = await decision.run(tx, row);
    const [now] = await tx
      .select({ status: afterSale.status })
      .from(afterSale)
      .where(eq(afterSale.id, row.id));
    await record({
      siteId: ref.siteId,
      action: decision.action,
      entity: 'after_sale',
      entityId: row.afterSaleNo,
      before: { status: row.status },
      after: { status: now?.status, ...extra },
      reason: decision.reason ?? '',
    });
  });
  // The answer shows the case to whoever could change it (a finance reviewer too).
  return consoleCase(ctx, ref, permission);
}

/**
 * Proposes the refund of a case: the pro-rata split per channel as it stands now. One open
 * proposal per case (a partial unique index: two tabs proposing at once make one).
 */
export function proposeRefund(ctx: OperatorCtx, ref: CaseRef & { reason: string }) {
  const reason = requireReason(ref.reason);
  return decideCase(ctx, ref, {
    action: 'aftersale.refund.propose',
    reason,
    run: async (tx, row) => {
      if (!canRefund(row)) throw failure(AFTER_SALE_CONSOLE_MSG.notRefundable);
      const split = await refundPreview(tx, ref);
      try {
        await tx.transaction((sp) =>
          sp.insert(afterSaleRefundProposal).values({
            siteId: row.siteId,
            afterSaleId: row.id,
            proposerId: ctx.operator.id,
            cash: split.cash,
            points: split.points,
            reason,
          }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw failure(AFTER_SALE_CONSOLE_MSG.proposalOpen);
        throw error;
      }
      return split;
    },
  });
}

/** The guarded decision on a proposal: only from proposed, and never by its proposer. */
async function decideProposal(
  tx: Db,
  ctx: OperatorCtx,
  row: CaseRow,
  proposalId: number,
  to: 'executed' | 'rejected',
  note = '',
) {
  const [proposal] = await tx
    .select()
    .from(afterSaleRefundProposal)
    .where(and(eq(afterSaleRefundProposal.id, proposalId), eq(afterSaleRefundProposal.afterSaleId, row.id)));
  if (!proposal) throw failure(AFTER_SALE_CONSOLE_MSG.proposalState);
  if (proposal.proposerId === ctx.operator.id) throw forbidden(AFTER_SALE_CONSOLE_MSG.ownProposal);
  const [decided] = await tx
    .update(afterSaleRefundProposal)
    .set({ status: to, deciderId: ctx.operator.id, decideNote: note, decidedAt: sql`now()` })
    .where(
      and(
        eq(afterSaleRefundProposal.id, proposalId),
        eq(afterSaleRefundProposal.status, 'proposed'),
        ne(afterSaleRefundProposal.proposerId, ctx.operator.id),
      ),
    )
    .returning();
  if (!decided) throw failure(AFTER_SALE_CONSOLE_MSG.proposalState);
  return decided;
}

/**
 * Executes a proposal: its guarded move to executed and the refund (refundCase: the case's
 * status CAS, the line's guarded refunded amounts, the ledger credit, the WeChat outbox) in one
 * transaction; two finance tabs executing at once refund once, the other is told it changed.
 */
export function executeRefund(ctx: OperatorCtx, ref: CaseRef & { proposalId: number }) {
  return decideCase(ctx, ref, {
    action: 'aftersale.refund.execute',
    permission: 'finance:manage',
    run: async (tx, row) => {
      const proposal = await decideProposal(tx, ctx, row, ref.proposalId, 'executed');
      await refundCase(tx, { ...ref, cash: proposal.cash, points: proposal.points });
      return { proposalId: proposal.id, cash: proposal.cash, points: proposal.points };
    },
  });
}

export function rejectRefund(ctx: OperatorCtx, ref: CaseRef & { proposalId: number; reason: string }) {
  const reason = requireReason(ref.reason);
  return decideCase(ctx, ref, {
    action: 'aftersale.refund.reject',
    permission: 'finance:manage',
    reason,
    run: async (tx, row) => {
      await decideProposal(tx, ctx, row, ref.proposalId, 'rejected', reason);
      return { proposalId: ref.proposalId };
    },
  });
}

/**
 * Sends the case's WeChat refund again now, with its one refund number (WeChat treats it as
 * the same refund), then completes cases WeChat has confirmed. The network call is outside any
 * transaction; the audit row records what WeChat answered.
 */
export async function retryRefund(ctx: OperatorCtx, wechat: WechatPay, ref: CaseRef) {
  requireSiteAccess(ctx, 'finance:manage', ref.siteId);
  const row = await findCase(ctx.db, ref);
  const [pending] = await ctx.db
    .select()
    .from(afterSaleRefund)
    .where(
      and(
        eq(afterSaleRefund.afterSaleId, row.id),
        eq(afterSaleRefund.channel, 'wechat'),
        eq(afterSaleRefund.status, 'pending'),
      ),
    );
  if (!pending) throw failure(AFTER_SALE_CONSOLE_MSG.noRetry);
  const wechatStatus = await wechat.retryRefund(ctx.db, pending.outRefundNo);
  await settleRefunds(ctx.db);
  await audited(ctx, (_tx, record) =>
    record({
      siteId: ref.siteId,
      action: 'aftersale.refund.retry',
      entity: 'after_sale',
      entityId: row.afterSaleNo,
      after: { outRefundNo: pending.outRefundNo, wechatStatus },
    }),
  );
  return consoleCase(ctx, ref, 'finance:manage');
}

/** Open cases of the sites (the dashboard). */
export async function openCaseCount(db: Db, scope: 'all' | number[]): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(afterSale)
    .where(and(inSites(afterSale.siteId, scope), OPEN));
  return row?.n ?? 0;
}
