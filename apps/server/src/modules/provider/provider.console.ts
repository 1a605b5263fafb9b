import {
  type AdminProviderOrderDetail,
  adminProviderApi as api,
  type ImportCodesBody,
  PROVIDER_ADMIN_MSG,
  PROVIDER_NAME_LABEL,
  PROVIDER_STATUS,
  type ProviderActionBody,
  type ProviderReconciliation,
} from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { RequestContext } from '../../context';
import { chinaTime } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
import { badRequest, failure } from '../../lib/errors';
import { serve } from '../../lib/serve';
import {
  forbidden,
  type OperatorCtx,
  operatorOf,
  requireSiteAccess,
  scopeOf,
  sitesToRead,
} from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import { operatorNames } from '../admin/operators';
import { failAndRefundOrder, orderAmountsOf } from '../order/provider-goods';
import { ProviderRefusal, ProviderUnavailable, type StatementLine } from './adapters';
import { issuerOf, releaseSeats, sendIssue, settleIssued } from './issue';
import { moveProviderOrder, type ProviderDeps } from './provider.service';
import type { providerReconciliation } from './provider.tables';
import {
  adminProviderView,
  attemptsOf,
  claimForRetry,
  codeStock,
  importCodeFile,
  listProviderOrders,
  listReconciliations,
  logAttempt,
  providerOrderOfSite,
  reconcileDay,
} from './provider-admin';

/**
 * Provider goods in the console: provider orders by state with their attempt log, an
 * operator's retry (claimed by a guarded update, so two tabs send once) or refund (cancelled
 * at the provider first, then the order module's failure refund), the e-code import and stock,
 * and the daily reconciliation. Every write is audited in its transaction with a reason.
 */

async function detailOf(
  ctx: RequestContext,
  deps: ProviderDeps,
  siteId: number,
  id: number,
): Promise<AdminProviderOrderDetail> {
  const row = await providerOrderOfSite(ctx, siteId, id);
  const [attempts, amounts] = await Promise.all([
    attemptsOf(ctx, row.id),
    orderAmountsOf(ctx, [row.orderId]),
  ]);
  const names = await operatorNames(
    ctx.db,
    attempts.flatMap((a) => (a.operatorId ? [a.operatorId] : [])),
  );
  const order = amounts.get(row.orderId);
  return {
    ...adminProviderView(deps.codesKey, row),
    payAmount: order?.payAmount ?? 0,
    orderStatus: order?.status ?? 0,
    attemptLog: attempts.map((a) => ({
      id: a.id,
      action: a.action,
      outcome: a.outcome,
      note: a.note,
      operatorName: a.operatorId ? (names.get(a.operatorId) ?? null) : null,
      time: a.createdAt.toISOString(),
    })),
  };
}

const RETRY_MSG = {
  issued: '已重新出票成功',
  failed: '服务商拒绝出票，订单已退款',
  retried: '服务商仍未应答，稍后将自动重试',
} as const;

/** Sends the issue again now, with the same request id; audited before the send. */
async function retry(ctx: OperatorCtx, deps: ProviderDeps, body: ProviderActionBody) {
  requireSiteAccess(ctx, 'orders:manage', body.siteId);
  const reason = requireReason(body.reason);
  const row = await providerOrderOfSite(ctx, body.siteId, body.id);
  const now = new Date();
  const claimed = await audited(ctx, async (tx, record) => {
    const taken = await claimForRetry(tx, row, now);
    await record({
      siteId: row.siteId,
      action: 'provider.retry',
      entity: 'provider_order',
      entityId: row.id,
      before: { status: row.status, attempts: row.attempts },
      after: { attempts: taken.attempts },
      reason,
    });
    return taken;
  });
  const outcome = await sendIssue(ctx, deps, claimed, now, { operatorId: ctx.operator.id, note: reason });
  return { detail: await detailOf(ctx, deps, body.siteId, body.id), msg: RETRY_MSG[outcome] };
}

