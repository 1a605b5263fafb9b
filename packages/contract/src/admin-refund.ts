import { Type } from '@sinclair/typebox';
import { adminSchema, REFUND_REQUEST_STATUS, RefundRequest } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Amount, Id } from './numbers.ts';
import { PageNum } from './paging.ts';

/**
 * Four-eyes refunds and the site's money thresholds in the console (issue 12 item 4): the queue
 * of order refund requests (待审批退款), a finance operator's approval (the refund executes in
 * its transaction, exactly once) or rejection, and the per-site thresholds above which a points
 * issue or an order refund needs that second operator.
 */
const { Text, SiteIdIn, Reason, Paged, tagOf } = adminSchema;

export const RefundRequestListBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  status: Type.Optional(Type.Union(REFUND_REQUEST_STATUS.map((s) => Type.Literal(s)))),
  orderNo: Type.Optional(Text(40)),
  pageNum: Type.Optional(PageNum),
});
export const RefundRequestIdBody = Type.Object({ requestId: Id() });
export const RejectRefundBody = Type.Object({ requestId: Id(), reason: Text(200, { minLength: 1 }) });

export const SitePolicy = Type.Object({
  siteId: Type.Integer(),
  /** Fen: points issues above it need a second approver. */
  pointsIssueThreshold: Type.Integer(),
  /** Fen of the order's paid value: console refunds above it need a second approver. */
  refundThreshold: Type.Integer(),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
export const SaveSitePolicyBody = Type.Object({
  siteId: SiteIdIn,
  pointsIssueThreshold: Amount({ maximum: 2_000_000_000, description: '分' }),
  refundThreshold: Amount({ maximum: 2_000_000_000, description: '分' }),
  reason: Reason,
});

export const adminRefundApi = {
  refundRequests: endpoint({
    ...tagOf('orders'),
    operator: 'orders:view',
    method: 'GET',
    path: '/orders/refund-requests',
    summary: '订单退款申请（待审批退款）',
    body: RefundRequestListBody,
    reply: Paged(RefundRequest),
  }),
  approveRefund: endpoint({
    ...tagOf('orders'),
    operator: 'finance:manage',
    method: 'POST',
    path: '/orders/refund-requests/approve',
    summary: '复核并退款（须为申请人以外的财务人员；只退一次）',
    encoding: 'json',
    body: RefundRequestIdBody,
    reply: Envelope(RefundRequest),
  }),
  rejectRefund: endpoint({
    ...tagOf('orders'),
    operator: 'finance:manage',
    method: 'POST',
    path: '/orders/refund-requests/reject',
    summary: '驳回退款申请（须填原因，订单不变）',
    encoding: 'json',
    body: RejectRefundBody,
    reply: Envelope(RefundRequest),
  }),
  sitePolicy: endpoint({
    ...tagOf('sites'),
    operator: 'finance:view',
    method: 'GET',
    path: '/sites/policy',
    summary: '站点复核阈值（积分发放、订单退款）',
    body: Type.Object({ siteId: SiteIdIn }),
    reply: Envelope(SitePolicy),
  }),
  saveSitePolicy: endpoint({
    ...tagOf('sites'),
    operator: 'finance:manage',
    method: 'POST',
    path: '/sites/policy',
    summary: '保存站点复核阈值（须填原因，审计前后值）',
    encoding: 'json',
    body: SaveSitePolicyBody,
    reply: Envelope(SitePolicy),
  }),
};
