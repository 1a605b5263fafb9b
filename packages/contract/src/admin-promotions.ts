import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.ts';
import { Envelope, ErrorEnvelope } from './envelope.ts';
import { Amount, Id, Int } from './numbers.ts';
import { Page, PageNum } from './paging.ts';
import { CLAIM_MODES, VOUCHER_KINDS, VOUCHER_SCOPES, VoucherScope } from './voucher.ts';

/**
 * The console's promotion screens (issue 13 item 5, issue 12): voucher templates and their
 * claims, budgets, pack products, card batches (issued with a second approver, codes exported
 * once), cards (search, freeze), VIP levels and members' levels. Served under /admin-api like
 * `adminApi`; each endpoint names the permission it needs, a siteId outside the caller's scope
 * answers 403 and changes nothing.
 */

export const PROMO_MSG = {
  templateState: '优惠券状态已变化，请刷新后再试',
  badTemplate: '优惠券规则不完整',
  issueMode: '需审核的优惠券不能直接发放，请使用其他领取方式的券',
  noAccounts: '请填写会员 id 或手机号',
  tooManyAccounts: '一次最多发放 500 位会员',
  claimState: '领取申请已处理，请刷新后再试',
  codeTaken: '兑换码已被本站其他优惠券使用',
  budgetBelowUsed: '预算额度不能低于已使用金额',
  cardState: '卡状态已变化，请刷新后再试',
  ownCardBatch: '不能审批自己提交的发卡单',
  cardBatchState: '发卡单状态已变化，请刷新后再试',
  exported: '卡号与密码已导出过一次，不能再次导出',
  notExportable: '发卡单尚未审批通过，没有可导出的卡号',
  rankTaken: '该等级序号已存在',
  memberNotFound: '会员不存在',
} as const;

// ---- state machines -------------------------------------------------------------------------

export const TEMPLATE_STATUS = ['draft', 'active', 'paused', 'ended'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUS)[number];
export const TEMPLATE_STATUS_LABEL: Record<TemplateStatus, string> = {
  draft: '草稿',
  active: '进行中',
  paused: '已暂停',
  ended: '已结束',
};
/** A template's life as operators move it: [from, to, action]. Ended is final. */
export const TEMPLATE_TRANSITIONS = [
  ['draft', 'active', 'start'],
  ['active', 'paused', 'pause'],
  ['paused', 'active', 'resume'],
  ['draft', 'ended', 'end'],
  ['active', 'ended', 'end'],
  ['paused', 'ended', 'end'],
] as const satisfies readonly (readonly [TemplateStatus, TemplateStatus, string])[];
export type TemplateAction = (typeof TEMPLATE_TRANSITIONS)[number][2];
export const TEMPLATE_ACTION_LABEL: Record<TemplateAction, string> = {
  start: '启用',
  pause: '暂停',
  resume: '恢复',
  end: '结束',
};

/** A card batch: submitted by its maker, approved (codes generated) or rejected by finance. */
export const CARD_BATCH_STATUS = ['submitted', 'approved', 'rejected'] as const;
export type CardBatchStatus = (typeof CARD_BATCH_STATUS)[number];
export const CARD_BATCH_STATUS_LABEL: Record<CardBatchStatus, string> = {
  submitted: '待复核',
  approved: '已生成',
  rejected: '已驳回',
};
export const CARD_BATCH_TRANSITIONS = [
  ['submitted', 'approved', 'approve'],
  ['submitted', 'rejected', 'reject'],
] as const satisfies readonly (readonly [CardBatchStatus, CardBatchStatus, string])[];

export const CARD_STATUS_LABEL: Record<string, string> = {
  unsold: '未售出',
  sold: '已售出',
  bound: '已绑定',
  frozen: '已冻结',
  exhausted: '已用完',
  expired: '已过期',
  void: '已作废',
};

export const VOUCHER_KIND_LABEL = { amount: '满减券', percent: '折扣券', points: '积分抵扣券' } as const;
export const CLAIM_MODE_LABEL = {
  self: '领券中心自领',
  code: '兑换码',
  issue: '运营发放',
  review: '领取后审核',
} as const;
export const SCOPE_LABEL = {
  all: '全场通用',
  categories: '指定分类',
  products: '指定商品',
  sources: '指定供应渠道',
} as const;
export const VIP_THRESHOLD_LABEL = {
  manual: '运营设置',
  points_spent: '累计消费积分',
  partner: '合作方同步',
} as const;

