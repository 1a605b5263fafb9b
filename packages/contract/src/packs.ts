import { type Static, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf } from './numbers.ts';
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
} as const;

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

export const packsApi = {
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
