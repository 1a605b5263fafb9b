import { type Static, Type } from '@sinclair/typebox';
import { AdminOrder, AdminOrderDetail, adminSchema } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Amount, Int } from './numbers.ts';
import { PageNum } from './paging.ts';

/**
 * Order approval in the console (issue 15, spec statuses 11/12 → 15 or 21): a site's rule
 * (amount, pieces, supply sources, member groups; one or two levels; expiry) and the queue of
 * orders waiting in 11/12, approved (→ 12 or 15) or rejected with a reason (→ 21).
 */
const { Text, SiteIdIn, Reason, Paged, tagOf } = adminSchema;
const tag = tagOf('approval');

export const ApprovalRuleView = Type.Object({
  siteId: Type.Integer(),
  isEnabled: Type.Boolean(),
  minAmount: Type.Integer({ description: 'fen' }),
  minQty: Type.Union([Type.Integer(), Type.Null()]),
  sources: Type.Array(Type.Integer()),
  vipLevelIds: Type.Array(Type.Integer()),
  levels: Type.Integer(),
  expireHours: Type.Integer(),
  /** Choices for the form: the site's VIP levels (member groups). */
  vipLevels: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  updatedAt: Type.Union([Type.String(), Type.Null()]),
});
export type ApprovalRuleView = Static<typeof ApprovalRuleView>;

export const SaveApprovalRuleBody = Type.Object({
  siteId: SiteIdIn,
  isEnabled: Type.Boolean(),
  minAmount: Amount({ maximum: 2_000_000_000 }),
  minQty: Type.Optional(Type.Union([Int(1, 100_000), Type.Null()])),
  sources: Type.Array(Int(1, 9_999), { maxItems: 60 }),
  vipLevelIds: Type.Array(Int(1, 2_147_483_647), { maxItems: 60 }),
  levels: Type.Union([Type.Literal(1), Type.Literal(2)]),
  expireHours: Int(1, 720),
  reason: Reason,
});
export type SaveApprovalRuleBody = Static<typeof SaveApprovalRuleBody>;

export const ApprovalQueueBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  /** 11 first level, 12 second level; both when absent. */
  status: Type.Optional(Type.Union([Type.Literal(11), Type.Literal(12)])),
  pageNum: Type.Optional(PageNum),
});

export const ApprovalDecisionBody = Type.Object({
  siteId: SiteIdIn,
  orderNo: Text(40, { minLength: 1 }),
  /** The level the approver saw (11 or 12): the order moves only from it. */
  status: Type.Union([Type.Literal(11), Type.Literal(12)]),
  note: Type.Optional(Text(200)),
});
export const ApprovalRejectBody = Type.Object({
  siteId: SiteIdIn,
  orderNo: Text(40, { minLength: 1 }),
  reason: Reason,
});

export const adminApprovalApi = {
  rule: endpoint({
    ...tag,
    operator: 'orders:view',
    method: 'GET',
    path: '/approval/rule',
    summary: '站点订单审批规则',
    body: Type.Object({ siteId: SiteIdIn }),
    reply: Envelope(ApprovalRuleView),
  }),
  saveRule: endpoint({
    ...tag,
    operator: 'orders:manage',
    method: 'POST',
    path: '/approval/rule',
    summary: '保存订单审批规则（金额、件数、供货来源、会员分组；一级或两级；须填原因）',
    encoding: 'json',
    body: SaveApprovalRuleBody,
    reply: Envelope(ApprovalRuleView),
  }),
  queue: endpoint({
    ...tag,
    operator: 'orders:view',
    method: 'GET',
    path: '/approval/orders',
    summary: '待审批订单（11 一级、12 二级）',
    body: ApprovalQueueBody,
    reply: Paged(AdminOrder),
  }),
  approve: endpoint({
    ...tag,
    operator: 'orders:manage',
    method: 'POST',
    path: '/approval/approve',
    summary: '审批通过（两级审批的一级转二级，最后一级转待付款）',
    encoding: 'json',
    body: ApprovalDecisionBody,
    reply: Envelope(AdminOrderDetail),
  }),
  reject: endpoint({
    ...tag,
    operator: 'orders:manage',
    method: 'POST',
    path: '/approval/reject',
    summary: '审批不通过（须填原因，订单转 21）',
    encoding: 'json',
    body: ApprovalRejectBody,
    reply: Envelope(AdminOrderDetail),
  }),
};
