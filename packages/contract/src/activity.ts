import { type Static, Type } from '@sinclair/typebox';
import type { ACTIVITY_STATUS } from './constants.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf } from './numbers.ts';
import { SiteId } from './site.ts';

/**
 * Activities (spec sections 1, 3, 4, 9; issue 14): the flash sale (seckill) with its daily
 * sessions and activity timing, bought through the normal order submit with
 * `orderType: ORDER_TYPE_SECKILL`.
 */

/** The order submit's orderType for a flash-sale purchase (not named by the spec). */
export const ORDER_TYPE_SECKILL = 3;

/** Activity timing status (ACTIVITY_STATUS, spec section 4): -1 not started, 0 running, 1 ended. */
export type TimingStatus = (typeof ACTIVITY_STATUS)[keyof typeof ACTIVITY_STATUS];

export const SECKILL_MSG = {
  notStarted: '活动未开始',
  ended: '活动已结束',
  soldOut: '已抢光',
  notInSale: '该商品不在秒杀活动中',
  oneLine: '秒杀商品请单独下单',
  noVoucher: '秒杀商品不能使用优惠券',
  perOrder: (n: number) => `每单限购 ${n} 件`,
  perMember: (n: number) => `每人限购 ${n} 件`,
} as const;

const Id = IdOf();

/** Spec section 3, "Activity product timing", in ms since the epoch, from the server's clock. */
export const Timing = Type.Object({
  startTimeStamp: Type.Integer(),
  endTimeStamp: Type.Integer(),
  currentTime: Type.Integer({ description: "the server's now: the client keeps the offset" }),
  status: Type.Integer({ description: '-1 not started, 0 running, 1 ended' }),
});
export type Timing = Static<typeof Timing>;

/**
 * The goods of an activity of a site (a bargain, a group buy, a benefit): one specification of
 * a product, shown by the product's name. Spread into each activity's object.
 */
export const ActivityGoods = {
  productId: Type.Integer(),
  specificationId: Type.Integer(),
  productName: Type.String(),
};

export const SeckillProduct = Type.Object({
  activityId: Type.Integer(),
  productId: Type.Integer(),
  specificationId: Type.Integer(),
  name: Type.String(),
  image: Type.String(),
  price: Type.Integer({ description: 'activity price, fen' }),
  marketPrice: Type.Integer({ description: 'the normal price on this site, fen' }),
  stock: Type.Integer({ description: 'activity stock left' }),
  totalStock: Type.Integer(),
  memberLimit: Type.Integer({ description: 'most pieces per member in this activity' }),
  orderLimit: Type.Integer({ description: 'most pieces per order' }),
  bought: Type.Integer({ description: "the member's pieces so far (0 for visitors)" }),
  timing: Timing,
});
export type SeckillProduct = Static<typeof SeckillProduct>;

export const SeckillSession = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  startTime: Type.String({ description: 'HH:mm, China time' }),
  endTime: Type.String(),
  timing: Timing,
  products: Type.Array(SeckillProduct),
});
export type SeckillSession = Static<typeof SeckillSession>;

export const SeckillAnswer = Type.Object({
  currentTime: Type.Integer(),
  sessions: Type.Array(SeckillSession),
});
export type SeckillAnswer = Static<typeof SeckillAnswer>;

const siteAndOptionalMember = { site: 'required', auth: 'optional', tag: 'activity' } as const;

export const seckillApi = {
  seckill: endpoint({
    ...siteAndOptionalMember,
    method: 'POST',
    path: '/api/product/seckill',
    summary: '秒杀：今日场次与商品（含活动时间）',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(SeckillAnswer),
  }),
  activityTime: endpoint({
    ...siteAndOptionalMember,
    method: 'POST',
    path: '/api/product/activityTime',
    summary: '商品的秒杀活动与时间（无活动时为 null）',
    body: Type.Object({ siteId: SiteId, productId: Id }),
    reply: Envelope(SeckillProduct),
  }),
};
