import { type Static, Type } from '@sinclair/typebox';
import { CartLinesInput, IdList } from './cart.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf } from './numbers.ts';
import { Page, PageNum } from './paging.ts';
import { SiteId } from './site.ts';

/**
 * Vouchers (issue 13; design promotions.md section 1). A template per site says what a voucher
 * takes off (amount with a threshold, percent with a cap, or points), on which lines (scope),
 * when it can be claimed and used, how many exist and per member, and how a member gets one.
 * Every amount is an integer in fen (points are fen too).
 */

/** A member voucher's life: unused → locked (order submitted) → used (paid); locked → unused|expired. */
export const VOUCHER_STATUS = {
  /** Claimed on a template that needs an operator's review first. */
  pendingReview: 'pending_review',
  unused: 'unused',
  locked: 'locked',
  used: 'used',
  expired: 'expired',
  void: 'void',
} as const;
export type VoucherStatus = (typeof VOUCHER_STATUS)[keyof typeof VOUCHER_STATUS];

/** The tabs of 我的优惠券 (the statuses a member sees). */
export const VOUCHER_TABS = [
  { status: 'unused', name: '未使用' },
  { status: 'locked', name: '使用中' },
  { status: 'used', name: '已使用' },
  { status: 'expired', name: '已过期' },
] as const;

export const VOUCHER_KINDS = ['amount', 'percent', 'points'] as const;
export type VoucherKind = (typeof VOUCHER_KINDS)[number];
export const VOUCHER_SCOPES = ['all', 'categories', 'products', 'sources'] as const;
export type VoucherScopeType = (typeof VOUCHER_SCOPES)[number];
/** How a member gets a voucher: self-claim in the centre, a code, operator issue, claim + review. */
export const CLAIM_MODES = ['self', 'code', 'issue', 'review'] as const;
export type ClaimMode = (typeof CLAIM_MODES)[number];

export const VOUCHER_MSG = {
  unavailable: '优惠券不存在或不可用',
  notFound: '优惠券不存在',
  notClaimable: '该优惠券当前不可领取',
  soldOut: '优惠券已领完',
  perMemberLimit: '已达到每人限领张数',
  budgetOut: '活动预算已用完',
  claimed: '领取成功',
  pendingReview: '已提交领取申请，待审核',
  badCode: '兑换码无效或已失效',
  sameGroup: '同一叠加组的优惠券每单只能使用一张',
  belowThreshold: '未达到使用门槛',
  outOfScope: '所选商品不在优惠券适用范围内',
  notYetValid: '优惠券尚未到使用时间',
} as const;

const Id = IdOf();
const Time = Type.String({ format: 'date-time' });

/** Which lines a template applies to. */
export const VoucherScope = Type.Object({
  type: Type.Union(VOUCHER_SCOPES.map((s) => Type.Literal(s))),
  /** Category ids, product ids or supply source numbers, after `type`. */
  ids: Type.Array(Type.Integer()),
});
export type VoucherScope = Static<typeof VoucherScope>;

/** What a member sees of a voucher (and of a template, in the centre). */
export const VoucherRules = Type.Object({
  templateId: Type.Integer(),
  name: Type.String(),
  kind: Type.Union(VOUCHER_KINDS.map((k) => Type.Literal(k))),
  /** amount/points: fen off; percent: percent off (15 = 15 % off, pays 85 %). */
  value: Type.Integer(),
  /** percent: most fen off; null = no cap. */
  cap: Type.Union([Type.Integer(), Type.Null()]),
  /** Fen the in-scope lines must reach; 0 = none. */
  threshold: Type.Integer(),
  scope: VoucherScope,
  stackGroup: Type.String(),
  /** The rule in words: 满100减10, 9折最多减20, 抵50积分. */
  title: Type.String(),
  scopeText: Type.String(),
});
export type VoucherRules = Static<typeof VoucherRules>;

export const MemberVoucher = Type.Composite([
  VoucherRules,
  Type.Object({
    id: Type.Integer(),
    status: Type.String(),
    statusName: Type.String(),
    validFrom: Time,
    validTo: Time,
    orderNo: Type.Union([Type.String(), Type.Null()]),
    claimTime: Time,
    usedTime: Type.Union([Time, Type.Null()]),
  }),
]);
export type MemberVoucher = Static<typeof MemberVoucher>;

/** A member voucher checked against the lines of a checkout. */
export const AvailableVoucher = Type.Composite([
  MemberVoucher,
  Type.Object({
    usable: Type.Boolean(),
    /** Fen this voucher alone takes off these lines. */
    saving: Type.Integer(),
    /** Why it cannot be used here; empty when usable. */
    reason: Type.String(),
  }),
]);
export type AvailableVoucher = Static<typeof AvailableVoucher>;

/** The saving of one checkout line (frozen on the order line at submission). */
export const LineSaving = Type.Object({
  specificationId: Type.Integer(),
  amount: Type.Integer({ description: 'line amount before vouchers, fen' }),
  saving: Type.Integer(),
});
export type LineSaving = Static<typeof LineSaving>;

