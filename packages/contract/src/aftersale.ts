import { type Static, Type } from '@sinclair/typebox';
import { EXCHANGE_WINDOW_DAYS, RETURN_WINDOW_DAYS } from './constants.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf, Int } from './numbers.ts';
import { Page, PageNum } from './paging.ts';
import { SiteId } from './site.ts';

/**
 * After-sales (spec sections 2, 4, 7, 9; design promotions.md section 7): a member asks for a
 * refund, a return with refund or an exchange of some pieces of one delivered line. The case
 * moves through AFTER_SALE_TRANSITIONS only (the server's moveCase refuses anything else);
 * while a case is open its child order shows 31 (after-sales).
 */

export const AFTER_SALE_KINDS = ['refund_only', 'return_refund', 'exchange'] as const;
export type AfterSaleKind = (typeof AFTER_SALE_KINDS)[number];
export const AFTER_SALE_KIND_LABEL: Record<AfterSaleKind, string> = {
  refund_only: '仅退款',
  return_refund: '退货退款',
  exchange: '换货',
};

/** A member who has not shipped the return this many days after approval loses the case. */
export const RETURN_SHIP_DAYS = 7;
/** Shipped orders confirm themselves this many days after shipping unless the site says otherwise. */
export const DEFAULT_AUTO_CONFIRM_DAYS = 10;
export const MAX_AFTER_SALE_PICS = 6;

export const AFTER_SALE_STATUSES = [
  'applied',
  'approved',
  'awaiting_return',
  'returned',
  'refunding',
  'refunded',
  'reshipped',
  'completed',
  'cancelled',
  'rejected',
  'return_refused',
] as const;
export type AfterSaleStatus = (typeof AFTER_SALE_STATUSES)[number];

export const AFTER_SALE_STATUS_LABEL: Record<AfterSaleStatus, string> = {
  applied: '待审核',
  approved: '审核通过',
  awaiting_return: '待寄回商品',
  returned: '商家已收货',
  refunding: '退款中',
  refunded: '退款成功',
  reshipped: '换货已发出',
  completed: '售后完成',
  cancelled: '已撤销',
  rejected: '审核不通过',
  return_refused: '拒绝收货',
};

/** Statuses a case never leaves; every other status is an open case. */
export const AFTER_SALE_FINAL: readonly AfterSaleStatus[] = [
  'refunded',
  'completed',
  'cancelled',
  'rejected',
  'return_refused',
];
export const isCaseOpen = (status: string) => !(AFTER_SALE_FINAL as readonly string[]).includes(status);

export const AFTER_SALE_EVENTS = [
  'approve',
  'askReturn',
  'reject',
  'cancel',
  'expire',
  'receive',
  'refuseReturn',
  'refund',
  'settle',
  'reship',
  'complete',
] as const;
export type AfterSaleEvent = (typeof AFTER_SALE_EVENTS)[number];
export type AfterSaleActor = 'member' | 'operator' | 'system';

export interface AfterSaleTransition {
  readonly from: AfterSaleStatus;
  readonly to: AfterSaleStatus;
  readonly event: AfterSaleEvent;
  readonly actor: AfterSaleActor;
  /** The kinds this move applies to; all when absent. */
  readonly kinds?: readonly AfterSaleKind[];
}

const RETURNS: readonly AfterSaleKind[] = ['return_refund', 'exchange'];

/** The after-sales state machine as data: the one function moveCase enforces it. */
export const AFTER_SALE_TRANSITIONS: readonly AfterSaleTransition[] = [
  { from: 'applied', to: 'approved', event: 'approve', actor: 'operator' },
  { from: 'applied', to: 'rejected', event: 'reject', actor: 'operator' },
  { from: 'applied', to: 'cancelled', event: 'cancel', actor: 'member' },
  // Goods that come back: approval asks the member to send them (same operator action).
  { from: 'approved', to: 'awaiting_return', event: 'askReturn', actor: 'operator', kinds: RETURNS },
  { from: 'approved', to: 'cancelled', event: 'cancel', actor: 'member' },
  { from: 'awaiting_return', to: 'cancelled', event: 'cancel', actor: 'member', kinds: RETURNS },
  // The return was not shipped within RETURN_SHIP_DAYS (timer).
  { from: 'awaiting_return', to: 'cancelled', event: 'expire', actor: 'system', kinds: RETURNS },
  { from: 'awaiting_return', to: 'returned', event: 'receive', actor: 'operator', kinds: RETURNS },
  { from: 'awaiting_return', to: 'return_refused', event: 'refuseReturn', actor: 'operator', kinds: RETURNS },
  { from: 'approved', to: 'refunding', event: 'refund', actor: 'operator', kinds: ['refund_only'] },
  { from: 'returned', to: 'refunding', event: 'refund', actor: 'operator', kinds: ['return_refund'] },
  // Points come back at once; a WeChat part when WeChat says it is done (notify or poll).
  { from: 'refunding', to: 'refunded', event: 'settle', actor: 'system' },
  { from: 'returned', to: 'reshipped', event: 'reship', actor: 'operator', kinds: ['exchange'] },
  { from: 'reshipped', to: 'completed', event: 'complete', actor: 'operator', kinds: ['exchange'] },
];