// ---- shapes ---------------------------------------------------------------------------------

const Text = (max: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength: max, ...options });
const SiteIdIn = Id({ description: '站点 id' });
const Reason = Text(200, { description: '操作原因（敏感操作必填）' });
/** Dates as YYYY-MM-DD (China time); a "to" day is included whole. */
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Fen = (description: string) => Amount({ minimum: 0, maximum: 100_000_000, description });
const Paged = <T extends TSchema>(item: T) => Envelope(Page(item));
const Literals = <const T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));

export const AdminVoucherTemplate = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  kind: Type.String(),
  value: Type.Integer(),
  cap: Nullable(Type.Integer()),
  threshold: Type.Integer(),
  scope: VoucherScope,
  stackGroup: Type.String(),
  claimMode: Type.String(),
  code: Nullable(Type.String()),
  claimFrom: Nullable(Type.String()),
  claimTo: Nullable(Type.String()),
  validMode: Type.String(),
  validFrom: Nullable(Type.String()),
  validTo: Nullable(Type.String()),
  validDays: Nullable(Type.Integer()),
  totalLimit: Nullable(Type.Integer()),
  perMemberLimit: Nullable(Type.Integer()),
  budgetId: Nullable(Type.Integer()),
  budgetName: Type.String(),
  refundReturns: Type.Boolean(),
  status: Type.String(),
  /** The rule in words (满50减10). */
  title: Type.String(),
  /** Use so far: claimed (the template's counter), in use on orders, used, waiting for review. */
  issued: Type.Integer(),
  locked: Type.Integer(),
  used: Type.Integer(),
  pending: Type.Integer(),
  createdAt: Type.String(),
});
export type AdminVoucherTemplate = Static<typeof AdminVoucherTemplate>;

export const TemplateSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  status: Type.Optional(Literals(TEMPLATE_STATUS)),
  name: Type.Optional(Text(60)),
  pageNum: Type.Optional(PageNum),
});

export const CreateTemplateBody = Type.Object({
  siteId: SiteIdIn,
  name: Text(40, { minLength: 1 }),
  kind: Literals(VOUCHER_KINDS),
  /** amount/points: fen off; percent: percent off (1..99). */
  value: Amount({ minimum: 1, maximum: 100_000_000 }),
  cap: Type.Optional(Fen('percent: most fen off')),
  threshold: Type.Optional(Fen('fen the in-scope lines must reach')),
  scopeType: Literals(VOUCHER_SCOPES),
  scopeIds: Type.Optional(Type.Array(Id(), { maxItems: 200 })),
  stackGroup: Type.Optional(Text(20, { minLength: 1 })),
  claimMode: Literals(CLAIM_MODES),
  code: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{4,20}$', maxLength: 20 })),
  claimFrom: Type.Optional(Day),
  claimTo: Type.Optional(Day),
  validMode: Literals(['fixed', 'days'] as const),
  validFrom: Type.Optional(Day),
  validTo: Type.Optional(Day),
  validDays: Type.Optional(Int(1, 3650)),
  totalLimit: Type.Optional(Int(1, 10_000_000)),
  perMemberLimit: Type.Optional(Int(1, 1000)),
  budgetId: Type.Optional(Id()),
  refundReturns: Type.Optional(Type.Boolean()),
  /** Start at once (active) or keep as a draft. */
  start: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Reason),
});
export type CreateTemplateBody = Static<typeof CreateTemplateBody>;

export const TemplateActionBody = Type.Object({
  siteId: SiteIdIn,
  templateId: Id(),
  action: Literals(['start', 'pause', 'resume', 'end'] as const),
  reason: Reason,
});

export const IssueVouchersBody = Type.Object({
  siteId: SiteIdIn,
  templateId: Id(),
  /** Member ids or phones, one a line (commas and spaces also separate). */
  accounts: Text(20_000, { minLength: 1 }),
  reason: Reason,
});
export const IssueVoucherRow = Type.Object({
  account: Type.String(),
  memberId: Nullable(Type.Integer()),
  ok: Type.Boolean(),
  detail: Type.String(),
});
export const IssueVouchersResult = Type.Object({
  issued: Type.Integer(),
  failed: Type.Integer(),
  rows: Type.Array(IssueVoucherRow),
});
export type IssueVouchersResult = Static<typeof IssueVouchersResult>;

