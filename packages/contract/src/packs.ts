import { type Static, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf } from './numbers.ts';
import { OrderNo, WechatCode } from './order.ts';
import { Page, PageNum } from './paging.ts';
import { SiteId } from './site.ts';

/**
 * Prepaid packs = gift cards (issue 13; design promotions.md section 2). Operators issue batches
 * of cards (codes of 16 random characters and a PIN, stored only as keyed hashes); a member binds
 * a card and pays orders with it (pay way `pack`: cards first, smallest balance first, the rest in
 * points). Every balance change has a ledger entry keyed by card, kind and order.
 */

export const PACK_MSG = {
  /** Same words whether the code is unknown, the PIN wrong or the card someone else's. */
  badCode: '卡号或密码不正确',
  bound: '绑定成功',
  alreadyMine: '该卡已绑定到您的账户',
  tooMany: '尝试次数过多，请稍后再试',
  notFound: '卡不存在',
  productNotFound: '卡包商品不存在',
  orderNotFound: '卡包订单不存在',
  /** The pay way is not one this site's paywayConf names (points or WeChat). */
  payWayOff: '本站未开通该支付方式',
  /** The WeChat code of an unpaid purchase; the card comes once WeChat reports the payment. */
  scanToPay: '请使用微信扫码支付',
  bought: '购买成功',
  badBankCardNo: '银行卡号不正确',
} as const;

/** How long the buyer of a pack may read its full code again (/api/packs/virtualCode). */
export const VIRTUAL_CODE_HOURS = 24;

/** A card code as typed: 16 characters of base32, any case, spaces and dashes ignored. */
export const CARD_CODE_TEXT = /^[A-Za-z2-7][A-Za-z2-7\s-]{14,30}[A-Za-z2-7]$/;

export const PackProduct = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  faceValue: Type.Integer({ description: 'fen (points)' }),
  salePrice: Type.Integer(),
  validityDays: Type.Integer(),
});
export type PackProduct = Static<typeof PackProduct>;

export const PackCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** Only the last four characters are ever shown again. */
  codeMasked: Type.String(),
  faceValue: Type.Integer(),
  balance: Type.Integer(),
  status: Type.String(),
  statusName: Type.String(),
  boundTime: Type.Union([Type.String(), Type.Null()]),
  expireTime: Type.String(),
});
export type PackCard = Static<typeof PackCard>;

export const CardLedgerEntry = Type.Object({
  id: Type.Integer(),
  delta: Type.Integer(),
  balanceAfter: Type.Integer(),
  type: Type.String(),
  typeName: Type.String(),
  orderNo: Type.Union([Type.String(), Type.Null()]),
  time: Type.String(),
});
export type CardLedgerEntry = Static<typeof CardLedgerEntry>;

const Id = IdOf();
const Code = Type.String({ minLength: 1, maxLength: 40 });
const member = { site: 'required', auth: 'required', tag: 'packs' } as const;

/** A member's purchase of a pack product. */
export const PackOrder = Type.Object({
  orderNo: Type.String(),
  packId: Type.Integer(),
  name: Type.String(),
  faceValue: Type.Integer(),
  payAmount: Type.Integer({ description: 'fen (points)' }),
  payWay: Type.String(),
  status: Type.String(),
  statusName: Type.String(),
  /** Bound to the buyer (false) or kept for the buyer to give away (true). */
  asGift: Type.Boolean(),
  card: Type.Union([PackCard, Type.Null()]),
  createTime: Type.String(),
  payTime: Type.Union([Type.String(), Type.Null()]),
  /** An unpaid (WeChat) order's deadline; null for one paid at once with points. */
  expireTime: Type.Union([Type.String(), Type.Null()]),
  /** pay way wx_pc: the code to scan (submit) or the latest code's state (query). */
  wechat: Type.Optional(WechatCode),
});
export type PackOrder = Static<typeof PackOrder>;

/** The card code of a pack order: in full (with its PIN) only for its buyer, for a while. */
export const VirtualCode = Type.Object({
  orderNo: Type.String(),
  code: Type.String(),
  pin: Type.Union([Type.String(), Type.Null()]),
  masked: Type.Boolean(),
});
export type VirtualCode = Static<typeof VirtualCode>;

