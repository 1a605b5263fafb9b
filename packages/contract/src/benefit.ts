import { type Static, Type } from '@sinclair/typebox';
import { ActivityGoods, Timing } from './activity.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf } from './numbers.ts';
import { SiteId } from './site.ts';

/**
 * Benefits (权益; spec section 7 "product benefit, receive, receive list, my interests"; issue 14
 * item 5): a site offers the right to one piece of a product; members receive it while the
 * quota lasts, one each, and hold it (my interests) until it is used or expires.
 */

export const BENEFIT_MSG = {
  notFound: '权益不存在',
  notStarted: '活动未开始',
  ended: '活动已结束',
  received: '领取成功',
  receivedBefore: '您已领取过该权益',
  soldOut: '权益已领完',
  vipOnly: '您的会员等级不足，暂不能领取该权益',
} as const;

/** A received benefit: 0 to use, 1 used, -1 expired. */
export const BENEFIT_STATUS = { toUse: 0, used: 1, expired: -1 } as const;
export const BENEFIT_STATUS_LABEL: Record<number, string> = { 0: '待使用', 1: '已使用', [-1]: '已过期' };

const Id = IdOf();

export const BenefitInfo = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  ...ActivityGoods,
  image: Type.String(),
  price: Type.Integer({ description: "the product's price on this site, fen" }),
  total: Type.Integer(),
  remaining: Type.Integer(),
  validDays: Type.Integer({ description: 'days a received benefit stays usable' }),
  timing: Timing,
  /** '' for every member; else the lowest VIP level that may receive it. */
  vipLevelName: Type.String(),
  received: Type.Boolean({ description: 'the viewer received it (false for visitors)' }),
});
export type BenefitInfo = Static<typeof BenefitInfo>;

export const BenefitReceiver = Type.Object({
  name: Type.String({ description: 'masked' }),
  createTime: Type.String(),
});
export type BenefitReceiver = Static<typeof BenefitReceiver>;

export const MyBenefit = Type.Object({
  id: Type.Integer(),
  benefitId: Type.Integer(),
  name: Type.String(),
  productId: Type.Integer(),
  productName: Type.String(),
  image: Type.String(),
  status: Type.Integer({ description: '0 to use, 1 used, -1 expired' }),
  statusName: Type.String(),
  createTime: Type.String(),
  expireTime: Type.String(),
});
export type MyBenefit = Static<typeof MyBenefit>;

const site = { site: 'required', auth: 'optional', tag: 'benefit' } as const;
const member = { site: 'required', auth: 'required', tag: 'benefit' } as const;

export const benefitApi = {
  product: endpoint({
    ...site,
    method: 'POST',
    path: '/api/benefit/product',
    summary: '商品权益（全部或某商品的）',
    body: Type.Object({ siteId: SiteId, productId: Type.Optional(Id) }),
    reply: Envelope(Type.Object({ list: Type.Array(BenefitInfo) })),
  }),
  receive: endpoint({
    ...member,
    method: 'POST',
    path: '/api/benefit/receive',
    summary: '领取权益（每人一次，领完为止）',
    body: Type.Object({ siteId: SiteId, id: Id }),
    reply: Envelope(MyBenefit),
  }),
  receiveList: endpoint({
    ...site,
    method: 'POST',
    path: '/api/benefit/receiveList',
    summary: '权益领取记录（最近 20 条）',
    body: Type.Object({ siteId: SiteId, id: Id }),
    reply: Envelope(Type.Object({ list: Type.Array(BenefitReceiver), total: Type.Integer() })),
  }),
  mine: endpoint({
    ...member,
    method: 'POST',
    path: '/api/benefit/mine',
    summary: '我的权益',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(Type.Object({ list: Type.Array(MyBenefit) })),
  }),
};
