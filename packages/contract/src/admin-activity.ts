import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { ActivityGoods, Timing } from './activity.ts';
import { manage, view } from './admin-activity-access.ts';
import { endpoint } from './endpoint.ts';
import { Envelope, ErrorEnvelope } from './envelope.ts';
import { Amount, Id, Int } from './numbers.ts';
import { XLSX_TYPE } from './order.ts';
import { Page, PageNum } from './paging.ts';

/**
 * The console's activity screens (issue 14 item 6), under ADMIN_API_PREFIX like adminApi:
 * flash-sale sessions and activities with live stock, lottery activities with prizes, budget,
 * invited users (CSV import), draws, gifts with their delivery export, and results. Reads need
 * promotions:view, writes promotions:manage, on the activity's site.
 */

export const ACTIVITY_ADMIN_MSG = {
  notFound: '活动不存在',
  prizeNotFound: '奖品不存在',
  codeTaken: '活动编码已存在',
  badWindow: '结束时间须晚于开始时间',
  badSession: '场次不存在或不属于该站点',
  badSessionTime: '场次结束时间须晚于开始时间（HH:mm，24:00 为午夜）',
  badSpec: '规格不存在或未在该站点上架',
  stockBelowSold: '活动库存不能少于已售数量',
  soldSpecRemoved: '已有销量的规格不能移除',
  ended: '活动已结束',
  prizeStockBelowAwarded: '奖品总数不能少于已发出数量',
  budgetBelowUsed: '预算不能少于已发放积分',
  emptyImport: '文件中没有可导入的行',
  whiteCodeTaken: '该活动已有此邀请码',
  whiteNotFound: '受邀用户不存在',
  benefitTotalBelowReceived: '权益总数不能少于已领取数量',
  badVipLevel: '会员等级不存在或未启用',
} as const;

/** "YYYY-MM-DD HH:mm[:ss]", China time, as the console's pickers give it. */
const ChinaDateTime = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(:\\d{2})?$',
  maxLength: 19,
  description: 'China time',
});
const HHMM = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$', maxLength: 5 });
const Text = (max: number, min = 0) => Type.String({ maxLength: max, minLength: min });
const SiteIdIn = Id({ description: '站点 id' });
const Reason = Text(200);
const Paged = <T extends TSchema>(item: T) => Envelope(Page(item));
const BySite = Type.Object({ siteId: SiteIdIn });
const ByActivity = Type.Object({ siteId: SiteIdIn, activityId: Id() });

// ---- flash sale -----------------------------------------------------------------------------

export const AdminSeckillSession = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  startTime: Type.String(),
  endTime: Type.String(),
  sort: Type.Integer(),
  enabled: Type.Boolean(),
});
export type AdminSeckillSession = Static<typeof AdminSeckillSession>;

export const SaveSeckillSessionBody = Type.Object({
  siteId: SiteIdIn,
  id: Type.Optional(Id()),
  name: Text(40, 1),
  startTime: HHMM,
  endTime: HHMM,
  sort: Type.Optional(Int(0, 999)),
  enabled: Type.Optional(Type.Boolean()),
});

export const AdminSeckillSku = Type.Object({
  specificationId: Type.Integer(),
  productId: Type.Integer(),
  name: Type.String(),
  specificationValue: Type.String(),
  /** The activity price (fen) against the site's price. */
  price: Type.Integer(),
  sitePrice: Type.Integer(),
  totalStock: Type.Integer(),
  /** Live: what is left to sell now. */
  stock: Type.Integer(),
  sold: Type.Integer(),
});
export type AdminSeckillSku = Static<typeof AdminSeckillSku>;

export const AdminSeckillActivity = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  sessionIds: Type.Array(Type.Integer()),
  startAt: Type.String(),
  endAt: Type.String(),
  memberLimit: Type.Integer(),
  orderLimit: Type.Integer(),
  expireMinutes: Type.Integer(),
  enabled: Type.Boolean(),
  timing: Timing,
  skus: Type.Array(AdminSeckillSku),
  /** Orders holding activity stock (not given back by a cancel, expiry or refund). */
  orders: Type.Integer(),
});
export type AdminSeckillActivity = Static<typeof AdminSeckillActivity>;

