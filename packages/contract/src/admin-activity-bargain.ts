import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { ActivityGoods } from './activity.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Amount, EpochMs, Id, Int } from './numbers.ts';
import { Page, PageNum } from './paging.ts';

/**
 * The console's bargain screens (issue 14 item 6, under /admin-api): bargain activities per site
 * (create, edit, end) and the members' bargains. Permissions: promotions:view to read,
 * promotions:manage to write; a site outside the operator's scope answers 403. Every write
 * leaves an audit row in its transaction.
 */

export const ADMIN_BARGAIN_MSG = {
  saved: '已保存',
  ended: '活动已结束',
  notFound: '砍价活动不存在',
  noProduct: '该站点未上架此商品规格',
  floorTooHigh: '底价须低于商品售价',
  cutBounds: '单次砍价金额下限不能大于上限',
  window: '结束时间须晚于开始时间',
  endedBefore: '活动已结束，不能再修改',
} as const;

const Paged = <T extends TSchema>(item: T) => Envelope(Page(item));
const tag = { tag: 'admin-promotions' } as const;

export const AdminBargainActivity = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  ...ActivityGoods,
  price: Type.Integer({ description: "the product's price on the site, fen" }),
  floorPrice: Type.Integer(),
  helpMax: Type.Integer(),
  cutMin: Type.Integer(),
  cutMax: Type.Integer(),
  helperDailyQuota: Type.Integer(),
  hours: Type.Integer(),
  startAt: Type.Integer({ description: 'ms' }),
  endAt: Type.Integer({ description: 'ms' }),
  enabled: Type.Boolean(),
  /** -1 not started, 0 running, 1 ended (or ended by an operator). */
  status: Type.Integer(),
  bargains: Type.Integer({ description: 'bargains started' }),
  succeeded: Type.Integer({ description: 'bargains that reached success (or were bought)' }),
});
export type AdminBargainActivity = Static<typeof AdminBargainActivity>;

export const SaveBargainActivityBody = Type.Object({
  /** Absent: a new activity. */
  id: Type.Optional(Id()),
  siteId: Id({ description: '站点 id' }),
  name: Type.String({ minLength: 1, maxLength: 60 }),
  specificationId: Id(),
  floorPrice: Amount(),
  helpMax: Int(1, 100),
  cutMin: Int(1, 100_000_000),
  cutMax: Int(1, 100_000_000),
  helperDailyQuota: Int(1, 100),
  hours: Int(1, 720),
  startAt: EpochMs(),
  endAt: EpochMs(),
});
export type SaveBargainActivityBody = Static<typeof SaveBargainActivityBody>;

export const AdminBargainRecord = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  activityId: Type.Integer(),
  activityName: Type.String(),
  memberId: Type.Integer(),
  memberName: Type.String({ description: 'masked' }),
  startPrice: Type.Integer(),
  floorPrice: Type.Integer(),
  price: Type.Integer(),
  helpCount: Type.Integer(),
  helpMax: Type.Integer(),
  status: Type.Integer({ description: '1 in progress, 2 success, 3 failed, 4 ordered' }),
  statusName: Type.String(),
  orderNo: Type.Union([Type.String(), Type.Null()]),
  createTime: Type.String(),
  expireTime: Type.String(),
});
export type AdminBargainRecord = Static<typeof AdminBargainRecord>;

export const adminBargainApi = {
  bargainActivities: endpoint({
    ...tag,
    operator: 'promotions:view',
    method: 'GET',
    path: '/activity/bargains',
    summary: '砍价活动列表',
    body: Type.Object({ siteId: Type.Optional(Id()), pageNum: Type.Optional(PageNum) }),
    reply: Paged(AdminBargainActivity),
  }),
  saveBargainActivity: endpoint({
    ...tag,
    operator: 'promotions:manage',
    method: 'POST',
    path: '/activity/bargains/save',
    summary: '新建或修改砍价活动',
    encoding: 'json',
    body: SaveBargainActivityBody,
    reply: Envelope(AdminBargainActivity),
  }),
  endBargainActivity: endpoint({
    ...tag,
    operator: 'promotions:manage',
    method: 'POST',
    path: '/activity/bargains/end',
    summary: '结束砍价活动（进行中的砍价随之失败）',
    encoding: 'json',
    body: Type.Object({ siteId: Id(), id: Id(), reason: Type.Optional(Type.String({ maxLength: 200 })) }),
    reply: Envelope(AdminBargainActivity),
  }),
  bargainRecords: endpoint({
    ...tag,
    operator: 'promotions:view',
    method: 'GET',
    path: '/activity/bargains/records',
    summary: '会员砍价记录',
    body: Type.Object({
      siteId: Type.Optional(Id()),
      activityId: Type.Optional(Id()),
      status: Type.Optional(Int(1, 4)),
      pageNum: Type.Optional(PageNum),
    }),
    reply: Paged(AdminBargainRecord),
  }),
};