/**
 * Gives up on an unsettled issue: the provider is asked to cancel the request id first (never
 * a refund on our word alone); if it had issued, the tickets are taken and nothing is refunded.
 * Then, in one audited transaction, the row fails (guarded: one refund for two tabs) and the
 * order module refunds the order (24 → 51, each part the way it was paid).
 */
async function refund(ctx: OperatorCtx, deps: ProviderDeps, body: ProviderActionBody) {
  requireSiteAccess(ctx, 'orders:manage', body.siteId);
  const reason = requireReason(body.reason);
  const row = await providerOrderOfSite(ctx, body.siteId, body.id);
  if (row.status !== PROVIDER_STATUS.issuing) throw failure(PROVIDER_ADMIN_MSG.notIssuing);
  if (row.kind !== 'code') {
    let answer: Awaited<ReturnType<ReturnType<typeof issuerOf>['cancel']>>;
    try {
      answer = await issuerOf(deps, row).cancel(row.providerReqId);
    } catch (error) {
      if (error instanceof ProviderUnavailable) throw failure(PROVIDER_ADMIN_MSG.providerDown);
      if (error instanceof ProviderRefusal) throw failure(error.message);
      throw error;
    }
    if (answer.state === 'issued') {
      await settleIssued(ctx, deps, row, answer.codes ?? [], answer.providerOrderId);
      throw failure(PROVIDER_ADMIN_MSG.alreadyIssued);
    }
  }
  const note = `运营退款：${reason}`.slice(0, 200);
  await audited(ctx, async (tx, record) => {
    const moved = await moveProviderOrder(tx, row.id, PROVIDER_STATUS.issuing, PROVIDER_STATUS.failed, {
      lastError: note,
    });
    if (!moved) throw failure(PROVIDER_ADMIN_MSG.busy);
    if (!(await failAndRefundOrder(tx, row.orderId, note))) throw failure(PROVIDER_ADMIN_MSG.orderMoved);
    await logAttempt(tx, {
      providerOrderId: row.id,
      action: 'refund',
      outcome: 'failed',
      note: reason,
      operatorId: ctx.operator.id,
    });
    await record({
      siteId: row.siteId,
      action: 'provider.refund',
      entity: 'provider_order',
      entityId: row.id,
      before: { status: row.status, orderNo: row.orderNo },
      after: { status: PROVIDER_STATUS.failed },
      reason,
    });
  });
  await releaseSeats(deps, row);
  return detailOf(ctx, deps, body.siteId, body.id);
}

async function importCodes(ctx: OperatorCtx, deps: ProviderDeps, body: ImportCodesBody) {
  requireSiteAccess(ctx, 'stock:manage', body.siteId);
  const reason = requireReason(body.reason);
  const batch = `${chinaTime(new Date(), 'YYYYMMDDHHmmss')}-${ctx.operator.id}`;
  return audited(ctx, async (tx, record) => {
    const result = await importCodeFile(tx, deps.codesKey, {
      siteId: body.siteId,
      specificationId: body.specificationId,
      text: body.text,
      batch,
    });
    await record({
      siteId: body.siteId,
      action: 'provider.codes.import',
      entity: 'provider_code',
      entityId: body.specificationId,
      after: {
        fileName: body.fileName,
        batch,
        added: result.added,
        duplicates: result.duplicates,
        invalid: result.invalid,
      },
      reason,
    });
    return result;
  });
}

/** The statement covers every site: reconciliation is for operators with finance on all of them. */
function requireAllSites(ctx: OperatorCtx, permission: string) {
  if (scopeOf(ctx, permission) !== 'all') throw forbidden(PROVIDER_ADMIN_MSG.allSites);
}

