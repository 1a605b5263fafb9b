import { type Static, Type } from '@sinclair/typebox';
import { ActivityGoods, Timing } from './activity.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf, Int } from './numbers.ts';
import { SubmitOrderResult } from './order.ts';
import { Page, PageNum } from './paging.ts';
import { SiteId } from './site.ts';

/**
 * Group buy (拼团; spec section 3 "Group buy: detail, submit, join, view, my list"; issue 14
 * item 2; design promotions.md §3). A member opens a team (`submit`) or joins one (`join`):
 * either submits an order at the activity price through the normal order submission with
 * `orderType: ORDER_TYPE_GROUP`, and the team's slot is reserved at that moment. A paid member
 * waits in 24 确认中 until the team fills; a team that does not fill in time fails and its paid
 * members are refunded.
 */

/** The order submit's orderType for a group-buy purchase (not named by the spec). */
export const ORDER_TYPE_GROUP = 4;

/** A team's state: forming (slots open), succeeded (filled), failed (time ran out unfilled). */
export const GROUP_TEAM_STATUS = { forming: 0, succeeded: 1, failed: 2 } as const;
export type GroupTeamStatus = (typeof GROUP_TEAM_STATUS)[keyof typeof GROUP_TEAM_STATUS];
export const GROUP_TEAM_STATUS_NAME: Record<GroupTeamStatus, string> = {
  0: '拼团中',
  1: '拼团成功',
  2: '拼团失败',
};

/** A member's place in a team: reserved at submit, paid, released (order ended unpaid), refunded. */
export const GROUP_MEMBER_STATUS = ['reserved', 'paid', 'released', 'refunded'] as const;
export type GroupMemberStatus = (typeof GROUP_MEMBER_STATUS)[number];

export const GROUP_MSG = {
  notFound: '拼团活动不存在',
  teamNotFound: '团不存在',
  notStarted: '活动未开始',
  ended: '活动已结束',
  oneLine: '拼团商品请单独下单',
  wrongProduct: '该商品不在此拼团活动中',
  noVoucher: '拼团商品不能使用优惠券',
  teamFull: '该团已满员',
  teamClosed: '该团已结束',
  joinedBefore: '您已参加该团',
  perMember: (n: number) => `每人限购 ${n} 件`,
  holdShipping: '拼团未成功，暂不能发货',
  failedRefund: '拼团失败，已退款',
} as const;

const Id = IdOf();

export const GroupActivity = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  ...ActivityGoods,
  image: Type.String(),
  price: Type.Integer({ description: 'group price, fen' }),
  marketPrice: Type.Integer({ description: 'the normal price on this site, fen' }),
  teamSize: Type.Integer({ description: 'members a team needs' }),
  teamHours: Type.Integer({ description: 'hours a team has to fill' }),
  memberLimit: Type.Integer({ description: 'most pieces per member in this activity' }),
  virtualFill: Type.Boolean({ description: 'a team unfilled at its end succeeds anyway' }),
  timing: Timing,
});
export type GroupActivity = Static<typeof GroupActivity>;

export const GroupTeamMember = Type.Object({
  nickname: Type.String({ description: 'masked phone or username' }),
  isLeader: Type.Boolean(),
  status: Type.String({ description: 'reserved, paid, released, refunded' }),
});

export const GroupTeam = Type.Object({
  teamId: Type.Integer(),
  activityId: Type.Integer(),
  leader: Type.String({ description: "the leader's nickname" }),
  size: Type.Integer(),
  joined: Type.Integer({ description: 'slots taken (reserved at submit)' }),
  paid: Type.Integer(),
  status: Type.Integer({ description: '0 forming, 1 succeeded, 2 failed' }),
  statusName: Type.String(),
  expireTimeStamp: Type.Integer({ description: 'ms since the epoch, server clock' }),
  currentTime: Type.Integer(),
});
export type GroupTeam = Static<typeof GroupTeam>;

export const GroupDetail = Type.Object({
  currentTime: Type.Integer(),
  activities: Type.Array(GroupActivity),
  teams: Type.Array(GroupTeam, { description: 'forming teams with a free slot (with an id only)' }),
});
export type GroupDetail = Static<typeof GroupDetail>;

export const GroupView = Type.Object({
  currentTime: Type.Integer(),
  activity: GroupActivity,
  team: GroupTeam,
  members: Type.Array(GroupTeamMember),
  /** The caller's place in the team (null for visitors and outsiders). */
  mine: Type.Union([Type.Object({ orderNo: Type.String(), status: Type.String() }), Type.Null()]),
});
export type GroupView = Static<typeof GroupView>;

export const MyGroup = Type.Object({
  team: GroupTeam,
  activityName: Type.String(),
  productName: Type.String(),
  image: Type.String(),
  price: Type.Integer(),
  num: Type.Integer(),
  orderNo: Type.String(),
  isLeader: Type.Boolean(),
  memberStatus: Type.String(),
});
export type MyGroup = Static<typeof MyGroup>;

/** What opening or joining a team answers: the order (then paid as usual) and its team. */
export const GroupSubmitResult = Type.Composite([SubmitOrderResult, Type.Object({ teamId: Type.Integer() })]);
export type GroupSubmitResult = Static<typeof GroupSubmitResult>;

const orderFields = {
  num: Type.Optional(Int(1, 99, { default: 1 })),
  addressId: Type.Optional(Id),
  requestId: Type.Optional(Type.String({ pattern: '^[\\w.:-]{8,64}$' })),
  remark: Type.Optional(Type.String({ maxLength: 200 })),
};

const member = { site: 'required', auth: 'required', tag: 'group' } as const;
const visitor = { site: 'required', auth: 'optional', tag: 'group' } as const;

export const groupApi = {
  detail: endpoint({
    ...visitor,
    method: 'POST',
    path: '/api/group/detail',
    summary: '拼团详情：活动与可参加的团（不带 id 时为站点进行中的拼团活动）',
    body: Type.Object({ siteId: SiteId, id: Type.Optional(Id) }),
    reply: Envelope(GroupDetail),
  }),
  submit: endpoint({
    ...member,
    method: 'POST',
    path: '/api/group/submit',
    summary: '开团：以拼团价提交订单并创建团',
    body: Type.Object({ siteId: SiteId, activityId: Id, ...orderFields }),
    reply: Envelope(GroupSubmitResult),
  }),
  join: endpoint({
    ...member,
    method: 'POST',
    path: '/api/group/join',
    summary: '参团：以拼团价提交订单并占用团的名额',
    body: Type.Object({ siteId: SiteId, teamId: Id, ...orderFields }),
    reply: Envelope(GroupSubmitResult),
  }),
  view: endpoint({
    ...visitor,
    method: 'POST',
    path: '/api/group/view',
    summary: '团详情：成员、倒计时（currentTime）',
    body: Type.Object({ siteId: SiteId, teamId: Id }),
    reply: Envelope(GroupView),
  }),
  myList: endpoint({
    ...member,
    method: 'POST',
    path: '/api/group/myList',
    summary: '我的拼团',
    body: Type.Object({ siteId: SiteId, pageNum: Type.Optional(PageNum) }),
    reply: Envelope(Page(MyGroup)),
  }),
};