export const SaveSeckillActivityBody = Type.Object({
  siteId: SiteIdIn,
  id: Type.Optional(Id()),
  name: Text(60, 1),
  sessionIds: Type.Array(Id(), { minItems: 1, maxItems: 24 }),
  startAt: ChinaDateTime,
  endAt: ChinaDateTime,
  memberLimit: Int(1, 999),
  orderLimit: Int(1, 999),
  expireMinutes: Int(1, 1440),
  skus: Type.Array(
    Type.Object({
      specificationId: Id(),
      price: Amount({ description: '活动价（分）' }),
      totalStock: Int(0, 1_000_000),
    }),
    { minItems: 1, maxItems: 100 },
  ),
  reason: Type.Optional(Reason),
});
export type SaveSeckillActivityBody = Static<typeof SaveSeckillActivityBody>;

// ---- lottery --------------------------------------------------------------------------------

export const LOTTERY_AUDIENCE_LABEL = { all: '所有会员', invited: '仅受邀用户' } as const;
export const LOTTERY_PERIOD_LABEL = { day: '每天', activity: '整个活动' } as const;
export const PRIZE_KIND_LABEL = { none: '未中奖', points: '积分', product: '实物' } as const;

export const AdminPrize = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: Type.String(),
  amount: Type.Integer(),
  weight: Type.Integer(),
  /** Pieces in all; null: unlimited. */
  total: Type.Union([Type.Integer(), Type.Null()]),
  remaining: Type.Union([Type.Integer(), Type.Null()]),
  sort: Type.Integer(),
});
export type AdminPrize = Static<typeof AdminPrize>;

export const AdminLottery = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  code: Type.String(),
  type: Type.Integer(),
  name: Type.String(),
  ruleHtml: Type.String(),
  startAt: Type.String(),
  endAt: Type.String(),
  audience: Type.String(),
  costPoints: Type.Integer(),
  chances: Type.Integer(),
  period: Type.String(),
  shareBonus: Type.Integer(),
  budget: Type.Union([Type.Integer(), Type.Null()]),
  budgetUsed: Type.Integer(),
  enabled: Type.Boolean(),
  timing: Timing,
  prizes: Type.Array(AdminPrize),
  whiteUsers: Type.Integer(),
});
export type AdminLottery = Static<typeof AdminLottery>;

export const SaveLotteryBody = Type.Object({
  siteId: SiteIdIn,
  id: Type.Optional(Id()),
  code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', maxLength: 32 }),
  /** 1 preferential: a lottery. Type 2 (bargain) activities are the bargain screens' own. */
  type: Int(1, 1),
  name: Text(60, 1),
  ruleHtml: Type.Optional(Text(5000)),
  startAt: ChinaDateTime,
  endAt: ChinaDateTime,
  audience: Type.Union([Type.Literal('all'), Type.Literal('invited')]),
  costPoints: Amount({ maximum: 100_000_000 }),
  chances: Int(0, 1000),
  period: Type.Union([Type.Literal('day'), Type.Literal('activity')]),
  shareBonus: Int(0, 100),
  /**
   * Points (fen) the prizes may give away; absent: no cap. A change needs a reason. Never null:
   * the server's type coercion reads a null as 0 for an integer (and a 0 as null for a null).
   */
  budget: Type.Optional(Amount()),
  enabled: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Reason),
});
export type SaveLotteryBody = Static<typeof SaveLotteryBody>;

export const SavePrizeBody = Type.Object({
  siteId: SiteIdIn,
  activityId: Id(),
  id: Type.Optional(Id()),
  name: Text(40, 1),
  kind: Type.Union([Type.Literal('none'), Type.Literal('points'), Type.Literal('product')]),
  amount: Type.Optional(Amount({ maximum: 100_000_000, description: '积分奖品（分）' })),
  weight: Int(0, 1_000_000),
  /** Pieces in all; absent: unlimited (never null, see `budget`). */
  total: Type.Optional(Int(0, 1_000_000)),
  sort: Type.Optional(Int(0, 999)),
});
export type SavePrizeBody = Static<typeof SavePrizeBody>;

