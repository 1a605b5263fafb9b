import {
  ADMIN_MSG,
  type AdminOrderDetail,
  ORDER_STATUS,
  PAGE_SIZE,
  REFUND_REQUEST_TRANSITIONS,
  type RefundRequest,
  type RefundRequestStatus,
} from '@sitemall/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { refundOrder } from '../order/fulfilment';
import { type OperatorCtx, sitesToRead } from './admin.service';
import { orderRefundRequest } from './admin.tables';
import { type RecordAudit, requireReason } from './audit';
import { inSites } from './console-kit';
import { decidersOf, fourEyes } from './four-eyes';

/**
 * Order refunds above the site's refund threshold (issue 12 item 4): the console's cancel
 * becomes a request that a different operator with finance:manage approves or rejects. The
 * moves are REFUND_REQUEST_TRANSITIONS through the shared four-eyes steps (guarded UPDATEs on
 * the status, the maker excluded in the statement), so of two approvals racing one refunds and
 * the other is told the state changed; the refund runs in the approval's transaction (points and
 * cards there, WeChat through the refund outbox), so it happens exactly when the approval does.
 */

type RequestRow = typeof orderRefundRequest.$inferSelect;

const requests = fourEyes(orderRefundRequest, {
  entity: 'order_refund_request',
  transitions: REFUND_REQUEST_TRANSITIONS,
  msg: { own: ADMIN_MSG.ownRefund, state: ADMIN_MSG.refundState },
});

async function present(db: Db, rows: RequestRow[]): Promise<RefundRequest[]> {
  const deciders = await decidersOf(db, rows);
  return rows.map((r) => ({
    id: r.id,
    siteId: r.siteId,
    orderNo: r.orderNo,
    status: r.status,
    amount: r.amount,
    reason: r.reason,
    makerId: r.makerId,
    ...deciders(r),
    approverId: r.approverId,
    decisionReason: r.decisionReason,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  }));
}

async function presentOne(db: Db, row: RequestRow): Promise<RefundRequest> {
  const [request] = await present(db, [row]);
  return request as RefundRequest;
}

/** The order's latest request (the order detail shows it), if it ever had one. */
export async function latestRefundRequest(db: Db, orderNo: string): Promise<RefundRequest | null> {
  const [row] = await db
    .select()
    .from(orderRefundRequest)
    .where(eq(orderRefundRequest.orderNo, orderNo))
    .orderBy(desc(orderRefundRequest.id))
    .limit(1);
  return row ? presentOne(db, row) : null;
}

/**
 * The maker's half, in the cancel's audited transaction: a paid, unshipped order becomes a
 * submitted request for its paid value. One open request per order (the partial unique index);
 * the refund rules themselves run again when the request is approved.
 */
export async function proposeRefund(
  ctx: OperatorCtx,
  tx: Db,
  record: RecordAudit,
  order: AdminOrderDetail,
  reason: string,
): Promise<void> {
  const shipped = order.children.some((c) => c.shipment || !c.hasAddress);
  if (order.status !== ORDER_STATUS.confirming || !order.paidAt || shipped)
    throw failure(ADMIN_MSG.refundMoved);
  let created: RequestRow | undefined;
  try {
    [created] = await tx.transaction((sp) =>
      sp
        .insert(orderRefundRequest)
        .values({
          siteId: order.siteId,
          orderNo: order.orderNo,
          amount: order.payAmount,
          reason,
          makerId: ctx.operator.id,
        })
        .returning(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw failure(ADMIN_MSG.refundPending);
    throw error;
  }
  if (!created) throw new Error('refund request not created');
  await record({
    siteId: order.siteId,
    action: 'order.refund.propose',
    entity: 'mall_order',
    entityId: order.orderNo,
    before: { status: order.status },
    after: { status: order.status, requestId: created.id, request: created.status, amount: created.amount },
    reason,
  });
}

const summary = (row: RequestRow) => ({
  status: row.status,
  orderNo: row.orderNo,
  amount: row.amount,
  ...(row.status === 'executed' ? { orderStatus: ORDER_STATUS.withdrawn } : {}),
});

/**
 * A second operator approves: the request moves submitted → approved (never by its maker), the
 * order is refunded by the refund rule, and the request moves approved → executed, all in one
 * transaction. An order that moved meanwhile (shipped, refunded another way) refuses the
 * refund and the whole approval rolls back: the request stays submitted for a rejection.
 */
export async function approveRefund(ctx: OperatorCtx, requestId: number): Promise<RefundRequest> {
  const request = await requests.load(ctx, requestId, 'finance:manage');
  const row = await requests.step(
    ctx,
    request,
    { action: 'order.refund.approve', checker: true, after: summary },
    async (tx) => {
      const approved = await requests.move(tx, {
        id: request.id,
        from: 'submitted',
        to: 'approved',
        checker: ctx.operator.id,
      });
      const refunded = await refundOrder(tx, {
        siteId: approved.siteId,
        orderNo: approved.orderNo,
        reason: approved.reason,
      });
      if (!refunded.isNew) throw failure(ADMIN_MSG.refundMoved);
      return requests.move(tx, {
        id: request.id,
        from: 'approved',
        to: 'executed',
        set: { decidedAt: new Date() },
      });
    },
  );
  return presentOne(ctx.db, row);
}

/** A second operator rejects, with a reason; the order stays as it is. */
export async function rejectRefund(
  ctx: OperatorCtx,
  requestId: number,
  reason: string,
): Promise<RefundRequest> {
  const request = await requests.load(ctx, requestId, 'finance:manage');
  const why = requireReason(reason);
  const row = await requests.step(
    ctx,
    request,
    { action: 'order.refund.reject', reason: why, checker: true, after: summary },
    (tx) =>
      requests.move(tx, {
        id: request.id,
        from: 'submitted',
        to: 'rejected',
        checker: ctx.operator.id,
        set: { decisionReason: why, decidedAt: new Date() },
      }),
  );
  return presentOne(ctx.db, row);
}

export async function listRefundRequests(
  ctx: OperatorCtx,
  query: { siteId?: number; status?: RefundRequestStatus; orderNo?: string; pageNum?: number },
) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'orders:view', query.siteId);
  if (scope !== 'all' && scope.length === 0) return { list: [], total: 0, pageNum, pageSize: PAGE_SIZE };
  const orderNo = query.orderNo?.trim();
  const where = and(
    inSites(orderRefundRequest.siteId, scope),
    query.status ? eq(orderRefundRequest.status, query.status) : undefined,
    orderNo ? eq(orderRefundRequest.orderNo, orderNo) : undefined,
  );
  return listPage({
    pageNum,
    rows: ctx.db.select().from(orderRefundRequest).where(where).orderBy(desc(orderRefundRequest.id)),
    total: ctx.db.select({ n: count() }).from(orderRefundRequest).where(where),
    present: (rows) => present(ctx.db, rows),
  });
}
