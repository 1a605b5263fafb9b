import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { PAY_WAYS } from './constants.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Amount, Id, INT4_MAX, Int } from './numbers.ts';
import { Page, PageNum } from './paging.ts';
import { YesNo } from './site.ts';

/**
 * The operator console's API (issue 12), served under ADMIN_API_PREFIX. Operators are not
 * members: every endpoint here names the permission it needs (`operator`), and the server
 * answers 401 to a member's token. A permission is held per site (role assignments carry a
 * site scope); a siteId outside the caller's scope answers 403 and changes nothing.
 */
export const ADMIN_API_PREFIX = '/admin-api';

/** Areas of the console; each has a view and a manage permission (manage includes view). */
export const ADMIN_AREAS = [
  'sites',
  'catalogue',
  'stock',
  'orders',
  'aftersales',
  'members',
  'points',
  'promotions',
  'finance',
  'operators',
  'audit',
] as const;
export type AdminArea = (typeof ADMIN_AREAS)[number];
export type Permission = `${AdminArea}:${'view' | 'manage'}`;

export const ADMIN_AREA_LABEL: Record<AdminArea, string> = {
  sites: '站点',
  catalogue: '商品',
  stock: '库存',
  orders: '订单',
  aftersales: '售后',
  members: '会员',
  points: '积分',
  promotions: '营销',
  finance: '财务',
  operators: '运营人员',
  audit: '审计',
};

/** Whether holding `held` grants `wanted` (manage includes view). */
export const grants = (held: string, wanted: string) =>
  held === wanted || (wanted.endsWith(':view') && held === wanted.replace(/:view$/, ':manage'));

export const ADMIN_MSG = {
  badLogin: '用户名或密码错误',
  badTotp: '动态口令错误',
  totpNeeded: '请输入动态口令',
  totpNotBound: '该账号须使用动态口令登录，请联系平台管理员绑定',
  siteIdTaken: '站点编号已被使用',
  totpAlreadyBound: '已绑定动态口令，如需更换请联系平台管理员重置',
  wrongPassword: '登录密码错误',
  totpNothingToDo: '请选择要修改的动态口令设置',
  tooManyLogins: '登录尝试过于频繁，请稍后再试',
  loginFirst: '请先登录运营后台',
  forbidden: '无权执行此操作',
  forbiddenSite: '无权访问该站点',
  reasonRequired: '请填写操作原因',
  notFound: '记录不存在',
  ownBatch: '不能审批自己提交的发放单',
  batchState: '发放单状态已变化，请刷新后再试',
  ownRefund: '不能审批自己提交的退款申请',
  refundState: '退款申请状态已变化，请刷新后再试',
  refundPending: '该订单已有待审批的退款申请',
  refundMoved: '订单状态已变化，不能按此申请退款',
  memberAlready: '会员状态已是所选状态',
} as const;

const Text = (max: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength: max, ...options });
const SiteIdIn = Id({ description: '站点 id' });
const Reason = Text(200, { description: '操作原因（敏感操作必填）' });
/** Dates as YYYY-MM-DD (China time). */
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });

const Ok = Envelope(Type.Object({ done: Type.Boolean() }));
const Paged = <T extends TSchema>(item: T) => Envelope(Page(item));

// ---- identity -------------------------------------------------------------------------------

export const LoginBody = Type.Object({
  username: Text(64, { minLength: 1 }),
  password: Text(128, { minLength: 1 }),
  totp: Type.Optional(Type.String({ pattern: '^\\d{6}$', maxLength: 6 })),
});
export const LoginAnswer = Type.Object({
  /** Empty when a TOTP code is needed first (`totpNeeded`). */
  token: Type.String(),
  totpNeeded: Type.Boolean(),
});

/** One role assignment as the console shows it: the role and its site scope (null: all sites). */
export const Assignment = Type.Object({
  roleId: Type.Integer(),
  roleName: Type.String(),
  permissions: Type.Array(Type.String()),
  siteIds: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
});
export type Assignment = Static<typeof Assignment>;

export const SiteBrief = Type.Object({ id: Type.Integer(), siteName: Type.String() });
export type SiteBrief = Static<typeof SiteBrief>;

