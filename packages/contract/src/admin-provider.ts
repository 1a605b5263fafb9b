import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id } from './numbers.ts';
import { PageNum } from './paging.ts';
import { PROVIDER_KINDS, PROVIDER_STATUS, type ProviderStatus } from './provider.ts';

/**
 * Provider goods in the console (issue 15): provider orders by state with their issue
 * attempts, retry or refund of an issue that did not settle, the e-code stock import (CSV,
 * sealed at rest) and the daily reconciliation against the provider's statement.
 */
const { Text, SiteIdIn, Reason, Day, Paged, tagOf } = adminSchema;
const tag = tagOf('provider');

/** The console tells a paid row not sent yet from one sent without an answer. */
export const PROVIDER_CONSOLE_LABEL: Record<ProviderStatus, string> = {
  locked: '已锁座待支付',
  pending: '待支付',
  paid: '待出票',
  issuing: '出票中',
  issued: '已出票',
  failed: '出票失败（已退款）',
  expired: '已过期',
};
export const PROVIDER_KIND_LABEL = { movie: '电影票', topup: '话费直充', code: '电子码' } as const;
export const PROVIDER_NAME_LABEL: Record<string, string> = {
  cinema: '影院服务商',
  topup: '充值服务商',
  stock: '电子码库存',
};

export const PROVIDER_ADMIN_MSG = {
  notFound: '服务商订单不存在',
  notIssuing: '只有出票中的订单可以重试或退款',
  busy: '该订单正在由他人处理，请刷新后查看',
  providerDown: '服务商暂无应答，请稍后再试',
  alreadyIssued: '服务商已出票，订单已完成，不能退款',
  orderMoved: '订单状态已变化，不能退款',
  noCodes: '文件中没有电子码',
  tooManyCodes: '一次最多导入 5000 个电子码',
  codeTooLong: '电子码不能超过 128 个字符',
  allSites: '对账需要全部站点的财务权限',
  badDay: '只能对今天及以前的日期对账',
} as const;

const StatusSchema = Type.Union(Object.values(PROVIDER_STATUS).map((s) => Type.Literal(s)));
const KindSchema = Type.Union(PROVIDER_KINDS.map((k) => Type.Literal(k)));

export const AdminProviderOrder = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  orderNo: Type.String(),
  childOrderNo: Type.String(),
  kind: KindSchema,
  provider: Type.String(),
  providerReqId: Type.String(),
  providerOrderId: Type.Union([Type.String(), Type.Null()]),
  status: StatusSchema,
  statusName: Type.String(),
  title: Type.String(),
  detail: Type.String(),
  maskedCodes: Type.Array(Type.String()),
  attempts: Type.Integer(),
  lastError: Type.String(),
  /** Sent without a settling answer: an operator may retry now or refund. */
  needsAction: Type.Boolean(),
  nextRetryTime: Type.String(),
  createTime: Type.String(),
  updateTime: Type.String(),
});
export type AdminProviderOrder = Static<typeof AdminProviderOrder>;

export const ProviderAttempt = Type.Object({
  id: Type.Integer(),
  /** issue, cancel (after the retries), stock (e-codes), retry (by an operator), refund. */
  action: Type.String(),
  /** issued, failed, retried (no answer yet). */
  outcome: Type.String(),
  note: Type.String(),
  operatorName: Type.Union([Type.String(), Type.Null()]),
  time: Type.String(),
});
export type ProviderAttempt = Static<typeof ProviderAttempt>;

export const AdminProviderOrderDetail = Type.Composite([
  AdminProviderOrder,
  Type.Object({
    payAmount: Type.Integer({ description: 'fen' }),
    orderStatus: Type.Integer(),
    attemptLog: Type.Array(ProviderAttempt),
  }),
]);
export type AdminProviderOrderDetail = Static<typeof AdminProviderOrderDetail>;

export const ProviderOrdersBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  status: Type.Optional(StatusSchema),
  kind: Type.Optional(KindSchema),
  /** Only issues sent without a settling answer (retry or refund). */
  needsAction: Type.Optional(Type.Boolean()),
  orderNo: Type.Optional(Text(40)),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  pageNum: Type.Optional(PageNum),
});
export type ProviderOrdersBody = Static<typeof ProviderOrdersBody>;

export const ProviderOrderIdBody = Type.Object({ siteId: SiteIdIn, id: Id() });
export const ProviderActionBody = Type.Object({ siteId: SiteIdIn, id: Id(), reason: Reason });
export type ProviderActionBody = Static<typeof ProviderActionBody>;

export const CodeStockRow = Type.Object({
  siteId: Type.Integer(),
  specificationId: Type.Integer(),
  total: Type.Integer(),
  available: Type.Integer(),
  assigned: Type.Integer(),
  lastImportTime: Type.Union([Type.String(), Type.Null()]),
});
export type CodeStockRow = Static<typeof CodeStockRow>;

export const CodeStockBody = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  pageNum: Type.Optional(PageNum),
});

export const ImportCodesBody = Type.Object({
  siteId: SiteIdIn,
  specificationId: Id({ description: '电子码商品的规格 id' }),
  fileName: Text(120, { minLength: 1 }),
  /** The CSV's text: one code per line in the first column (a header line "code" or "电子码" is skipped). */
  text: Text(400_000, { minLength: 1 }),
  reason: Reason,
});
export type ImportCodesBody = Static<typeof ImportCodesBody>;