export const AdminDraw = Type.Object({
  id: Type.Integer(),
  memberId: Type.Integer(),
  member: Type.String(),
  prizeName: Type.String(),
  won: Type.Boolean(),
  costPoints: Type.Integer(),
  createdAt: Type.String(),
});
export type AdminDraw = Static<typeof AdminDraw>;

export const AdminGift = Type.Object({
  id: Type.Integer(),
  activityId: Type.Integer(),
  activityCode: Type.String(),
  activityName: Type.String(),
  memberId: Type.Integer(),
  member: Type.String(),
  prizeName: Type.String(),
  kind: Type.String(),
  status: Type.Integer(),
  statusName: Type.String(),
  claimDeadline: Type.Union([Type.String(), Type.Null()]),
  claimedAt: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([
    Type.Object({ consignee: Type.String(), phone: Type.String(), address: Type.String() }),
    Type.Null(),
  ]),
  createdAt: Type.String(),
});
export type AdminGift = Static<typeof AdminGift>;

/** A site's gifts: of one activity or all, by status, of the member with a phone. */
const GiftFilter = {
  siteId: SiteIdIn,
  activityId: Type.Optional(Id()),
  status: Type.Optional(Int(-1, 1)),
  phone: Type.Optional(Type.String({ pattern: '^1\\d{10}$', maxLength: 11, description: '会员手机号' })),
};
export const GiftQuery = Type.Object({ ...GiftFilter, pageNum: Type.Optional(PageNum) });
export const GiftExportQuery = Type.Object(GiftFilter);

export const AdminWhiteUser = Type.Object({
  id: Type.Integer(),
  whiteCode: Type.String(),
  phone: Type.String(),
  memberId: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String(),
});
export type AdminWhiteUser = Static<typeof AdminWhiteUser>;

/** Patterns of an invited user's white code and phone, as the import and the form check them. */
export const WHITE_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const WHITE_PHONE_PATTERN = /^1\d{10}$/;

export const WhiteUserQuery = Type.Object({
  siteId: SiteIdIn,
  activityId: Id(),
  /** Part of a white code or a phone. */
  keyword: Type.Optional(Text(64)),
  pageNum: Type.Optional(PageNum),
});

/** One invited user added by hand; the code and phone are checked as an imported line is. */
export const AddWhiteUserBody = Type.Object({
  siteId: SiteIdIn,
  activityId: Id(),
  whiteCode: Text(64, 1),
  phone: Type.Optional(Text(11)),
});

export const RemoveWhiteUserBody = Type.Object({ siteId: SiteIdIn, activityId: Id(), id: Id() });

export const WhiteImportBody = Type.Object({
  siteId: SiteIdIn,
  activityId: Id(),
  fileName: Text(120, 1),
  /** The file's text: white code[, phone] per line; a first line naming the columns is skipped. */
  text: Text(500_000, 1),
});
export const WHITE_IMPORT_RESULT_LABEL = {
  created: '已导入',
  exists: '已存在（未改动）',
  error: '错误',
} as const;
export const WhiteImportRow = Type.Object({
  line: Type.Integer(),
  whiteCode: Type.String(),
  phone: Type.String(),
  result: Type.Union([Type.Literal('created'), Type.Literal('exists'), Type.Literal('error')]),
  detail: Type.String(),
});
export type WhiteImportRow = Static<typeof WhiteImportRow>;
export const WhiteImportReport = Type.Object({
  created: Type.Integer(),
  existing: Type.Integer(),
  errors: Type.Integer(),
  rows: Type.Array(WhiteImportRow),
});
export type WhiteImportReport = Static<typeof WhiteImportReport>;