export const Me = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  assignments: Type.Array(Assignment),
  /** Sites the operator holds any permission on. */
  sites: Type.Array(SiteBrief),
  totpBound: Type.Boolean(),
  totpRequired: Type.Boolean(),
});
export type Me = Static<typeof Me>;

/** A new site made from a copy of another (configuration, templates, regions, adverts, catalogue). */
export const CopySiteBody = Type.Object({
  fromSiteId: SiteIdIn,
  newSiteId: Int(1, 99_999_999),
  siteName: Text(60, { minLength: 1 }),
  reason: Text(200, { minLength: 1 }),
});
export type CopySiteBody = Static<typeof CopySiteBody>;

/** A new TOTP secret for the operator's authenticator app; bound only once a code proves it. */
export const TotpSetup = Type.Object({ secret: Type.String(), uri: Type.String() });
export type TotpSetup = Static<typeof TotpSetup>;
export const TotpBindBody = Type.Object({
  secret: Type.String({ pattern: '^[A-Z2-7]{16,64}$', maxLength: 64 }),
  code: Type.String({ pattern: '^\\d{6}$', maxLength: 6 }),
  password: Text(128, { minLength: 1 }),
});
export type TotpBindBody = Static<typeof TotpBindBody>;
/** A platform admin makes TOTP mandatory (or not) for an operator, or resets a lost one. */
export const OperatorTotpBody = Type.Object({
  operatorId: Id(),
  required: Type.Optional(Type.Boolean()),
  reset: Type.Optional(Type.Literal(true)),
  reason: Text(200, { minLength: 1 }),
});
export type OperatorTotpBody = Static<typeof OperatorTotpBody>;

// ---- sites ----------------------------------------------------------------------------------

/** configJson as an operator edits it: every switch bounded. */
export const SiteConfigJsonInput = Type.Object({
  returnBar: Int(0, 9),
  hideServicePhone: YesNo,
  hideExit: YesNo,
  showRegister: Type.Optional(YesNo),
  guestCart: Type.Optional(YesNo),
  afterSalesMenu: Type.Optional(YesNo),
  serviceInfo: Type.Optional(YesNo),
  serviceHours: Type.Optional(Text(40)),
  customServiceEntry: Type.Optional(YesNo),
  bankBranded: Type.Optional(YesNo),
  bankName: Type.Optional(Text(40)),
  mixedPay: Type.Optional(YesNo),
  passwordLogin: Type.Optional(YesNo),
});

/** Every editable field of spec section 3 "Site config"; absent fields keep their value. */
export const SiteFields = Type.Object({
  siteName: Type.Optional(Text(60, { minLength: 1 })),
  hotline: Type.Optional(Text(40)),
  spareHotline: Type.Optional(Text(40)),
  loginWay: Type.Optional(Int(1, 3)),
  paywayConf: Type.Optional(
    Type.Array(Type.Union(PAY_WAYS.map((way) => Type.Literal(way))), {
      minItems: 1,
      maxItems: PAY_WAYS.length,
    }),
  ),
  cashUnit: Type.Optional(Text(10, { minLength: 1 })),
  configJson: Type.Optional(SiteConfigJsonInput),
  customServicePcSwitch: Type.Optional(Int(0, 1)),
  isUsable: Type.Optional(Int(0, 1)),
  loginOrder: Type.Optional(Type.String({ pattern: '^[0-9,]{1,10}$', maxLength: 10 })),
  dingtalkAuthSwitch: Type.Optional(Int(0, 1)),
});
export type SiteFields = Static<typeof SiteFields>;
export const SITE_FIELD_LABEL: Record<keyof SiteFields, string> = {
  siteName: '站点名称',
  hotline: '客服热线',
  spareHotline: '备用热线',
  loginWay: '登录方式',
  paywayConf: '支付方式',
  cashUnit: '积分单位',
  configJson: '站点开关',
  customServicePcSwitch: 'PC 客服开关',
  isUsable: '是否可用',
  loginOrder: '登录顺序',
  dingtalkAuthSwitch: '钉钉授权',
};