/** The move `event` makes from `from` for a case of `kind`; undefined when there is none. */
export const caseTransition = (kind: AfterSaleKind, from: string, event: AfterSaleEvent) =>
  AFTER_SALE_TRANSITIONS.find(
    (t) => t.from === from && t.event === event && (!t.kinds || t.kinds.includes(kind)),
  );

/** Reasons the apply form offers (free text is allowed too). */
export const AFTER_SALE_REASONS = [
  '商品质量问题',
  '商品与描述不符',
  '收到商品破损',
  '发错货 / 漏发',
  '未收到货',
  '不想要了',
  '其他',
] as const;

export const AFTER_SALE_MSG = {
  applied: '售后申请已提交，请等待审核',
  notFound: '售后单不存在',
  lineNotFound: '订单商品不存在',
  notReceived: '订单确认收货后才能申请售后',
  virtual: '虚拟商品、电子券和电影票不支持退换货',
  returnWindow: `已超过 ${RETURN_WINDOW_DAYS} 天退货期限，不能申请退货退款`,
  exchangeWindow: `已超过 ${EXCHANGE_WINDOW_DAYS} 天换货期限，不能申请换货`,
  badQty: '申请数量超过可售后数量',
  open: '该商品已有进行中的售后申请',
  badPics: `图片最多 ${MAX_AFTER_SALE_PICS} 张，请通过上传获得图片地址`,
  badReason: '请选择或填写售后原因（最多 100 字）',
  notCancellable: '当前状态不能撤销售后申请',
  cancelled: '售后申请已撤销',
  notAwaitingReturn: '当前状态不需要寄回商品',
  shipped: '退货物流已提交',
  badTracking: '运单号须为 6-40 位字母、数字或 -',
  badCompany: '请填写物流公司（最多 40 字）',
  commented: '留言已发送',
  badComment: '留言内容须为 1-500 字',
  stateChanged: '售后单状态已变化，请刷新后重试',
  overRefund: '退款金额超过该商品实付金额',
} as const;

const Id = IdOf();
const CaseNo = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9]+$' });
const OrderNo = Type.String({ minLength: 1, maxLength: 40 });
const member = { site: 'required', auth: 'required', tag: 'afterSale' } as const;

export const AfterSaleKindSchema = Type.Union(AFTER_SALE_KINDS.map((k) => Type.Literal(k)));
export const AfterSaleStatusSchema = Type.Union(AFTER_SALE_STATUSES.map((s) => Type.Literal(s)));

export const AfterSaleSummary = Type.Object({
  afterSaleNo: Type.String(),
  orderNo: Type.String(),
  childOrderNo: Type.String(),
  lineId: Type.Integer(),
  kind: AfterSaleKindSchema,
  kindName: Type.String(),
  status: AfterSaleStatusSchema,
  statusName: Type.String(),
  isOpen: Type.Boolean(),
  name: Type.String(),
  image: Type.String(),
  specificationValue: Type.String(),
  price: Type.Integer(),
  qty: Type.Integer(),
  reason: Type.String(),
  refundCash: Type.Integer({ description: 'fen refunded (or being refunded) to WeChat' }),
  refundPoints: Type.Integer({ description: 'points refunded' }),
  createTime: Type.String(),
});
export type AfterSaleSummary = Static<typeof AfterSaleSummary>;

export const AfterSaleStep = Type.Object({
  status: AfterSaleStatusSchema,
  statusName: Type.String(),
  actor: Type.String(),
  note: Type.String(),
  createTime: Type.String(),
});

export const ReturnParcel = Type.Object({
  company: Type.String(),
  trackingNo: Type.String(),
  shipTime: Type.String(),
});

export const AfterSaleDetail = Type.Composite([
  AfterSaleSummary,
  Type.Object({
    description: Type.String(),
    pics: Type.Array(Type.String()),
    auditNote: Type.String(),
    returnParcel: Type.Union([ReturnParcel, Type.Null()]),
    reshipParcel: Type.Union([ReturnParcel, Type.Null()]),
    /** When the member must have shipped the return (awaiting return only). */
    returnDeadline: Type.Union([Type.String(), Type.Null()]),
    steps: Type.Array(AfterSaleStep),
  }),
]);
export type AfterSaleDetail = Static<typeof AfterSaleDetail>;

export const AfterSaleComment = Type.Object({
  id: Type.Integer(),
  author: Type.Union([Type.Literal('member'), Type.Literal('operator')]),
  content: Type.String(),
  createTime: Type.String(),
});
export type AfterSaleComment = Static<typeof AfterSaleComment>;

