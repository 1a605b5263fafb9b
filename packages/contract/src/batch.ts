import { type Static, Type } from '@sinclair/typebox';
import { MAX_CART_NUM } from './cart.ts';
import { endpoint } from './endpoint.ts';
import { Envelope, ErrorEnvelope } from './envelope.ts';
import { XLSX_TYPE } from './order.ts';
import { SiteId } from './site.ts';

/**
 * Batch ordering (/batchOrder, spec section 2): a sheet of lines (product, specification,
 * quantity, recipient, phone, address) becomes one order per recipient. Amounts in fen.
 */

export const BATCH_MAX_BYTES = 1024 * 1024;
export const BATCH_MAX_ROWS = 500;
/** Largest quantity one row may carry when the product has no purchase limit. */
export const BATCH_MAX_NUM = MAX_CART_NUM;

/** The sheet's columns, in template order; the header row names them. */
export const BATCH_COLUMNS = [
  { key: 'product', title: '商品ID或名称', note: '本站在售商品的ID（数字）或完整商品名称' },
  { key: 'specification', title: '规格', note: '规格ID或规格值；商品只有一个规格时可不填' },
  { key: 'num', title: '数量', note: `1-${MAX_CART_NUM} 的整数，不超过库存和每单限购` },
  { key: 'consignee', title: '收货人', note: '收货人姓名，1-20 个字' },
  { key: 'phone', title: '手机号', note: '11 位手机号，以 1 开头' },
  { key: 'province', title: '省', note: '省份名称，如 江苏省 或 江苏' },
  { key: 'city', title: '市', note: '城市名称，如 南京市；直辖市填写直辖市名称' },
  { key: 'district', title: '区/县', note: '区县名称，如 玄武区；无区县的城市可不填' },
  { key: 'detail', title: '详细地址', note: '街道、门牌号，1-120 个字' },
] as const;
export type BatchColumnKey = (typeof BATCH_COLUMNS)[number]['key'];

export const BATCH_MSG = {
  noFile: '请上传填写好的批量下单文件',
  tooLarge: '文件不能超过 1 MB',
  badType: '文件格式不支持，请上传 xlsx 或 UTF-8 编码的 csv 文件',
  badXlsx: '无法读取 xlsx 文件，请使用下载的模板填写',
  noHeader: '未找到表头，请使用下载的模板填写',
  noRows: '文件中没有需要下单的行',
  tooManyRows: '一次最多 500 行，请分批上传',
  hasErrors: '文件中有填写错误的行，请修改后重新上传',
  submitted: '批量下单已提交',
} as const;

// ---- preview -----------------------------------------------------------------------------

/** Multipart form data: the sheet under `file` (xlsx or csv). */
export const BatchFileBody = Type.Object({
  siteId: SiteId,
  file: Type.Optional(Type.Unknown({ description: 'the sheet, xlsx or csv (UTF-8), at most 1 MB' })),
});
export type BatchFileBody = Static<typeof BatchFileBody>;

export const BatchRow = Type.Object({
  /** Row number in the sheet (the header is row 1). */
  rowNo: Type.Integer(),
  product: Type.String(),
  specification: Type.String(),
  num: Type.String(),
  consignee: Type.String(),
  phone: Type.String(),
  address: Type.String({ description: 'province city district detail as written' }),
  /** Resolved when the row is valid (or far enough to know). */
  productId: Type.Union([Type.Integer(), Type.Null()]),
  specificationId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String({ description: 'product name on this site, or empty' }),
  specificationValue: Type.String(),
  price: Type.Integer({ description: 'unit price, fen; 0 when unknown' }),
  amount: Type.Integer({ description: 'price × quantity, fen' }),
  /** The group (recipient) this row belongs to; null when the recipient cannot be read. */
  groupNo: Type.Union([Type.Integer(), Type.Null()]),
  errors: Type.Array(Type.String()),
});
export type BatchRow = Static<typeof BatchRow>;

export const BatchGroup = Type.Object({
  groupNo: Type.Integer(),
  consignee: Type.String(),
  phone: Type.String(),
  address: Type.String({ description: 'full address with district names' }),
  rowNos: Type.Array(Type.Integer()),
  lineCount: Type.Integer(),
  goodsAmount: Type.Integer(),
  freightAmount: Type.Integer(),
  totalAmount: Type.Integer(),
  /** False when any of its rows has an error. */
  isValid: Type.Boolean(),
});
export type BatchGroup = Static<typeof BatchGroup>;

export const BatchPreview = Type.Object({
  /** Content hash of the sheet: the batch's identity (idempotency keys derive from it). */
  batchId: Type.String(),
  rows: Type.Array(BatchRow),
  groups: Type.Array(BatchGroup),
  errorCount: Type.Integer({ description: 'rows with at least one error' }),
  goodsAmount: Type.Integer(),
  freightAmount: Type.Integer(),
  totalAmount: Type.Integer(),
  balance: Type.Integer({ description: "the member's points balance, fen" }),
  isBalanceEnough: Type.Boolean(),
});
export type BatchPreview = Static<typeof BatchPreview>;
export const BatchPreviewReply = Envelope(BatchPreview);

// ---- submit ------------------------------------------------------------------------------

export const BatchOrderResult = Type.Object({
  groupNo: Type.Integer(),
  consignee: Type.String(),
  phone: Type.String(),
  address: Type.String(),
  rowNos: Type.Array(Type.Integer()),
  isSuccess: Type.Boolean(),
  orderNo: Type.Union([Type.String(), Type.Null()]),
  payAmount: Type.Integer(),
  msg: Type.String(),
});
export type BatchOrderResult = Static<typeof BatchOrderResult>;

export const BatchSubmitResult = Type.Object({
  batchId: Type.String(),
  results: Type.Array(BatchOrderResult),
  successCount: Type.Integer(),
  failureCount: Type.Integer(),
  payAmount: Type.Integer({ description: 'sum of the orders made, fen (left pending payment)' }),
});
export type BatchSubmitResult = Static<typeof BatchSubmitResult>;
export const BatchSubmitReply = Envelope(BatchSubmitResult);

// ---- the endpoint table ------------------------------------------------------------------

const member = { site: 'required', auth: 'required', tag: 'batchOrder' } as const;

/** Batch ordering (/batchOrder): template, preview, submit and result report. */
export const batchApi = {
  /** A download link may GET it; older pages POST the form. */
  template: endpoint({
    ...member,
    method: 'GET',
    alsoMethods: ['POST'],
    path: '/api/batchOrder/template',
    summary: '下载批量下单模板（xlsx）',
    body: Type.Object({ siteId: Type.Optional(SiteId) }),
    reply: ErrorEnvelope,
    file: XLSX_TYPE,
  }),
  preview: endpoint({
    ...member,
    method: 'POST',
    path: '/api/batchOrder/preview',
    summary: '上传并校验批量下单文件（xlsx 或 csv，multipart 字段 file）',
    body: BatchFileBody,
    reply: BatchPreviewReply,
  }),
  submit: endpoint({
    ...member,
    method: 'POST',
    path: '/api/batchOrder/submit',
    summary: '提交批量订单（同一文件；每个收货人一个订单，可重复提交而不重复下单）',
    body: BatchFileBody,
    reply: BatchSubmitReply,
  }),
  report: endpoint({
    ...member,
    method: 'POST',
    path: '/api/batchOrder/report',
    summary: '下载批量下单结果（xlsx）',
    body: BatchFileBody,
    reply: ErrorEnvelope,
    file: XLSX_TYPE,
  }),
};