async function reconViews(
  ctx: RequestContext,
  rows: (typeof providerReconciliation.$inferSelect)[],
): Promise<ProviderReconciliation[]> {
  const { db } = ctx;
  const names = await operatorNames(
    db,
    rows.flatMap((r) => (r.operatorId ? [r.operatorId] : [])),
  );
  return rows.map((r) => ({
    id: r.id,
    day: r.day,
    provider: r.provider,
    providerName: PROVIDER_NAME_LABEL[r.provider] ?? r.provider,
    matched: r.matched,
    missingOurs: r.missingOurs,
    missingTheirs: r.missingTheirs,
    amountDiffers: r.amountDiffers,
    theirTotal: r.theirTotal,
    ourTotal: r.ourTotal,
    items: r.items,
    ranBy: r.operatorId ? (names.get(r.operatorId) ?? null) : '每日任务',
    ranAt: r.ranAt.toISOString(),
  }));
}

async function reconcile(ctx: OperatorCtx, deps: ProviderDeps, body: { day: string; reason: string }) {
  requireAllSites(ctx, 'finance:manage');
  const reason = requireReason(body.reason);
  if (body.day > chinaTime(new Date(), 'YYYY-MM-DD')) throw badRequest(PROVIDER_ADMIN_MSG.badDay);
  // The statement is fetched before the transaction: no network call holds it open.
  let lines: StatementLine[];
  try {
    lines = await deps.statement(body.day);
  } catch (error) {
    if (error instanceof ProviderUnavailable) throw failure(PROVIDER_ADMIN_MSG.providerDown);
    if (error instanceof ProviderRefusal) throw failure(error.message);
    throw error;
  }
  const rows = await audited(ctx, async (tx, record) => {
    const saved = await reconcileDay(tx, async () => lines, body.day, ctx.operator.id);
    await record({
      siteId: null,
      action: 'provider.reconcile',
      entity: 'provider_reconciliation',
      entityId: body.day,
      after: saved.map((r) => ({
        provider: r.provider,
        matched: r.matched,
        missingOurs: r.missingOurs,
        missingTheirs: r.missingTheirs,
        amountDiffers: r.amountDiffers,
      })),
      reason,
    });
    return saved;
  });
  return reconViews(ctx, rows);
}

export const providerConsole =
  (deps: ProviderDeps): FastifyPluginAsync =>
  async (app) => {
    serve(app, api.orders, async (req) => {
      const ctx = operatorOf(req);
      const siteIds = sitesToRead(ctx, 'orders:view', req.query.siteId);
      return ok(await listProviderOrders(ctx, { ...req.query, siteIds }, deps.codesKey));
    });
    serve(app, api.order, async (req) => {
      const ctx = operatorOf(req);
      requireSiteAccess(ctx, 'orders:view', req.query.siteId);
      return ok(await detailOf(ctx, deps, req.query.siteId, req.query.id));
    });
    serve(app, api.retry, async (req) => {
      const { detail, msg } = await retry(operatorOf(req), deps, req.body);
      return ok(detail, msg);
    });
    serve(app, api.refund, async (req) =>
      ok(await refund(operatorOf(req), deps, req.body), '已撤销出票并退款'),
    );
    serve(app, api.codeStock, async (req) => {
      const ctx = operatorOf(req);
      return ok(await codeStock(ctx, sitesToRead(ctx, 'stock:view', req.query.siteId), req.query.pageNum));
    });
    serve(app, api.importCodes, async (req) => {
      const result = await importCodes(operatorOf(req), deps, req.body);
      return ok(result, `已导入 ${result.added} 个电子码`);
    });
    serve(app, api.reconciliations, async (req) => {
      const ctx = operatorOf(req);
      requireAllSites(ctx, 'finance:view');
      const { rows, ...page } = await listReconciliations(ctx, req.query);
      return ok({ ...page, list: await reconViews(ctx, rows) });
    });
    serve(app, api.reconcile, async (req) =>
      ok(await reconcile(operatorOf(req), deps, req.body), '对账完成'),
    );
  };