export const AdminSite = Type.Object({
  id: Type.Integer(),
  siteName: Type.String(),
  hotline: Type.String(),
  spareHotline: Type.String(),
  loginWay: Type.Integer(),
  paywayConf: Type.Array(Type.String()),
  cashUnit: Type.String(),
  configJson: Type.Record(Type.String(), Type.Unknown()),
  customServicePcSwitch: Type.Integer(),
  isUsable: Type.Integer(),
  loginOrder: Type.String(),
  dingtalkAuthSwitch: Type.Integer(),
  updatedAt: Type.String(),
});
export type AdminSite = Static<typeof AdminSite>;

export const UpdateSiteBody = Type.Composite([
  Type.Object({ siteId: SiteIdIn, reason: Type.Optional(Reason) }),
  SiteFields,
]);
export type UpdateSiteBody = Static<typeof UpdateSiteBody>;

// ---- orders ---------------------------------------------------------------------------------

export const OrderSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  orderNo: Type.Optional(Text(40)),
  phone: Type.Optional(Text(20)),
  status: Type.Optional(Int(0, 99)),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  pageNum: Type.Optional(PageNum),
});
export type OrderSearchBody = Static<typeof OrderSearchBody>;

export const AdminOrder = Type.Object({
  orderNo: Type.String(),
  siteId: Type.Integer(),
  memberId: Type.Integer(),
  memberPhone: Type.String(),
  status: Type.Integer(),
  statusName: Type.String(),
  payAmount: Type.Integer(),
  createdAt: Type.String(),
  paidAt: Type.Union([Type.String(), Type.Null()]),
});
export type AdminOrder = Static<typeof AdminOrder>;

export const REFUND_REQUEST_STATUS = ['submitted', 'approved', 'executed', 'rejected'] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUS)[number];
export const REFUND_REQUEST_STATUS_LABEL: Record<RefundRequestStatus, string> = {
  submitted: '待审批',
  approved: '已批准',
  executed: '已退款',
  rejected: '已驳回',
};
/**
 * An order refund above the site's threshold (issue 12 item 4): the cancel of an operator with
 * orders:manage becomes a request (submitted), which a different operator with finance:manage
 * approves (then it executes, in the same transaction) or rejects with a reason.
 */
export const REFUND_REQUEST_TRANSITIONS = [
  ['submitted', 'approved', 'approve'],
  ['approved', 'executed', 'execute'],
  ['submitted', 'rejected', 'reject'],
] as const satisfies readonly (readonly [RefundRequestStatus, RefundRequestStatus, string])[];

export const RefundRequest = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  orderNo: Type.String(),
  status: Type.Union(REFUND_REQUEST_STATUS.map((s) => Type.Literal(s))),
  /** Fen: the order's paid value when proposed (points, cards and cash). */
  amount: Type.Integer(),
  reason: Type.String(),
  makerId: Type.Integer(),
  makerName: Type.String(),
  approverId: Type.Union([Type.Integer(), Type.Null()]),
  approverName: Type.String(),
  /** The checker's reason for a rejection. */
  decisionReason: Type.String(),
  createdAt: Type.String(),
  decidedAt: Type.Union([Type.String(), Type.Null()]),
});
export type RefundRequest = Static<typeof RefundRequest>;

export const AdminOrderDetail = Type.Composite([
  AdminOrder,
  Type.Object({
    /** The order's latest refund request above the threshold (console only), if any. */
    refundRequest: Type.Optional(Type.Union([RefundRequest, Type.Null()])),
    goodsAmount: Type.Integer(),
    freightAmount: Type.Integer(),
    address: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
    children: Type.Array(
      Type.Object({
        childOrderNo: Type.String(),
        status: Type.Integer(),
        statusName: Type.String(),
        hasAddress: Type.Boolean(),
        shipment: Type.Union([
          Type.Object({ company: Type.String(), trackingNo: Type.String() }),
          Type.Null(),
        ]),
        lines: Type.Array(Type.Object({ name: Type.String(), num: Type.Integer(), price: Type.Integer() })),
      }),
    ),
    timeline: Type.Array(
      Type.Object({
        status: Type.Integer(),
        statusName: Type.String(),
        note: Type.String(),
        at: Type.String(),
      }),
    ),
  }),
]);
export type AdminOrderDetail = Static<typeof AdminOrderDetail>;

