import { ADMIN_MSG, type AdminOrderDetail, type OrderSearchBody } from '@sitemall/contract';
import { failure } from '../../lib/errors';
import { memberIdsByPhone, memberLabels } from '../identity/member-admin';
import { refundOrder, shipChildOrder } from '../order/fulfilment';
import { adminOrder, orderByNo, orderDetailOf, searchOrders } from '../order/order-admin';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from './admin.service';
import { audited, requireReason } from './audit';
import { latestRefundRequest, proposeRefund } from './refund-requests';
import { thresholdsOf } from './site-policy';

/** Orders within the operator's sites; `statuses` narrows to any of several (the approval queue). */
export async function findOrders(ctx: OperatorCtx, query: OrderSearchBody & { statuses?: number[] }) {
  const scope = sitesToRead(ctx, 'orders:view', query.siteId);
  const phone = query.phone?.trim();
  const memberIds = phone ? await memberIdsByPhone(ctx.db, scope, phone) : undefined;
  const page = await searchOrders(ctx.db, scope, { ...query, memberIds });
  const phones = await memberLabels(ctx.db, [...new Set(page.list.map((o) => o.memberId))]);
  return { ...page, list: page.list.map((o) => adminOrder(o, phones.get(o.memberId) ?? '')) };
}

/** One order of the site; an order of another site is not found, whatever its number. */
export async function orderOfSite(
  ctx: OperatorCtx,
  siteId: number,
  orderNo: string,
  permission = 'orders:view',
): Promise<AdminOrderDetail> {
  requireSiteAccess(ctx, permission, siteId);
  const order = await orderByNo(ctx.db, orderNo.trim());
  if (!order || order.siteId !== siteId) throw failure(ADMIN_MSG.notFound);
  const [phones, refundRequest] = await Promise.all([
    memberLabels(ctx.db, [order.memberId]),
    latestRefundRequest(ctx.db, order.orderNo),
  ]);
  return { ...(await orderDetailOf(ctx.db, order, phones.get(order.memberId) ?? '')), refundRequest };
}

const brief = (o: AdminOrderDetail) => ({
  status: o.status,
  children: o.children.map((c) => ({ childOrderNo: c.childOrderNo, status: c.status, shipment: c.shipment })),
});

/** Ships a child order through the fulfilment service (which moves the statuses). */
export async function shipOrder(
  ctx: OperatorCtx,
  input: { siteId: number; childOrderNo: string; company: string; trackingNo: string },
): Promise<AdminOrderDetail> {
  requireSiteAccess(ctx, 'orders:manage', input.siteId);
  const orderNo = await audited(ctx, async (tx, record) => {
    const shipped = await shipChildOrder(tx, input);
    await record({
      siteId: input.siteId,
      action: 'order.ship',
      entity: 'child_order',
      entityId: input.childOrderNo,
      after: {
        company: shipped.shipment.company,
        trackingNo: shipped.shipment.trackingNo,
        status: shipped.status,
        isNew: shipped.isNew,
      },
    });
    return shipped.orderNo;
  });
  return orderOfSite(ctx, input.siteId, orderNo);
}

/**
 * Cancels a paid, unshipped order and refunds it (the refund rule); a reason is required. Above
 * the site's refund threshold (the order's paid value, fen) the cancel only proposes the refund:
 * a finance operator other than this one decides it (refund-requests.ts).
 */
export async function cancelOrder(
  ctx: OperatorCtx,
  input: { siteId: number; orderNo: string; reason: string },
): Promise<AdminOrderDetail> {
  const before = await orderOfSite(ctx, input.siteId, input.orderNo, 'orders:manage');
  const reason = requireReason(input.reason);
  const { refundThreshold } = await thresholdsOf(ctx.db, input.siteId);
  await audited(ctx, async (tx, record) => {
    if (before.payAmount > refundThreshold) return proposeRefund(ctx, tx, record, before, reason);
    const refunded = await refundOrder(tx, { siteId: input.siteId, orderNo: before.orderNo, reason });
    await record({
      siteId: input.siteId,
      action: 'order.cancel',
      entity: 'mall_order',
      entityId: before.orderNo,
      before: brief(before),
      after: { status: refunded.status, refunded: refunded.refunded, isNew: refunded.isNew },
      reason,
    });
  });
  return orderOfSite(ctx, input.siteId, input.orderNo);
}