/** What the seven-day check answers for each line of an order. */
export const LineEligibility = Type.Object({
  lineId: Type.Integer(),
  childOrderNo: Type.String(),
  name: Type.String(),
  image: Type.String(),
  specificationValue: Type.String(),
  price: Type.Integer(),
  num: Type.Integer(),
  /** Pieces still open to a refund (bought minus refunded). */
  availableQty: Type.Integer(),
  kinds: Type.Array(AfterSaleKindSchema, { description: 'kinds the member may apply for now' }),
  returnDeadline: Type.Union([Type.String(), Type.Null()]),
  exchangeDeadline: Type.Union([Type.String(), Type.Null()]),
  openAfterSaleNo: Type.Union([Type.String(), Type.Null()]),
  msg: Type.String({ description: 'why nothing can be applied for; empty otherwise' }),
});
export type LineEligibility = Static<typeof LineEligibility>;

export const SevenDayCheck = Type.Object({
  orderNo: Type.String(),
  receivedTime: Type.Union([Type.String(), Type.Null()]),
  lines: Type.Array(LineEligibility),
});
export type SevenDayCheck = Static<typeof SevenDayCheck>;

const CaseBody = Type.Object({ siteId: SiteId, afterSaleNo: CaseNo });

export const AfterSaleListBody = Type.Object({
  siteId: SiteId,
  isOpen: Type.Optional(Type.Boolean({ description: 'true: open cases only; false: closed only' })),
  pageNum: Type.Optional(PageNum),
});
export const AfterSaleApplyBody = Type.Object({
  siteId: SiteId,
  orderNo: OrderNo,
  lineId: Id,
  kind: AfterSaleKindSchema,
  qty: Int(1, 999),
  reason: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  /** Upload answers; a list, or from form data a comma-separated text. */
  pics: Type.Optional(
    Type.Union([
      Type.Array(Type.String({ maxLength: 200 }), { maxItems: MAX_AFTER_SALE_PICS }),
      Type.String({ maxLength: 200 * MAX_AFTER_SALE_PICS + 10 }),
    ]),
  ),
});
export type AfterSaleApplyBody = Static<typeof AfterSaleApplyBody>;
export const AfterSaleDeliveryBody = Type.Object({
  siteId: SiteId,
  afterSaleNo: CaseNo,
  company: Type.String({ minLength: 1, maxLength: 40 }),
  trackingNo: Type.String({ minLength: 1, maxLength: 40 }),
});
export const AfterSaleCommentBody = Type.Object({
  siteId: SiteId,
  afterSaleNo: CaseNo,
  content: Type.String({ minLength: 1, maxLength: 500 }),
});
export const SevenDayCheckBody = Type.Object({ siteId: SiteId, orderNo: OrderNo });
export const AfterSaleUploadBody = Type.Object({
  siteId: SiteId,
  file: Type.Unknown({ description: 'the image file' }),
});

const Logistics = Type.Object({
  afterSaleNo: Type.String(),
  returnParcel: Type.Union([ReturnParcel, Type.Null()]),
  reshipParcel: Type.Union([ReturnParcel, Type.Null()]),
});

export const afterSaleApi = {
  list: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/list',
    summary: '我的售后',
    body: AfterSaleListBody,
    reply: Envelope(Page(AfterSaleSummary)),
  }),
  apply: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/apply',
    summary: '申请售后（仅退款 / 退货退款 / 换货，按商品行和数量）',
    body: AfterSaleApplyBody,
    reply: Envelope(AfterSaleDetail),
  }),
  cancel: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/cancel',
    summary: '撤销售后申请',
    body: CaseBody,
    reply: Envelope(AfterSaleDetail),
  }),
  delivery: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/delivery',
    summary: '填写退货物流',
    body: AfterSaleDeliveryBody,
    reply: Envelope(AfterSaleDetail),
  }),
  logistics: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/logistics',
    summary: '售后物流（退回包裹与换货包裹）',
    body: CaseBody,
    reply: Envelope(Logistics),
  }),
  progress: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/progress',
    summary: '售后进度',
    body: CaseBody,
    reply: Envelope(AfterSaleDetail),
  }),
  commentList: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/commentList',
    summary: '售后留言',
    body: CaseBody,
    reply: Envelope(Type.Object({ list: Type.Array(AfterSaleComment) })),
  }),
  comment: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/comment',
    summary: '发送售后留言',
    body: AfterSaleCommentBody,
    reply: Envelope(Type.Object({ list: Type.Array(AfterSaleComment) })),
  }),
  sevenDayCheck: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/sevenDayCheck',
    summary: '七天退货检查（每个商品行可申请的售后类型和期限）',
    body: SevenDayCheckBody,
    reply: Envelope(SevenDayCheck),
  }),
  upload: endpoint({
    ...member,
    method: 'POST',
    path: '/api/afterSale/upload',
    summary: '上传售后图片（multipart：siteId, file；PNG/JPG/WebP，≤2 MB，按文件头校验）',
    body: AfterSaleUploadBody,
    reply: Envelope(Type.Object({ url: Type.String() })),
  }),
};
