import { type Static, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import {
  AfterSaleComment,
  AfterSaleDetail,
  AfterSaleKindSchema,
  AfterSaleStatusSchema,
} from './aftersale.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id } from './numbers.ts';
import { PageNum } from './paging.ts';

/**
 * The console's after-sales screens (issues 12 and 15): the queue by status and age, a case
 * with its timeline and messages, the operator's decisions, and refunds with four eyes: an
 * operator with the after-sales permission proposes the refund (the pro-rata split per
 * channel), a second operator with the finance permission executes it.
 */
const { Text, SiteIdIn, Reason, Paged, tagOf } = adminSchema;
const tag = tagOf('aftersales');
const CaseNo = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9]+$' });

export const REFUND_PROPOSAL_STATUS_LABEL = {
  proposed: '待财务复核',
  executed: '已执行',
  rejected: '已驳回',
} as const;
export type RefundProposalStatus = keyof typeof REFUND_PROPOSAL_STATUS_LABEL;

export const AFTER_SALE_CONSOLE_MSG = {
  ownProposal: '不能执行自己提出的退款申请',
  proposalOpen: '该售后单已有待复核的退款申请',
  proposalState: '退款申请状态已变化，请刷新后再试',
  nothingToRefund: '该售后单没有可退的金额',
  notRefundable: '当前状态不能申请退款',
  noRetry: '没有待重试的微信退款',
} as const;

export const CaseQueueBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  status: Type.Optional(AfterSaleStatusSchema),
  kind: Type.Optional(AfterSaleKindSchema),
  /** Case or order number. */
  keyword: Type.Optional(Text(40)),
  /** Only open cases (the queue's default). */
  openOnly: Type.Optional(Type.Boolean()),
  pageNum: Type.Optional(PageNum),
});
export type CaseQueueBody = Static<typeof CaseQueueBody>;

export const QueueCase = Type.Object({
  siteId: Type.Integer(),
  afterSaleNo: Type.String(),
  orderNo: Type.String(),
  kind: AfterSaleKindSchema,
  kindName: Type.String(),
  status: AfterSaleStatusSchema,
  statusName: Type.String(),
  name: Type.String(),
  qty: Type.Integer(),
  reason: Type.String(),
  createTime: Type.String(),
  /** When the case entered its current status: the queue sorts the longest waiting first. */
  statusTime: Type.String(),
  /** Hours in the current status (the case's age in the queue). */
  waitingHours: Type.Integer(),
  /** A refund proposal waits for the finance review. */
  proposalPending: Type.Boolean(),
});
export type QueueCase = Static<typeof QueueCase>;

export const ChannelAmounts = Type.Object({
  cash: Type.Integer({ description: 'WeChat part, fen' }),
  points: Type.Integer({ description: 'points part, fen' }),
});

export const RefundProposal = Type.Object({
  id: Type.Integer(),
  status: Type.Union(Object.keys(REFUND_PROPOSAL_STATUS_LABEL).map((s) => Type.Literal(s))),
  statusName: Type.String(),
  proposerId: Type.Integer(),
  proposerName: Type.String(),
  deciderId: Type.Union([Type.Integer(), Type.Null()]),
  deciderName: Type.String(),
  cash: Type.Integer(),
  points: Type.Integer(),
  reason: Type.String(),
  decideNote: Type.String(),
  createTime: Type.String(),
});
export type RefundProposal = Static<typeof RefundProposal>;

export const CaseRefund = Type.Object({
  channel: Type.Union([Type.Literal('points'), Type.Literal('wechat'), Type.Literal('pack')]),
  amount: Type.Integer(),
  outRefundNo: Type.String(),
  /** The case's record: succeeded or pending. */
  status: Type.String(),
  /** WeChat's side (requested = not accepted yet, PROCESSING, SUCCESS, ...); empty for points. */
  wechatStatus: Type.String(),
});

export const ConsoleCase = Type.Composite([
  AfterSaleDetail,
  Type.Object({
    siteId: Type.Integer(),
    memberPhone: Type.String(),
    comments: Type.Array(AfterSaleComment),
    /** What refunding the case now would give back per channel (null when it cannot be refunded). */
    refundPreview: Type.Union([ChannelAmounts, Type.Null()]),
    proposals: Type.Array(RefundProposal),
    refunds: Type.Array(CaseRefund),
  }),
]);
export type ConsoleCase = Static<typeof ConsoleCase>;

const CaseRef = Type.Object({ siteId: SiteIdIn, afterSaleNo: CaseNo });
/** The case named in the payload, and more fields. */
const withRef = <T extends TProperties>(fields: T) =>
  Type.Object({ siteId: SiteIdIn, afterSaleNo: CaseNo, ...fields });
const CaseReply = Envelope(ConsoleCase);
/** A decision on a case: a POST answering the case as it is after it. */
const write = <B extends TSchema>(path: string, summary: string, permission: string, body: B) =>
  endpoint({
    ...tag,
    operator: permission,
    method: 'POST',
    path,
    summary,
    encoding: 'json',
    body,
    reply: CaseReply,
  });

export const adminAfterSaleApi = {
  cases: endpoint({
    ...tag,
    operator: 'aftersales:view',
    method: 'GET',
    path: '/aftersales',
    summary: '售后队列（按状态与等待时长）',
    body: CaseQueueBody,
    reply: Paged(QueueCase),
  }),
  caseDetail: endpoint({
    ...tag,
    operator: 'aftersales:view',
    method: 'GET',
    path: '/aftersales/detail',
    summary: '售后单详情：进度、留言、退款预览与退款申请',
    body: CaseRef,
    reply: CaseReply,
  }),
  approve: write(
    '/aftersales/approve',
    '审核通过（退货、换货转为待寄回）',
    'aftersales:manage',
    withRef({ note: Type.Optional(Text(200)) }),
  ),
  reject: write(
    '/aftersales/reject',
    '审核不通过（须填原因）',
    'aftersales:manage',
    withRef({ reason: Reason }),
  ),
  receive: write('/aftersales/receive', '确认收到退回商品', 'aftersales:manage', CaseRef),
  refuseReturn: write(
    '/aftersales/refuse-return',
    '拒绝收货（须填原因）',
    'aftersales:manage',
    withRef({ reason: Reason }),
  ),
  reply: write(
    '/aftersales/reply',
    '回复会员留言',
    'aftersales:manage',
    withRef({ content: Text(500, { minLength: 1 }) }),
  ),
  reship: write(
    '/aftersales/reship',
    '换货发出',
    'aftersales:manage',
    withRef({ company: Text(40, { minLength: 1 }), trackingNo: Text(40, { minLength: 1 }) }),
  ),
  completeExchange: write('/aftersales/complete', '换货完成', 'aftersales:manage', CaseRef),
  proposeRefund: write(
    '/aftersales/refund/propose',
    '申请退款（按原支付比例拆分，待财务复核；须填原因）',
    'aftersales:manage',
    withRef({ reason: Reason }),
  ),
  executeRefund: write(
    '/aftersales/refund/execute',
    '复核并执行退款（须为申请人以外的财务人员）',
    'finance:manage',
    withRef({ proposalId: Id() }),
  ),
  rejectRefund: write(
    '/aftersales/refund/reject',
    '驳回退款申请（须填原因）',
    'finance:manage',
    withRef({ proposalId: Id(), reason: Reason }),
  ),
  retryRefund: write('/aftersales/refund/retry', '重试微信退款（同一退款单号）', 'finance:manage', CaseRef),
};