export const AdminOrderNoBody = Type.Object({ siteId: SiteIdIn, orderNo: Text(40, { minLength: 1 }) });
export const ShipBody = Type.Object({
  siteId: SiteIdIn,
  childOrderNo: Text(40, { minLength: 1 }),
  company: Text(40, { minLength: 1 }),
  trackingNo: Text(40, { minLength: 1 }),
});
export const AdminCancelOrderBody = Type.Object({
  siteId: SiteIdIn,
  orderNo: Text(40, { minLength: 1 }),
  reason: Reason,
});

// ---- members and points ---------------------------------------------------------------------

export const MemberSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  keyword: Type.Optional(Text(40)),
  pageNum: Type.Optional(PageNum),
});
export const AdminMember = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  phone: Type.String(),
  username: Type.String(),
  status: Type.Integer(),
  balance: Type.Integer(),
  createdAt: Type.String(),
});
export type AdminMember = Static<typeof AdminMember>;

export const MemberIdBody = Type.Object({ siteId: SiteIdIn, memberId: Id() });
/** A login session of a member as the console shows it (never the token). */
export const AdminMemberSession = Type.Object({
  id: Type.Integer(),
  createdAt: Type.String(),
  lastSeenAt: Type.String(),
  expiresAt: Type.String(),
  /** Empty while the session has not been revoked. */
  revokedAt: Type.String(),
  /** logout | superseded | password | disabled | operator; empty while not revoked. */
  revokeReason: Type.String(),
  /** Neither revoked nor expired (idle or absolute). */
  active: Type.Boolean(),
});
export type AdminMemberSession = Static<typeof AdminMemberSession>;
export const AdminMemberDetail = Type.Composite([
  AdminMember,
  Type.Object({ sessions: Type.Array(AdminMemberSession) }),
]);
export type AdminMemberDetail = Static<typeof AdminMemberDetail>;
export const MemberReasonBody = Type.Object({ siteId: SiteIdIn, memberId: Id(), reason: Reason });
/** 0 freezes the member (every session ends, logins refused), 1 lets them in again. */
export const MemberStatusBody = Type.Object({
  siteId: SiteIdIn,
  memberId: Id(),
  status: Int(0, 1, { description: '0 冻结，1 正常' }),
  reason: Reason,
});

export const LedgerBody = Type.Object({ siteId: SiteIdIn, memberId: Id(), pageNum: Type.Optional(PageNum) });
export const LedgerEntry = Type.Object({
  id: Type.Integer(),
  amount: Type.Integer(),
  balanceAfter: Type.Integer(),
  type: Type.String(),
  orderNo: Type.String(),
  note: Type.String(),
  createdAt: Type.String(),
});

export const ISSUE_STATUS = ['draft', 'submitted', 'approved', 'executed', 'rejected'] as const;
export type IssueStatus = (typeof ISSUE_STATUS)[number];
export const ISSUE_STATUS_LABEL: Record<IssueStatus, string> = {
  draft: '草稿',
  submitted: '待审批',
  approved: '已批准',
  executed: '已发放',
  rejected: '已驳回',
};
/**
 * A points issue's moves: submitted by an operator (executed at once at or below the site's
 * threshold), approved by a second one and executed in the same transaction, or rejected.
 */
export const ISSUE_TRANSITIONS = [
  ['draft', 'submitted', 'submit'],
  ['draft', 'executed', 'submit'],
  ['submitted', 'approved', 'approve'],
  ['approved', 'executed', 'execute'],
  ['submitted', 'rejected', 'reject'],
] as const satisfies readonly (readonly [IssueStatus, IssueStatus, string])[];

