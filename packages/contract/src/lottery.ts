import { type Static, Type } from '@sinclair/typebox';
import { Timing } from './activity.ts';
import { DEFAULT_ACTIVITY_CODE } from './constants.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf, Int } from './numbers.ts';
import { OrderNo } from './order.ts';
import { Page, PageNum } from './paging.ts';
import { SiteId } from './site.ts';

/**
 * Marketing activities and the lottery (turntable) (spec sections 6, 7, 9; issue 14): activities
 * per site by code (default cj001), an audience (everyone, or invited white users only), a
 * points cost per draw, chances per day or per activity, a bonus chance for sharing or for a
 * paid order (each source once), prizes with weights and stock, and the member's gifts.
 */

export const LOTTERY_MSG = {
  notFound: '活动不存在',
  notStarted: '活动未开始',
  ended: '活动已结束',
  noChances: '抽奖次数已用完',
  noPrize: '谢谢参与',
  shared: '分享成功，抽奖次数 +1',
  sharedBefore: '已分享过，今日次数已增加',
  orderNotPaid: '订单未支付，不能增加抽奖次数',
  orderUsed: '该订单已增加过抽奖次数',
  whiteCodeTaken: '该邀请码已被其他用户使用',
  giftNotFound: '奖品不存在',
  giftNotClaimable: '奖品已领取或已过期',
  giftNeedsNoAddress: '该奖品无需领取',
} as const;

/** Gift record status (spec section 1): 0 to be claimed, 1 claimed, -1 expired. */
export const GIFT_STATUS = { toClaim: 0, claimed: 1, expired: -1 } as const;

export const PRIZE_KIND = { none: 'none', points: 'points', product: 'product' } as const;

const Id = IdOf();
/** An activity's code; absent means the default cj001 (spec section 9). */
const Code = Type.Optional(
  Type.String({
    pattern: '^[A-Za-z0-9_-]{1,32}$',
    maxLength: 32,
    description: `default ${DEFAULT_ACTIVITY_CODE}`,
  }),
);
const ByCode = Type.Object({ siteId: SiteId, code: Code });
/** A partner-supplied invitation code of a white user (invited-only activities). */
export const WhiteCode = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', maxLength: 64 });
const ByWhiteCode = Type.Object({ siteId: SiteId, code: Code, whiteCode: WhiteCode });

export const Prize = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: Type.String({ description: 'none, points, product' }),
  amount: Type.Integer({ description: 'points prizes: fen' }),
  /** Still to be won; null for unlimited. */
  remaining: Type.Union([Type.Integer(), Type.Null()]),
});
export type Prize = Static<typeof Prize>;

export const ActivityInfo = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  type: Type.Integer({ description: '1 preferential, 2 bargain' }),
  name: Type.String(),
  invitedOnly: Type.Boolean(),
  /** The storefront page of the activity: the turntable by code, or a bargain's card. */
  link: Type.String(),
  timing: Timing,
});
export type ActivityInfo = Static<typeof ActivityInfo>;

export const LotteryRule = Type.Object({
  ...ActivityInfo.properties,
  ruleHtml: Type.String(),
  costPoints: Type.Integer({ description: 'fen per draw' }),
  chances: Type.Integer({ description: 'chances per period' }),
  period: Type.String({ description: 'day or activity' }),
  shareBonus: Type.Integer(),
  prizes: Type.Array(Prize),
});
export type LotteryRule = Static<typeof LotteryRule>;

export const Chances = Type.Object({
  granted: Type.Integer(),
  used: Type.Integer(),
  left: Type.Integer(),
  shared: Type.Boolean({ description: 'the share bonus of this period was granted' }),
});
export type Chances = Static<typeof Chances>;

export const DrawResult = Type.Object({
  drawId: Type.Integer(),
  won: Type.Boolean(),
  /** The prize won, or the no-prize slot. */
  prize: Prize,
  msg: Type.String(),
  left: Type.Integer(),
});
export type DrawResult = Static<typeof DrawResult>;

export const GiftRecord = Type.Object({
  id: Type.Integer(),
  activityName: Type.String(),
  prizeName: Type.String(),
  kind: Type.String(),
  amount: Type.Integer(),
  status: Type.Integer({ description: '0 to be claimed, 1 claimed, -1 expired' }),
  statusName: Type.String(),
  createTime: Type.String(),
  claimDeadline: Type.Union([Type.String(), Type.Null()]),
  /** A physical prize claimed: where it goes. */
  address: Type.Union([
    Type.Object({ consignee: Type.String(), phone: Type.String(), address: Type.String() }),
    Type.Null(),
  ]),
});
export type GiftRecord = Static<typeof GiftRecord>;