export const PendingClaim = Type.Object({
  voucherId: Type.Integer(),
  siteId: Type.Integer(),
  templateId: Type.Integer(),
  templateName: Type.String(),
  memberId: Type.Integer(),
  member: Type.String(),
  claimTime: Type.String(),
});
export type PendingClaim = Static<typeof PendingClaim>;
export const PendingClaimsBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  templateId: Type.Optional(Id()),
  pageNum: Type.Optional(PageNum),
});
export const ReviewClaimsBody = Type.Object({
  siteId: SiteIdIn,
  voucherIds: Type.Array(Id(), { minItems: 1, maxItems: 100 }),
  approve: Type.Boolean(),
  reason: Type.Optional(Reason),
});

export const AdminBudget = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  limitAmount: Type.Integer(),
  used: Type.Integer(),
  templates: Type.Integer(),
});
export type AdminBudget = Static<typeof AdminBudget>;
export const BudgetSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  pageNum: Type.Optional(PageNum),
});
export const CreateBudgetBody = Type.Object({
  siteId: SiteIdIn,
  name: Text(40, { minLength: 1 }),
  limitAmount: Amount({ minimum: 1, maximum: 2_000_000_000 }),
  reason: Reason,
});
export const UpdateBudgetBody = Type.Object({
  siteId: SiteIdIn,
  budgetId: Id(),
  limitAmount: Amount({ minimum: 1, maximum: 2_000_000_000 }),
  reason: Reason,
});

export const AdminPackProduct = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  name: Type.String(),
  faceValue: Type.Integer(),
  salePrice: Type.Integer(),
  validityDays: Type.Integer(),
  status: Type.String(),
  /** Cards issued of it, and their balances still owed (liability). */
  cards: Type.Integer(),
  liability: Type.Integer(),
});
export type AdminPackProduct = Static<typeof AdminPackProduct>;
export const PackProductSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  pageNum: Type.Optional(PageNum),
});
const PackProductFields = {
  name: Text(40, { minLength: 1 }),
  faceValue: Amount({ minimum: 1, maximum: 100_000_000, description: 'fen (points)' }),
  salePrice: Fen('price, fen'),
  validityDays: Int(1, 3650),
};
export const CreatePackProductBody = Type.Object({
  siteId: SiteIdIn,
  ...PackProductFields,
  reason: Type.Optional(Reason),
});
export const UpdatePackProductBody = Type.Object({
  siteId: SiteIdIn,
  productId: Id(),
  name: Type.Optional(PackProductFields.name),
  salePrice: Type.Optional(PackProductFields.salePrice),
  validityDays: Type.Optional(PackProductFields.validityDays),
  status: Type.Optional(Literals(['active', 'inactive'] as const)),
  reason: Reason,
});

export const CardBatch = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  productId: Type.Integer(),
  productName: Type.String(),
  faceValue: Type.Integer(),
  quantity: Type.Integer(),
  status: Literals(CARD_BATCH_STATUS),
  makerId: Type.Integer(),
  makerName: Type.String(),
  approverId: Nullable(Type.Integer()),
  approverName: Type.String(),
  reason: Type.String(),
  /** The cards' batch once generated. */
  packBatchId: Nullable(Type.Integer()),
  /** Whether the file of codes and PINs is still waiting for its one download. */
  exportable: Type.Boolean(),
  exportedAt: Nullable(Type.String()),
  exportedBy: Type.String(),
  createdAt: Type.String(),
});
export type CardBatch = Static<typeof CardBatch>;
export const CardBatchSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  status: Type.Optional(Literals(CARD_BATCH_STATUS)),
  pageNum: Type.Optional(PageNum),
});
export const CreateCardBatchBody = Type.Object({
  siteId: SiteIdIn,
  productId: Id(),
  quantity: Int(1, 5000),
  reason: Reason,
});
export const CardBatchIdBody = Type.Object({ batchId: Id() });
export const RejectCardBatchBody = Type.Object({ batchId: Id(), reason: Reason });