export const IssueBody = Type.Object({
  siteId: SiteIdIn,
  account: Text(32, { minLength: 1, description: '手机号或用户名' }),
  amount: Amount({ minimum: 1, maximum: 100_000_000, description: '分' }),
  note: Type.Optional(Text(200)),
  reason: Text(200, { minLength: 1 }),
});
export const IssueCsvBody = Type.Object({
  siteId: SiteIdIn,
  fileName: Text(120, { minLength: 1 }),
  /** The file's text: phone or username, amount in yuan, note[, requestId] per line. */
  text: Text(200_000, { minLength: 1 }),
  reason: Text(200, { minLength: 1 }),
});
export const BatchIdBody = Type.Object({ batchId: Id() });
export const RejectBatchBody = Type.Object({ batchId: Id(), reason: Text(200, { minLength: 1 }) });
export const BatchListBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  status: Type.Optional(Type.Union(ISSUE_STATUS.map((s) => Type.Literal(s)))),
  pageNum: Type.Optional(PageNum),
});

export const IssueRow = Type.Object({
  line: Type.Integer(),
  account: Type.String(),
  amount: Type.Integer({ description: '分' }),
  note: Type.String(),
  requestKey: Type.String(),
  result: Type.Optional(Type.Union([Type.Literal('ok'), Type.Literal('error')])),
  detail: Type.Optional(Type.String()),
});
export type IssueRow = Static<typeof IssueRow>;

export const IssueBatch = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  status: Type.Union(ISSUE_STATUS.map((s) => Type.Literal(s))),
  makerId: Type.Integer(),
  makerName: Type.String(),
  approverId: Type.Union([Type.Integer(), Type.Null()]),
  approverName: Type.String(),
  fileName: Type.String(),
  reason: Type.String(),
  totalAmount: Type.Integer(),
  rowCount: Type.Integer(),
  /** Above the site's threshold: a second operator with the finance permission must approve. */
  needsApproval: Type.Boolean(),
  /** Rows that could not be read from the file (line and why); they are never issued. */
  refused: Type.Array(Type.Object({ line: Type.Integer(), detail: Type.String() })),
  rows: Type.Array(IssueRow),
  createdAt: Type.String(),
  executedAt: Type.Union([Type.String(), Type.Null()]),
});
export type IssueBatch = Static<typeof IssueBatch>;

// ---- audit and operators --------------------------------------------------------------------

export const AuditSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  action: Type.Optional(Text(60)),
  operator: Type.Optional(Text(64)),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  pageNum: Type.Optional(PageNum),
});
export const AuditRow = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  operatorId: Type.Integer(),
  operatorName: Type.String(),
  siteId: Type.Union([Type.Integer(), Type.Null()]),
  action: Type.String(),
  entity: Type.String(),
  entityId: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  reason: Type.String(),
  ip: Type.String(),
  requestId: Type.String(),
});
export type AuditRow = Static<typeof AuditRow>;

export const AdminOperator = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  status: Type.Integer(),
  totpBound: Type.Boolean(),
  totpRequired: Type.Boolean(),
  assignments: Type.Array(Assignment),
  createdAt: Type.String(),
});
export type AdminOperator = Static<typeof AdminOperator>;
export const AdminRole = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  permissions: Type.Array(Type.String()),
});
export type AdminRole = Static<typeof AdminRole>;
export const LoginLogRow = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  username: Type.String(),
  operatorId: Type.Union([Type.Integer(), Type.Null()]),
  result: Type.String(),
  ip: Type.String(),
  userAgent: Type.String(),
});
export type LoginLogRow = Static<typeof LoginLogRow>;
export const PageOnly = Type.Object({ pageNum: Type.Optional(PageNum) });
export const AssignBody = Type.Object({
  operatorId: Id(),
  roleId: Id(),
  /** Absent or empty: all sites. */
  siteIds: Type.Optional(Type.Array(Int(1, INT4_MAX), { maxItems: 500 })),
  reason: Text(200, { minLength: 1 }),
});

// ---- the endpoints --------------------------------------------------------------------------

const tagOf = (area: string) => ({ tag: `admin-${area}` }) as const;