export const WhiteUserAnswer = Type.Object({
  activityId: Type.Integer(),
  code: Type.String(),
  whiteCode: Type.String(),
  /** The member now holds the invitation (bound now or before). */
  invited: Type.Boolean(),
});
export type WhiteUserAnswer = Static<typeof WhiteUserAnswer>;

const site = { site: 'required', auth: 'optional', tag: 'activity' } as const;
const member = { site: 'required', auth: 'required', tag: 'activity' } as const;

export const lotteryApi = {
  list: endpoint({
    ...site,
    method: 'POST',
    path: '/api/activity/list',
    summary: '活动列表',
    body: Type.Object({ siteId: SiteId }),
    reply: Envelope(Type.Object({ list: Type.Array(ActivityInfo) })),
  }),
  get: endpoint({
    ...site,
    method: 'POST',
    path: '/api/activity/get',
    summary: '活动详情（按 id 与类型；类型缺省为 1）',
    body: Type.Object({
      siteId: SiteId,
      id: Id,
      type: Type.Optional(Int(1, 2, { description: '1 preferential (default), 2 bargain' })),
    }),
    reply: Envelope(ActivityInfo),
  }),
  inMall: endpoint({
    ...site,
    method: 'POST',
    path: '/api/activity/inMall',
    summary: '活动是否在本商城进行中',
    body: ByCode,
    reply: Envelope(Type.Object({ inMall: Type.Boolean() })),
  }),
  rule: endpoint({
    ...site,
    method: 'POST',
    path: '/api/lottery/rule',
    summary: '抽奖规则与奖品',
    body: ByCode,
    reply: Envelope(LotteryRule),
  }),
  chance: endpoint({
    ...member,
    method: 'POST',
    path: '/api/lottery/chance',
    summary: '剩余抽奖次数',
    body: ByCode,
    reply: Envelope(Chances),
  }),
  addChance: endpoint({
    ...member,
    method: 'POST',
    path: '/api/lottery/addChance',
    summary: '已支付订单增加一次抽奖（每单一次）',
    body: Type.Object({ siteId: SiteId, code: Code, orderNo: OrderNo }),
    reply: Envelope(Chances),
  }),
  start: endpoint({
    ...member,
    method: 'POST',
    path: '/api/lottery/start',
    summary: '抽奖（转盘）',
    body: Type.Object({
      siteId: SiteId,
      code: Code,
      requestId: Type.Optional(
        Type.String({
          pattern: '^[\\w.:-]{8,64}$',
          maxLength: 64,
          description: 'double click: first result',
        }),
      ),
    }),
    reply: Envelope(DrawResult),
  }),
  share: endpoint({
    ...member,
    method: 'POST',
    path: '/api/lottery/share',
    summary: '分享（本期一次，增加抽奖次数）',
    body: ByCode,
    reply: Envelope(Chances),
  }),
  giftRecords: endpoint({
    ...member,
    method: 'POST',
    path: '/api/gift/records',
    summary: '我的奖品',
    body: ByCode,
    reply: Envelope(Type.Object({ list: Type.Array(GiftRecord) })),
  }),
  giftRecordsByWhiteCode: endpoint({
    ...site,
    method: 'POST',
    path: '/api/gift/recordsByWhiteCode',
    summary: '奖品记录（按受邀用户邀请码）',
    body: ByWhiteCode,
    reply: Envelope(Type.Object({ list: Type.Array(GiftRecord) })),
  }),
  claimGift: endpoint({
    ...member,
    method: 'POST',
    path: '/api/gift/claim',
    summary: '领取实物奖品（填写收货地址；待领取 0 → 已领取 1）',
    body: Type.Object({ siteId: SiteId, giftId: Id, addressId: Id }),
    reply: Envelope(GiftRecord),
  }),
  createWhiteUser: endpoint({
    ...member,
    method: 'GET',
    path: '/api/activity/createWhiteUser',
    summary: '受邀用户登记（GET 参数：邀请码绑定到当前会员）',
    body: ByWhiteCode,
    reply: Envelope(WhiteUserAnswer),
  }),
  marketingList: endpoint({
    ...site,
    method: 'POST',
    path: '/api/marketing/list',
    summary: '营销活动列表（按类型，分页）',
    body: Type.Object({
      siteId: SiteId,
      type: Type.Optional(Int(1, 2, { description: '1 preferential, 2 bargain' })),
      pageNum: Type.Optional(PageNum),
    }),
    reply: Envelope(Page(ActivityInfo)),
  }),
};