export const AdminCard = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  /** Null for a card a member bought (packs order), not issued in a batch. */
  batchId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  codeMasked: Type.String(),
  faceValue: Type.Integer(),
  balance: Type.Integer(),
  status: Type.String(),
  memberId: Nullable(Type.Integer()),
  member: Type.String(),
  boundAt: Nullable(Type.String()),
  expiresAt: Type.String(),
});
export type AdminCard = Static<typeof AdminCard>;
export const CardSearchBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  /** The last four characters, or the whole code (matched by its hash). */
  code: Type.Optional(Type.String({ pattern: '^[A-Za-z2-7\\s-]{0,40}$', maxLength: 40 })),
  /** Member id or phone. */
  member: Type.Optional(Text(20)),
  status: Type.Optional(Text(20)),
  pageNum: Type.Optional(PageNum),
});
export const FreezeCardBody = Type.Object({
  siteId: SiteIdIn,
  cardId: Id(),
  frozen: Type.Boolean(),
  reason: Reason,
});

export const AdminVipLevel = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  rank: Type.Integer(),
  name: Type.String(),
  discountPct: Type.Integer(),
  thresholdType: Type.String(),
  threshold: Type.Integer(),
  status: Type.String(),
  members: Type.Integer(),
});
export type AdminVipLevel = Static<typeof AdminVipLevel>;
const VipThreshold = Literals(['manual', 'points_spent', 'partner'] as const);
export const CreateVipLevelBody = Type.Object({
  siteId: SiteIdIn,
  rank: Int(1, 99),
  name: Text(20, { minLength: 1 }),
  discountPct: Int(0, 99),
  thresholdType: Type.Optional(VipThreshold),
  threshold: Type.Optional(Fen('points spent to reach it')),
  reason: Type.Optional(Reason),
});
export const UpdateVipLevelBody = Type.Object({
  siteId: SiteIdIn,
  levelId: Id(),
  name: Type.Optional(Text(20, { minLength: 1 })),
  discountPct: Type.Optional(Int(0, 99)),
  thresholdType: Type.Optional(VipThreshold),
  threshold: Type.Optional(Fen('points spent to reach it')),
  status: Type.Optional(Literals(['active', 'inactive'] as const)),
  reason: Reason,
});
export const MemberVipBody = Type.Object({ siteId: SiteIdIn, member: Text(20, { minLength: 1 }) });
export const AdminMemberVip = Type.Object({
  siteId: Type.Integer(),
  memberId: Type.Integer(),
  member: Type.String(),
  levelId: Nullable(Type.Integer()),
  levelName: Type.String(),
  discountPct: Type.Integer(),
  source: Type.String(),
  expiresAt: Nullable(Type.String()),
  log: Type.Array(
    Type.Object({
      fromLevel: Nullable(Type.Integer()),
      toLevel: Nullable(Type.Integer()),
      reason: Type.String(),
      actor: Type.String(),
      at: Type.String(),
    }),
  ),
});
export type AdminMemberVip = Static<typeof AdminMemberVip>;
export const SetMemberVipBody = Type.Object({
  siteId: SiteIdIn,
  member: Text(20, { minLength: 1 }),
  /** null removes the level. */
  levelId: Nullable(Id()),
  expiresOn: Type.Optional(Day),
  reason: Reason,
});

// ---- the endpoints --------------------------------------------------------------------------

const view = { tag: 'admin-promotions', operator: 'promotions:view' } as const;
const manage = { tag: 'admin-promotions', operator: 'promotions:manage', encoding: 'json' } as const;
const finance = { tag: 'admin-promotions', operator: 'finance:manage', encoding: 'json' } as const;