export const Available = Type.Object({
  list: Type.Array(AvailableVoucher),
  /** The best combination (one per stacking group), chosen by default at checkout. */
  best: Type.Array(Type.Integer()),
  /** The vouchers applied below: those the checkout named, or the best. */
  chosen: Type.Array(Type.Integer()),
  /** Total fen the chosen vouchers take off, and how it splits over the lines. */
  saving: Type.Integer(),
  lines: Type.Array(LineSaving),
});
export type Available = Static<typeof Available>;

export const CenterTemplate = Type.Composite([
  VoucherRules,
  Type.Object({
    claimMode: Type.String(),
    /** null = no total limit. */
    remaining: Type.Union([Type.Integer(), Type.Null()]),
    perMemberLimit: Type.Union([Type.Integer(), Type.Null()]),
    /** How many this member holds of it (0 for a visitor). */
    claimed: Type.Integer(),
    canClaim: Type.Boolean(),
    validText: Type.String(),
  }),
]);
export type CenterTemplate = Static<typeof CenterTemplate>;

/** The lines of a checkout, as the order submission takes them: cart lines or bought now. */
const Lines = { cartIds: Type.Optional(IdList), productInfos: Type.Optional(CartLinesInput) };
/** The voucher ids a checkout names: a list, "1,2" or its JSON text (as accVoucherIds). */
export const VoucherIds = Type.Optional(
  Type.Union([Type.Array(Id, { maxItems: 20 }), Type.String({ maxLength: 400 })]),
);

export const VoucherFindBody = Type.Object({
  siteId: SiteId,
  status: Type.Optional(Type.Union(VOUCHER_TABS.map((t) => Type.Literal(t.status)))),
  pageNum: Type.Optional(PageNum),
});
export const VoucherPage = Page(MemberVoucher);
export type VoucherPage = Static<typeof VoucherPage>;
export const VoucherCount = Type.Object({
  total: Type.Integer(),
  byStatus: Type.Array(Type.Object({ status: Type.String(), name: Type.String(), count: Type.Integer() })),
});
export type VoucherCount = Static<typeof VoucherCount>;
export const ClaimResult = Type.Object({ voucher: MemberVoucher });
export type ClaimResult = Static<typeof ClaimResult>;
export const VoucherProducts = Page(
  Type.Object({
    productId: Type.Integer(),
    name: Type.String(),
    image: Type.String(),
    price: Type.Integer(),
  }),
);
export type VoucherProducts = Static<typeof VoucherProducts>;

const member = { site: 'required', auth: 'required', tag: 'voucher' } as const;

export const voucherApi = {
  find: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/find',
    summary: '我的优惠券（按状态，每页 10 张）',
    body: VoucherFindBody,
    reply: Envelope(VoucherPage),
  }),
  count: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/count',
    summary: '优惠券数量（按状态）',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(VoucherCount),
  }),
  bind: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/bind',
    summary: '兑换码领取优惠券',
    body: Type.Object({ siteId: SiteId, code: Type.String({ minLength: 1, maxLength: 64 }) }),
    reply: Envelope(ClaimResult),
  }),
  available: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/available',
    summary: '结算可用优惠券（含最优组合与每行优惠）',
    body: Type.Object({ siteId: SiteId, ...Lines, accVoucherIds: VoucherIds }),
    reply: Envelope(Available),
  }),
  availableCount: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/availableCount',
    summary: '结算可用优惠券张数',
    body: Type.Object({ siteId: SiteId, ...Lines }),
    reply: Envelope(Type.Object({ count: Type.Integer() })),
  }),
  products: endpoint({
    site: 'required',
    auth: 'optional',
    tag: 'voucher',
    method: 'POST',
    path: '/api/voucher/products',
    summary: '优惠券可用商品',
    body: Type.Object({ siteId: SiteId, templateId: Id, pageNum: Type.Optional(PageNum) }),
    reply: Envelope(VoucherProducts),
  }),
  pendingReview: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/pendingReview',
    summary: '待审核的领取申请',
    body: Type.Object({ siteId: SiteId, pageNum: Type.Optional(PageNum) }),
    reply: Envelope(VoucherPage),
  }),
  updateUseStatus: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/updateUseStatus',
    summary: '优惠券使用状态（由下单、支付、取消决定；此调用只回答当前状态）',
    body: Type.Object({
      siteId: SiteId,
      id: Id,
      status: Type.Optional(Type.String({ maxLength: 20 })),
    }),
    reply: Envelope(Type.Object({ id: Type.Integer(), status: Type.String(), statusName: Type.String() })),
  }),
  center: endpoint({
    site: 'required',
    auth: 'optional',
    tag: 'voucher',
    method: 'POST',
    path: '/api/voucher/center',
    summary: '领券中心（可领取的优惠券）',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(Type.Object({ list: Type.Array(CenterTemplate) })),
  }),
  claim: endpoint({
    ...member,
    method: 'POST',
    path: '/api/voucher/claim',
    summary: '领取优惠券',
    body: Type.Object({ siteId: SiteId, templateId: Id }),
    reply: Envelope(ClaimResult),
  }),
};
