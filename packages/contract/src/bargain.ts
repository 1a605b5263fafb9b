import { type Static, Type } from '@sinclair/typebox';
import { ActivityGoods, Timing } from './activity.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf } from './numbers.ts';
import { SiteId } from './site.ts';

/**
 * Bargain (砍价, activity type 2; spec sections 7 and 9, issue 14 item 4; design promotions.md §5).
 * A member starts a bargain for a product of a bargain activity (one open per member and
 * product); other members help once each, within a quota per helper per day, and each help cuts
 * the price by a server-chosen amount, never below the floor. The bargain succeeds at the floor
 * or when enough members helped; its owner then buys it once, before it expires, through the
 * normal order submit with `orderType: ORDER_TYPE_BARGAIN` and `bargainId` (the price comes
 * from the bargain, never the client).
 */

/** The order submit's orderType for a bargain purchase (not named by the spec). */
export const ORDER_TYPE_BARGAIN = 5;

/** A bargain's status: 1 in progress, 2 success (may be bought), 3 failed (expired), 4 ordered. */
export const BARGAIN_STATUS = { inProgress: 1, success: 2, failed: 3, ordered: 4 } as const;
export type BargainStatus = (typeof BARGAIN_STATUS)[keyof typeof BARGAIN_STATUS];

export const BARGAIN_STATUS_LABEL: Record<number, string> = {
  1: '砍价中',
  2: '砍价成功',
  3: '砍价失败',
  4: '已下单',
};

export const BARGAIN_EVENTS = ['succeed', 'expire', 'order', 'orderEnded', 'end'] as const;
export type BargainEvent = (typeof BARGAIN_EVENTS)[number];

const B = BARGAIN_STATUS;

/**
 * Every move of a bargain's status: the floor or the helper count reached (help), the deadline
 * passed (expiry job, or read), bought (order submit), its unpaid order cancelled or expired
 * (the bargain may be bought again until its deadline), the operator ended the activity.
 */
export const BARGAIN_TRANSITIONS: readonly { from: BargainStatus; to: BargainStatus; event: BargainEvent }[] =
  [
    { from: B.inProgress, to: B.success, event: 'succeed' },
    { from: B.inProgress, to: B.failed, event: 'expire' },
    { from: B.success, to: B.failed, event: 'expire' },
    { from: B.success, to: B.ordered, event: 'order' },
    { from: B.ordered, to: B.success, event: 'orderEnded' },
    // ... unless the member started another bargain of the product meanwhile (one open each).
    { from: B.ordered, to: B.failed, event: 'orderEnded' },
    { from: B.inProgress, to: B.failed, event: 'end' },
    { from: B.success, to: B.failed, event: 'end' },
  ];

/** The statuses a bargain may leave by an event (the machine's one reading). */
export const bargainFromStatuses = (event: BargainEvent, to: BargainStatus): BargainStatus[] =>
  BARGAIN_TRANSITIONS.filter((t) => t.event === event && t.to === to).map((t) => t.from);

export const BARGAIN_MSG = {
  notFound: '砍价活动不存在',
  recordNotFound: '砍价不存在',
  notStarted: '活动未开始',
  ended: '活动已结束',
  started: '发起砍价成功',
  startedBefore: '您已发起过该商品的砍价',
  floorTooHigh: '商品价格已不高于底价，不能砍价',
  self: '不能给自己砍价',
  helped: '您已经帮砍过了',
  quota: (n: number) => `每天最多帮砍 ${n} 次，明天再来吧`,
  done: '砍价已成功，无需再砍',
  expired: '砍价已过期',
  closed: '砍价已结束',
  helpOk: '帮砍成功',
  notSuccess: '砍价成功后才能购买',
  ordered: '该砍价已下单',
  oneLine: '砍价商品请单独下单，每次 1 件',
  noVoucher: '砍价商品不能使用优惠券',
  notYours: '只能购买自己发起的砍价',
  stateChanged: '砍价状态已变化，请刷新后重试',
} as const;

const Id = IdOf();

export const BargainActivityCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  ...ActivityGoods,
  image: Type.String(),
  price: Type.Integer({ description: 'the product price on this site, fen: where a bargain starts' }),
  floorPrice: Type.Integer({ description: 'the lowest price a bargain reaches, fen' }),
  helpMax: Type.Integer({ description: 'helpers that make a bargain succeed' }),
  hours: Type.Integer({ description: 'hours a bargain lasts' }),
  timing: Timing,
  /** The viewer's open bargain of this activity (null for visitors and when none). */
  mine: Type.Union([Type.Integer(), Type.Null()]),
});
export type BargainActivityCard = Static<typeof BargainActivityCard>;

export const BargainHelper = Type.Object({
  name: Type.String({ description: 'masked' }),
  cut: Type.Integer({ description: 'fen' }),
  createTime: Type.String(),
});
export type BargainHelper = Static<typeof BargainHelper>;

export const BargainView = Type.Object({
  id: Type.Integer(),
  activityId: Type.Integer(),
  activityName: Type.String(),
  ...ActivityGoods,
  image: Type.String(),
  startPrice: Type.Integer({ description: 'fen' }),
  floorPrice: Type.Integer({ description: 'fen' }),
  price: Type.Integer({ description: 'the bargained price now, fen' }),
  helpCount: Type.Integer(),
  helpMax: Type.Integer(),
  status: Type.Integer({ description: '1 in progress, 2 success, 3 failed, 4 ordered' }),
  statusName: Type.String(),
  /** From the start to the deadline, with the server's now (the client keeps the offset). */
  timing: Timing,
  orderNo: Type.Union([Type.String(), Type.Null()]),
  ownerName: Type.String({ description: 'masked' }),
  /** The viewer started it (may share and buy). */
  mine: Type.Boolean(),
  /** The viewer helped it already. */
  helped: Type.Boolean(),
  helpers: Type.Array(BargainHelper),
});
export type BargainView = Static<typeof BargainView>;

export const HelpResult = Type.Object({
  cut: Type.Integer({ description: 'fen this help took off' }),
  bargain: BargainView,
});
export type HelpResult = Static<typeof HelpResult>;

const site = { site: 'required', auth: 'optional', tag: 'bargain' } as const;
const member = { site: 'required', auth: 'required', tag: 'bargain' } as const;

export const bargainApi = {
  list: endpoint({
    ...site,
    method: 'POST',
    path: '/api/bargain/list',
    summary: '砍价活动列表',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(Type.Object({ list: Type.Array(BargainActivityCard) })),
  }),
  start: endpoint({
    ...member,
    method: 'POST',
    path: '/api/bargain/start',
    summary: '发起砍价（每人每个商品同时一个）',
    body: Type.Object({ siteId: SiteId, activityId: Id }),
    reply: Envelope(BargainView),
  }),
  help: endpoint({
    ...member,
    method: 'POST',
    path: '/api/bargain/help',
    summary: '帮砍',
    body: Type.Object({ siteId: SiteId, id: Id }),
    reply: Envelope(HelpResult),
  }),
  view: endpoint({
    ...site,
    method: 'POST',
    path: '/api/bargain/view',
    summary: '砍价详情（分享链接）',
    body: Type.Object({ siteId: SiteId, id: Id }),
    reply: Envelope(BargainView),
  }),
};
