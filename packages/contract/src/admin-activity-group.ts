import { type Static, Type } from '@sinclair/typebox';
import { ActivityGoods } from './activity.ts';
import { manage, view } from './admin-activity-access.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Amount, Id, Int } from './numbers.ts';
import { Page, PageNum } from './paging.ts';

/**
 * The console's group-buy screen (issue 14 item 6): activities per site (create, edit, end)
 * and their teams with state and members. Under /admin-api, permission promotions:view or
 * promotions:manage on the site; every write leaves an audit row in its transaction.
 */

export const GROUP_ADMIN_MSG = {
  notFound: '拼团活动不存在',
  productNotOnSite: '该规格不在本站点销售',
  virtualProduct: '拼团仅支持实物商品（成团后发货）',
  badWindow: '结束时间须晚于开始时间',
  ended: '活动已结束',
} as const;

const SiteIdIn = Id({ description: '站点 id' });
const Time = Type.String({ format: 'date-time' });
const Reason = Type.String({ minLength: 1, maxLength: 200 });

export const AdminGroupActivity = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  ...ActivityGoods,
  price: Type.Integer({ description: 'group price, fen' }),
  marketPrice: Type.Integer({ description: 'the site price, fen (0 when no longer sold)' }),
  teamSize: Type.Integer(),
  teamHours: Type.Integer(),
  memberLimit: Type.Integer(),
  virtualFill: Type.Boolean(),
  startAt: Time,
  endAt: Time,
  /** -1 not started, 0 running, 1 ended. */
  status: Type.Integer(),
  teams: Type.Object({ forming: Type.Integer(), succeeded: Type.Integer(), failed: Type.Integer() }),
});
export type AdminGroupActivity = Static<typeof AdminGroupActivity>;

export const AdminGroupTeam = Type.Object({
  teamId: Type.Integer(),
  activityId: Type.Integer(),
  activityName: Type.String(),
  size: Type.Integer(),
  joined: Type.Integer(),
  paid: Type.Integer(),
  status: Type.Integer({ description: '0 forming, 1 succeeded, 2 failed' }),
  statusName: Type.String(),
  expiresAt: Time,
  createdAt: Time,
  settledAt: Type.Union([Time, Type.Null()]),
  members: Type.Array(
    Type.Object({
      nickname: Type.String(),
      memberId: Type.Integer(),
      orderNo: Type.String(),
      isLeader: Type.Boolean(),
      status: Type.String({ description: 'reserved, paid, released, refunded' }),
    }),
  ),
});
export type AdminGroupTeam = Static<typeof AdminGroupTeam>;

export const SaveGroupActivityBody = Type.Object({
  siteId: SiteIdIn,
  id: Type.Optional(Id()),
  name: Type.String({ minLength: 1, maxLength: 40 }),
  specificationId: Id(),
  price: Amount(),
  teamSize: Int(2, 50),
  teamHours: Int(1, 720),
  memberLimit: Int(1, 99),
  virtualFill: Type.Boolean(),
  startAt: Time,
  endAt: Time,
});
export type SaveGroupActivityBody = Static<typeof SaveGroupActivityBody>;

export const adminGroupApi = {
  groupActivities: endpoint({
    ...view,
    path: '/activity/group/activities',
    summary: '拼团活动（含各状态团数）',
    body: Type.Object({ siteId: SiteIdIn, pageNum: Type.Optional(PageNum) }),
    reply: Envelope(Page(AdminGroupActivity)),
  }),
  saveGroupActivity: endpoint({
    ...manage,
    path: '/activity/group/activities/save',
    summary: '新建或修改拼团活动',
    body: SaveGroupActivityBody,
    reply: Envelope(AdminGroupActivity),
  }),
  endGroupActivity: endpoint({
    ...manage,
    path: '/activity/group/activities/end',
    summary: '提前结束拼团活动（进行中的团到期后照常结算）',
    body: Type.Object({ siteId: SiteIdIn, activityId: Id(), reason: Reason }),
    reply: Envelope(AdminGroupActivity),
  }),
  groupTeams: endpoint({
    ...view,
    path: '/activity/group/teams',
    summary: '拼团的团（状态与成员）',
    body: Type.Object({
      siteId: SiteIdIn,
      activityId: Type.Optional(Id()),
      status: Type.Optional(Int(0, 2)),
      pageNum: Type.Optional(PageNum),
    }),
    reply: Envelope(Page(AdminGroupTeam)),
  }),
};