const packOrderEndpoints = {
  submitAndPay: endpoint({
    ...member,
    method: 'POST',
    path: '/api/packs/order/submitAndPay',
    summary:
      '购买卡包（下单并支付：积分即付即发卡；wx_pc 答微信扫码支付的二维码，支付后发卡；requestId 重复提交答同一单）',
    body: Type.Object({
      siteId: SiteId,
      packId: Id,
      payWay: Type.String({ maxLength: 16 }),
      requestId: Type.String({ pattern: '^[\\w.:-]{8,64}$' }),
      asGift: Type.Optional(Type.Boolean()),
    }),
    reply: Envelope(PackOrder),
  }),
  query: endpoint({
    ...member,
    method: 'POST',
    path: '/api/packs/order/query',
    summary: '卡包订单查询（微信支付未到账时向微信查询一次）',
    body: Type.Object({ siteId: SiteId, orderNo: OrderNo }),
    reply: Envelope(PackOrder),
  }),
  virtualCode: endpoint({
    ...member,
    method: 'POST',
    path: '/api/packs/virtualCode',
    summary: '卡包订单的卡号（购买者本人在购买后 24 小时内可见完整卡号与密码，其余掩码）',
    body: Type.Object({ siteId: SiteId, orderNo: OrderNo }),
    reply: Envelope(VirtualCode),
  }),
  unionBankCardNo: endpoint({
    ...member,
    method: 'POST',
    path: '/api/card/unionBankCardNo',
    summary: '银联银行卡号校验（位数与校验位），答掩码卡号',
    body: Type.Object({ siteId: SiteId, cardNo: Type.String({ minLength: 1, maxLength: 40 }) }),
    reply: Envelope(
      Type.Object({ valid: Type.Boolean(), cardNoMasked: Type.String(), isUnionPay: Type.Boolean() }),
    ),
  }),
};

export const packsApi = {
  ...packOrderEndpoints,
  info: endpoint({
    site: 'required',
    tag: 'packs',
    method: 'POST',
    path: '/api/packs/info',
    summary: '卡包商品详情',
    body: Type.Object({ siteId: SiteId, id: Id }),
    reply: Envelope(PackProduct),
  }),
  list: endpoint({
    site: 'required',
    tag: 'packs',
    method: 'POST',
    path: '/api/packs/list',
    summary: '卡包商品列表',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(Type.Object({ list: Type.Array(PackProduct) })),
  }),
  bind: endpoint({
    ...member,
    method: 'POST',
    path: '/api/packs/bind',
    summary: '绑定礼品卡（卡号 + 密码）',
    body: Type.Object({ siteId: SiteId, code: Code, pin: Type.String({ minLength: 1, maxLength: 12 }) }),
    reply: Envelope(Type.Object({ card: PackCard })),
  }),
  count: endpoint({
    ...member,
    method: 'POST',
    path: '/api/packs/count',
    summary: '我的卡包：张数与可用余额',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(Type.Object({ count: Type.Integer(), balance: Type.Integer() })),
  }),
  canBind: endpoint({
    ...member,
    method: 'POST',
    path: '/api/card/canBind',
    summary: '卡号格式是否可绑定（不透露卡是否存在）',
    body: Type.Object({ siteId: SiteId, code: Code }),
    reply: Envelope(Type.Object({ canBind: Type.Boolean(), msg: Type.String() })),
  }),
  page: endpoint({
    ...member,
    method: 'POST',
    path: '/api/card/page',
    summary: '我的卡包（每页 10 张）',
    body: Type.Object({ siteId: SiteId, pageNum: Type.Optional(PageNum) }),
    reply: Envelope(Page(PackCard)),
  }),
  cashList: endpoint({
    ...member,
    method: 'POST',
    path: '/api/card/cashList',
    summary: '卡的收支明细',
    body: Type.Object({ siteId: SiteId, cardId: Id, pageNum: Type.Optional(PageNum) }),
    reply: Envelope(Page(CardLedgerEntry)),
  }),
  ticketBind: endpoint({
    ...member,
    method: 'POST',
    path: '/api/ticket/bind',
    summary: '兑换券绑定（兑换码领取优惠券）',
    body: Type.Object({ siteId: SiteId, code: Code }),
    reply: Envelope(Type.Object({ kind: Type.Literal('voucher'), name: Type.String(), id: Type.Integer() })),
  }),
};