export const CODE_ROW_RESULT_LABEL = {
  added: '已导入',
  duplicate: '重复（库存中已有）',
  repeated: '重复（文件中已出现）',
  invalid: '无效',
} as const;
export type CodeRowResult = keyof typeof CODE_ROW_RESULT_LABEL;

export const ImportCodesResult = Type.Object({
  batch: Type.String(),
  added: Type.Integer(),
  duplicates: Type.Integer(),
  invalid: Type.Integer(),
  available: Type.Integer(),
  /** Per line of the file: the code masked, what happened to it. */
  rows: Type.Array(
    Type.Object({
      line: Type.Integer(),
      maskedCode: Type.String(),
      result: Type.Union(Object.keys(CODE_ROW_RESULT_LABEL).map((k) => Type.Literal(k))),
      msg: Type.String(),
    }),
  ),
});
export type ImportCodesResult = Static<typeof ImportCodesResult>;

export const RECON_ITEM_LABEL = {
  missingOurs: '我方缺失（服务商已出票）',
  missingTheirs: '服务商缺失（我方已出票）',
  amountDiffers: '金额不一致',
} as const;
export type ReconItemKind = keyof typeof RECON_ITEM_LABEL;

export const ReconItem = Type.Object({
  kind: Type.Union(Object.keys(RECON_ITEM_LABEL).map((k) => Type.Literal(k))),
  reqId: Type.String(),
  orderNo: Type.Union([Type.String(), Type.Null()]),
  siteId: Type.Union([Type.Integer(), Type.Null()]),
  ourAmount: Type.Union([Type.Integer(), Type.Null()]),
  theirAmount: Type.Union([Type.Integer(), Type.Null()]),
  ourStatus: Type.Union([Type.String(), Type.Null()]),
});
export type ReconItem = Static<typeof ReconItem>;

export const ProviderReconciliation = Type.Object({
  id: Type.Integer(),
  day: Type.String(),
  provider: Type.String(),
  providerName: Type.String(),
  matched: Type.Integer(),
  missingOurs: Type.Integer(),
  missingTheirs: Type.Integer(),
  amountDiffers: Type.Integer(),
  /** Fen: what the provider's statement and we count as issued that day. */
  theirTotal: Type.Integer(),
  ourTotal: Type.Integer(),
  items: Type.Array(ReconItem),
  ranBy: Type.Union([Type.String(), Type.Null()]),
  ranAt: Type.String(),
});
export type ProviderReconciliation = Static<typeof ProviderReconciliation>;

export const ReconciliationsBody = Type.Object({
  day: Type.Optional(Day),
  pageNum: Type.Optional(PageNum),
});
export const RunReconciliationBody = Type.Object({ day: Day, reason: Reason });

export const adminProviderApi = {
  orders: endpoint({
    ...tag,
    operator: 'orders:view',
    method: 'GET',
    path: '/provider/orders',
    summary: '服务商订单（按状态、类型、日期、订单号）',
    body: ProviderOrdersBody,
    reply: Paged(AdminProviderOrder),
  }),
  order: endpoint({
    ...tag,
    operator: 'orders:view',
    method: 'GET',
    path: '/provider/order',
    summary: '服务商订单详情与出票记录',
    body: ProviderOrderIdBody,
    reply: Envelope(AdminProviderOrderDetail),
  }),
  retry: endpoint({
    ...tag,
    operator: 'orders:manage',
    method: 'POST',
    path: '/provider/retry',
    summary: '立即重试出票（同一请求号；须填原因）',
    encoding: 'json',
    body: ProviderActionBody,
    reply: Envelope(AdminProviderOrderDetail),
  }),
  refund: endpoint({
    ...tag,
    operator: 'orders:manage',
    method: 'POST',
    path: '/provider/refund',
    summary: '放弃出票并退款（先向服务商撤销；须填原因）',
    encoding: 'json',
    body: ProviderActionBody,
    reply: Envelope(AdminProviderOrderDetail),
  }),
  codeStock: endpoint({
    ...tag,
    operator: 'stock:view',
    method: 'GET',
    path: '/provider/codes',
    summary: '电子码库存（按商品规格）',
    body: CodeStockBody,
    reply: Paged(CodeStockRow),
  }),
  importCodes: endpoint({
    ...tag,
    operator: 'stock:manage',
    method: 'POST',
    path: '/provider/codes/import',
    summary: '导入电子码（CSV，加密保存，重复的拒绝；须填原因）',
    encoding: 'json',
    body: ImportCodesBody,
    reply: Envelope(ImportCodesResult),
  }),
  reconciliations: endpoint({
    ...tag,
    operator: 'finance:view',
    method: 'GET',
    path: '/provider/reconciliations',
    summary: '服务商对账结果（每天每个服务商一行）',
    body: ReconciliationsBody,
    reply: Paged(ProviderReconciliation),
  }),
  reconcile: endpoint({
    ...tag,
    operator: 'finance:manage',
    method: 'POST',
    path: '/provider/reconcile',
    summary: '按日对账（拉取服务商对账单重新比对；须填原因）',
    encoding: 'json',
    body: RunReconciliationBody,
    reply: Envelope(Type.Array(ProviderReconciliation)),
  }),
};

export const MAX_IMPORT_CODES = 5000;