export const adminPromotionsApi = {
  templates: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/vouchers',
    summary: '优惠券模板（含领取、使用数量）',
    body: TemplateSearchBody,
    reply: Paged(AdminVoucherTemplate),
  }),
  createTemplate: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/vouchers/create',
    summary: '新建优惠券模板',
    body: CreateTemplateBody,
    reply: Envelope(AdminVoucherTemplate),
  }),
  moveTemplate: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/vouchers/status',
    summary: '启用、暂停、恢复或结束优惠券（须填原因）',
    body: TemplateActionBody,
    reply: Envelope(AdminVoucherTemplate),
  }),
  issueVouchers: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/vouchers/issue',
    summary: '按会员 id 或手机号发放优惠券（须填原因）',
    body: IssueVouchersBody,
    reply: Envelope(IssueVouchersResult),
  }),
  pendingClaims: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/vouchers/pending',
    summary: '待审核的领取申请',
    body: PendingClaimsBody,
    reply: Paged(PendingClaim),
  }),
  reviewClaims: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/vouchers/review',
    summary: '审核领取申请（通过或驳回，驳回须填原因）',
    body: ReviewClaimsBody,
    reply: Envelope(Type.Object({ done: Type.Integer() })),
  }),
  budgets: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/budgets',
    summary: '活动预算（额度与已使用）',
    body: BudgetSearchBody,
    reply: Paged(AdminBudget),
  }),
  createBudget: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/budgets/create',
    summary: '新建活动预算（须填原因）',
    body: CreateBudgetBody,
    reply: Envelope(AdminBudget),
  }),
  updateBudget: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/budgets/update',
    summary: '调整预算额度（须填原因）',
    body: UpdateBudgetBody,
    reply: Envelope(AdminBudget),
  }),
  packProducts: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/packs/products',
    summary: '卡包商品（含发卡数与未用余额）',
    body: PackProductSearchBody,
    reply: Paged(AdminPackProduct),
  }),
  createPackProduct: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/packs/products/create',
    summary: '新建卡包商品',
    body: CreatePackProductBody,
    reply: Envelope(AdminPackProduct),
  }),
  updatePackProduct: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/packs/products/update',
    summary: '修改卡包商品（须填原因）',
    body: UpdatePackProductBody,
    reply: Envelope(AdminPackProduct),
  }),
  cardBatches: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/packs/batches',
    summary: '发卡单',
    body: CardBatchSearchBody,
    reply: Paged(CardBatch),
  }),
  createCardBatch: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/packs/batches/create',
    summary: '提交发卡单（须由另一名财务人员复核，须填原因）',
    body: CreateCardBatchBody,
    reply: Envelope(CardBatch),
  }),
  approveCardBatch: endpoint({
    ...finance,
    method: 'POST',
    path: '/promotions/packs/batches/approve',
    summary: '复核发卡单并生成卡号（须为制单人以外的财务人员）',
    body: CardBatchIdBody,
    reply: Envelope(CardBatch),
  }),
  rejectCardBatch: endpoint({
    ...finance,
    method: 'POST',
    path: '/promotions/packs/batches/reject',
    summary: '驳回发卡单（须填原因）',
    body: RejectCardBatchBody,
    reply: Envelope(CardBatch),
  }),
  exportCardBatch: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/packs/batches/export',
    summary: '导出卡号与密码（仅一次，之后只显示掩码）',
    body: CardBatchIdBody,
    file: 'text/csv',
    reply: ErrorEnvelope,
  }),
  cards: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/packs/cards',
    summary: '卡查询（卡号后四位或完整卡号、会员）',
    body: CardSearchBody,
    reply: Paged(AdminCard),
  }),
  freezeCard: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/packs/cards/freeze',
    summary: '冻结或解冻卡（须填原因）',
    body: FreezeCardBody,
    reply: Envelope(AdminCard),
  }),
  vipLevels: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/vip/levels',
    summary: '会员等级',
    body: Type.Object({ siteId: Type.Optional(SiteIdIn), pageNum: Type.Optional(PageNum) }),
    reply: Paged(AdminVipLevel),
  }),
  createVipLevel: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/vip/levels/create',
    summary: '新建会员等级',
    body: CreateVipLevelBody,
    reply: Envelope(AdminVipLevel),
  }),
  updateVipLevel: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/vip/levels/update',
    summary: '修改会员等级与折扣（须填原因）',
    body: UpdateVipLevelBody,
    reply: Envelope(AdminVipLevel),
  }),
  memberVip: endpoint({
    ...view,
    method: 'GET',
    path: '/promotions/vip/member',
    summary: '会员的等级与变更记录',
    body: MemberVipBody,
    reply: Envelope(AdminMemberVip),
  }),
  setMemberVip: endpoint({
    ...manage,
    method: 'POST',
    path: '/promotions/vip/member/set',
    summary: '设置会员等级（须填原因）',
    body: SetMemberVipBody,
    reply: Envelope(AdminMemberVip),
  }),
};