export const LotteryResults = Type.Object({
  activityId: Type.Integer(),
  draws: Type.Integer(),
  members: Type.Integer(),
  won: Type.Integer(),
  /** Points members paid for their draws (fen). */
  pointsSpent: Type.Integer(),
  /** Points given away as prizes (fen): the budget used. */
  pointsGiven: Type.Integer(),
  /** Paid orders that granted a chance. */
  orders: Type.Integer(),
  prizes: Type.Array(
    Type.Object({
      prizeId: Type.Integer(),
      name: Type.String(),
      kind: Type.String(),
      awarded: Type.Integer(),
      remaining: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
  gifts: Type.Object({ toClaim: Type.Integer(), claimed: Type.Integer(), expired: Type.Integer() }),
});
export type LotteryResults = Static<typeof LotteryResults>;

// ---- benefits -------------------------------------------------------------------------------

/** A benefit of a site with what members did with it. */
export const AdminBenefit = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  ...ActivityGoods,
  total: Type.Integer(),
  remaining: Type.Integer(),
  validDays: Type.Integer(),
  startAt: Type.String(),
  endAt: Type.String(),
  enabled: Type.Boolean(),
  /** Who may receive it: every member (null) or members at this VIP level or above. */
  vipLevelId: Type.Union([Type.Integer(), Type.Null()]),
  vipLevelName: Type.String(),
  timing: Timing,
  /** Receives in all, and by state (a receive past its deadline counts as expired). */
  received: Type.Integer(),
  toUse: Type.Integer(),
  used: Type.Integer(),
  expired: Type.Integer(),
});
export type AdminBenefit = Static<typeof AdminBenefit>;

export const BENEFIT_AUDIENCE_LABEL = { all: '所有会员', vip: '指定会员等级及以上' } as const;

/**
 * A benefit created (no id) or edited: the product (a specification on sale on the site), the
 * quota in all (an edit moves what is left by the same difference, never below what members
 * received), the window and who may receive it.
 */
export const SaveBenefitBody = Type.Object({
  siteId: SiteIdIn,
  id: Type.Optional(Id()),
  name: Text(60, 1),
  specificationId: Id(),
  total: Int(1, 1_000_000),
  validDays: Int(1, 3650),
  startAt: ChinaDateTime,
  endAt: ChinaDateTime,
  audience: Type.Union([Type.Literal('all'), Type.Literal('vip')]),
  /** With audience vip: the lowest VIP level (of the site) that may receive it. */
  vipLevelId: Type.Optional(Id()),
  enabled: Type.Optional(Type.Boolean()),
});
export type SaveBenefitBody = Static<typeof SaveBenefitBody>;

// ---- the endpoints --------------------------------------------------------------------------

const ListQuery = Type.Object({ siteId: Type.Optional(SiteIdIn), pageNum: Type.Optional(PageNum) });
const ActivityPage = Type.Object({ siteId: SiteIdIn, activityId: Id(), pageNum: Type.Optional(PageNum) });

export const adminActivityApi = {
  seckillSessions: endpoint({
    ...view,
    path: '/activity/seckill/sessions',
    summary: '秒杀场次',
    body: BySite,
    reply: Envelope(Type.Object({ list: Type.Array(AdminSeckillSession) })),
  }),
  saveSeckillSession: endpoint({
    ...manage,
    path: '/activity/seckill/sessions/save',
    summary: '新建或修改秒杀场次',
    body: SaveSeckillSessionBody,
    reply: Envelope(AdminSeckillSession),
  }),
  seckillActivities: endpoint({
    ...view,
    path: '/activity/seckill/activities',
    summary: '秒杀活动（实时库存与销量）',
    body: ListQuery,
    reply: Paged(AdminSeckillActivity),
  }),
  saveSeckillActivity: endpoint({
    ...manage,
    path: '/activity/seckill/activities/save',
    summary: '新建或修改秒杀活动（规格活动价与库存）',
    body: SaveSeckillActivityBody,
    reply: Envelope(AdminSeckillActivity),
  }),
  endSeckillActivity: endpoint({
    ...manage,
    path: '/activity/seckill/activities/end',
    summary: '立即结束秒杀活动（须填原因）',
    body: Type.Object({ siteId: SiteIdIn, activityId: Id(), reason: Reason }),
    reply: Envelope(AdminSeckillActivity),
  }),
  lotteries: endpoint({
    ...view,
    path: '/activity/lottery/activities',
    summary: '抽奖活动与奖品',
    body: ListQuery,
    reply: Paged(AdminLottery),
  }),
  saveLottery: endpoint({
    ...manage,
    path: '/activity/lottery/activities/save',
    summary: '新建或修改抽奖活动（修改预算须填原因）',
    body: SaveLotteryBody,
    reply: Envelope(AdminLottery),
  }),
  endLottery: endpoint({
    ...manage,
    path: '/activity/lottery/activities/end',
    summary: '立即结束抽奖活动（须填原因）',
    body: Type.Object({ siteId: SiteIdIn, activityId: Id(), reason: Reason }),
    reply: Envelope(AdminLottery),
  }),
  savePrize: endpoint({
    ...manage,
    path: '/activity/lottery/prizes/save',
    summary: '新建或修改奖品（权重、数量）',
    body: SavePrizeBody,
    reply: Envelope(AdminLottery),
  }),
  draws: endpoint({
    ...view,
    path: '/activity/lottery/draws',
    summary: '抽奖记录',
    body: ActivityPage,
    reply: Paged(AdminDraw),
  }),
  gifts: endpoint({
    ...view,
    path: '/activity/lottery/gifts',
    summary: '中奖礼品（站点或活动；状态 0 待领取 1 已领取 -1 已过期；领取与发货信息）',
    body: GiftQuery,
    reply: Paged(AdminGift),
  }),
  exportGifts: endpoint({
    ...view,
    path: '/activity/lottery/gifts/export',
    summary: '导出实物奖品发货单（xlsx，条件同中奖礼品）',
    body: GiftExportQuery,
    reply: ErrorEnvelope,
    file: XLSX_TYPE,
  }),
  whiteUsers: endpoint({
    ...view,
    path: '/activity/lottery/white-users',
    summary: '受邀用户（按邀请码或手机号查找）',
    body: WhiteUserQuery,
    reply: Paged(AdminWhiteUser),
  }),
  addWhiteUser: endpoint({
    ...manage,
    path: '/activity/lottery/white-users/add',
    summary: '添加一个受邀用户',
    body: AddWhiteUserBody,
    reply: Envelope(AdminWhiteUser),
  }),
  removeWhiteUser: endpoint({
    ...manage,
    path: '/activity/lottery/white-users/remove',
    summary: '移除受邀用户（其已得奖品不变）',
    body: RemoveWhiteUserBody,
    reply: Envelope(Type.Null()),
  }),
  importWhiteUsers: endpoint({
    ...manage,
    path: '/activity/lottery/white-users/import',
    summary: '导入受邀用户（CSV：邀请码,手机号；重复导入不重复创建）',
    body: WhiteImportBody,
    reply: Envelope(WhiteImportReport),
  }),
  benefits: endpoint({
    ...view,
    path: '/activity/benefits',
    summary: '权益与领取情况',
    body: ListQuery,
    reply: Paged(AdminBenefit),
  }),
  saveBenefit: endpoint({
    ...manage,
    path: '/activity/benefits/save',
    summary: '新建或修改权益（商品、数量、时间、领取对象）',
    body: SaveBenefitBody,
    reply: Envelope(AdminBenefit),
  }),
  lotteryResults: endpoint({
    ...view,
    path: '/activity/lottery/results',
    summary: '活动效果（抽奖次数、中奖、积分、订单）',
    body: ByActivity,
    reply: Envelope(LotteryResults),
  }),
};

/** Lines one invited-user file may hold. */
export const MAX_WHITE_IMPORT_ROWS = 20_000;