export const adminApi = {
  login: endpoint({
    ...tagOf('auth'),
    operator: 'login',
    method: 'POST',
    path: '/auth/login',
    summary: '运营人员登录（用户名、密码、动态口令）',
    encoding: 'json',
    body: LoginBody,
    reply: Envelope(LoginAnswer),
  }),
  logout: endpoint({
    ...tagOf('auth'),
    operator: 'self',
    method: 'POST',
    path: '/auth/logout',
    summary: '退出登录',
    encoding: 'json',
    body: Type.Object({}),
    reply: Ok,
  }),
  totpSetup: endpoint({
    ...tagOf('auth'),
    operator: 'self',
    method: 'POST',
    path: '/auth/totp/setup',
    summary: '生成动态口令密钥（扫码后用口令确认绑定）',
    encoding: 'json',
    body: Type.Object({}),
    reply: Envelope(TotpSetup),
  }),
  totpBind: endpoint({
    ...tagOf('auth'),
    operator: 'self',
    method: 'POST',
    path: '/auth/totp/bind',
    summary: '绑定动态口令（登录密码与一次口令确认）',
    encoding: 'json',
    body: TotpBindBody,
    reply: Ok,
  }),
  me: endpoint({
    ...tagOf('auth'),
    operator: 'self',
    method: 'GET',
    path: '/auth/me',
    summary: '当前运营人员、角色与站点',
    body: Type.Object({}),
    reply: Envelope(Me),
  }),
  sites: endpoint({
    ...tagOf('sites'),
    operator: 'sites:view',
    method: 'GET',
    path: '/sites',
    summary: '站点列表',
    body: Type.Object({ siteId: Type.Optional(SiteIdIn), pageNum: Type.Optional(PageNum) }),
    reply: Paged(AdminSite),
  }),
  updateSite: endpoint({
    ...tagOf('sites'),
    operator: 'sites:manage',
    method: 'POST',
    path: '/sites/update',
    summary: '修改站点配置（修改支付方式须填原因）',
    encoding: 'json',
    body: UpdateSiteBody,
    reply: Envelope(AdminSite),
  }),
  copySite: endpoint({
    ...tagOf('sites'),
    operator: 'sites:manage',
    method: 'POST',
    path: '/sites/copy',
    summary: '复制站点新建（配置、模板、地区、广告与商品），须填原因',
    encoding: 'json',
    body: CopySiteBody,
    reply: Envelope(AdminSite),
  }),
  orders: endpoint({
    ...tagOf('orders'),
    operator: 'orders:view',
    method: 'GET',
    path: '/orders',
    summary: '订单查询',
    body: OrderSearchBody,
    reply: Paged(AdminOrder),
  }),
  orderDetail: endpoint({
    ...tagOf('orders'),
    operator: 'orders:view',
    method: 'GET',
    path: '/orders/detail',
    summary: '订单详情',
    body: AdminOrderNoBody,
    reply: Envelope(AdminOrderDetail),
  }),
  shipOrder: endpoint({
    ...tagOf('orders'),
    operator: 'orders:manage',
    method: 'POST',
    path: '/orders/ship',
    summary: '子订单发货',
    encoding: 'json',
    body: ShipBody,
    reply: Envelope(AdminOrderDetail),
  }),
  cancelOrder: endpoint({
    ...tagOf('orders'),
    operator: 'orders:manage',
    method: 'POST',
    path: '/orders/cancel',
    summary: '取消已支付未发货的订单并退款（须填原因；超过站点退款阈值时转为退款申请，待财务复核）',
    encoding: 'json',
    body: AdminCancelOrderBody,
    reply: Envelope(AdminOrderDetail),
  }),
  members: endpoint({
    ...tagOf('members'),
    operator: 'members:view',
    method: 'GET',
    path: '/members',
    summary: '会员查询',
    body: MemberSearchBody,
    reply: Paged(AdminMember),
  }),
  memberDetail: endpoint({
    ...tagOf('members'),
    operator: 'members:view',
    method: 'GET',
    path: '/members/detail',
    summary: '会员详情与登录会话',
    body: MemberIdBody,
    reply: Envelope(AdminMemberDetail),
  }),
  revokeMemberSessions: endpoint({
    ...tagOf('members'),
    operator: 'members:manage',
    method: 'POST',
    path: '/members/sessions/revoke',
    summary: '强制下线：结束会员的全部登录会话（须填原因）',
    encoding: 'json',
    body: MemberReasonBody,
    reply: Envelope(AdminMemberDetail),
  }),
  setMemberStatus: endpoint({
    ...tagOf('members'),
    operator: 'members:manage',
    method: 'POST',
    path: '/members/status',
    summary: '冻结或解冻会员（冻结即下线并拒绝登录，须填原因）',
    encoding: 'json',
    body: MemberStatusBody,
    reply: Envelope(AdminMemberDetail),
  }),
  ledger: endpoint({
    ...tagOf('points'),
    operator: 'points:view',
    method: 'GET',
    path: '/points/ledger',
    summary: '会员积分明细',
    body: LedgerBody,
    reply: Paged(LedgerEntry),
  }),
  issuePoints: endpoint({
    ...tagOf('points'),
    operator: 'points:manage',
    method: 'POST',
    path: '/points/issue',
    summary: '积分发放（单个会员，生成草稿）',
    encoding: 'json',
    body: IssueBody,
    reply: Envelope(IssueBatch),
  }),
  issuePointsCsv: endpoint({
    ...tagOf('points'),
    operator: 'points:manage',
    method: 'POST',
    path: '/points/issue-csv',
    summary: '积分批量发放（CSV，生成草稿）',
    encoding: 'json',
    body: IssueCsvBody,
    reply: Envelope(IssueBatch),
  }),
  batches: endpoint({
    ...tagOf('points'),
    operator: 'points:view',
    method: 'GET',
    path: '/points/batches',
    summary: '积分发放单',
    body: BatchListBody,
    reply: Paged(IssueBatch),
  }),
  submitBatch: endpoint({
    ...tagOf('points'),
    operator: 'points:manage',
    method: 'POST',
    path: '/points/batches/submit',
    summary: '提交发放单（未超过站点阈值的直接发放）',
    encoding: 'json',
    body: BatchIdBody,
    reply: Envelope(IssueBatch),
  }),
  approveBatch: endpoint({
    ...tagOf('points'),
    operator: 'finance:manage',
    method: 'POST',
    path: '/points/batches/approve',
    summary: '复核并发放（须为制单人以外的财务人员）',
    encoding: 'json',
    body: BatchIdBody,
    reply: Envelope(IssueBatch),
  }),
  rejectBatch: endpoint({
    ...tagOf('points'),
    operator: 'finance:manage',
    method: 'POST',
    path: '/points/batches/reject',
    summary: '驳回发放单',
    encoding: 'json',
    body: RejectBatchBody,
    reply: Envelope(IssueBatch),
  }),
  audit: endpoint({
    ...tagOf('audit'),
    operator: 'audit:view',
    method: 'GET',
    path: '/audit',
    summary: '审计日志',
    body: AuditSearchBody,
    reply: Paged(AuditRow),
  }),
  operators: endpoint({
    ...tagOf('operators'),
    operator: 'operators:view',
    method: 'GET',
    path: '/operators',
    summary: '运营人员与角色分配',
    body: PageOnly,
    reply: Paged(AdminOperator),
  }),
  roles: endpoint({
    ...tagOf('operators'),
    operator: 'operators:view',
    method: 'GET',
    path: '/roles',
    summary: '角色与权限',
    body: Type.Object({}),
    reply: Envelope(Type.Object({ list: Type.Array(AdminRole) })),
  }),
  assignRole: endpoint({
    ...tagOf('operators'),
    operator: 'operators:manage',
    method: 'POST',
    path: '/operators/assign',
    summary: '分配角色与站点范围（须填原因）',
    encoding: 'json',
    body: AssignBody,
    reply: Envelope(AdminOperator),
  }),
  operatorTotp: endpoint({
    ...tagOf('operators'),
    operator: 'operators:manage',
    method: 'POST',
    path: '/operators/totp',
    summary: '设置运营人员须用动态口令，或重置其动态口令（须填原因）',
    encoding: 'json',
    body: OperatorTotpBody,
    reply: Envelope(AdminOperator),
  }),
  loginLog: endpoint({
    ...tagOf('operators'),
    operator: 'operators:view',
    method: 'GET',
    path: '/operators/login-log',
    summary: '登录日志',
    body: PageOnly,
    reply: Paged(LoginLogRow),
  }),
};

/** Schema pieces the family contract files (admin-<family>.ts) build their endpoints from. */
export const adminSchema = { Text, SiteIdIn, Reason, Day, Ok, Paged, tagOf };
