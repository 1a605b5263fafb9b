import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope, ErrorEnvelope } from './envelope.ts';
import { XLSX_TYPE } from './order.ts';
import { PageNum } from './paging.ts';

/**
 * Payments in the console (issue 12, item 5), read-only: the WeChat Pay trades (one per code,
 * one out_trade_no) and refunds of the operator's sites, an xlsx export of the trades, and the
 * reconciliation: per China day what WeChat codes were paid against what the money journal
 * applied, and the exceptions (a paid code without its journal entry, a refund closed or
 * abnormal, a notify refused). Permission: `finance:view` (money data, as the finance
 * reviewer audits it; the order page already shows an order's own payments under orders:view).
 */
const { Text, SiteIdIn, Day, Paged, tagOf } = adminSchema;
const tag = tagOf('payments');
const view = { ...tag, operator: 'finance:view', method: 'GET' } as const;

export const WECHAT_TRADE_STATE_LABEL: Record<string, string> = {
  open: '待支付',
  paid: '已支付',
  closed: '已关闭',
  failed: '支付失败',
  refunding: '退款中',
  refunded: '已退款',
};
export const WECHAT_REFUND_STATUS_LABEL: Record<string, string> = {
  requested: '待发起',
  PROCESSING: '退款处理中',
  SUCCESS: '退款成功',
  CLOSED: '退款关闭',
  ABNORMAL: '退款异常',
};

const TradeState = Type.Union(Object.keys(WECHAT_TRADE_STATE_LABEL).map((s) => Type.Literal(s)));
const RefundStatus = Type.Union(Object.keys(WECHAT_REFUND_STATUS_LABEL).map((s) => Type.Literal(s)));

export const TradeQuery = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  orderNo: Type.Optional(Text(40)),
  /** Our out_trade_no or WeChat's transaction_id. */
  tradeNo: Type.Optional(Text(64)),
  state: Type.Optional(TradeState),
  /** Days (China time) the code was asked for, both included. */
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  pageNum: Type.Optional(PageNum),
});
export type TradeQuery = Static<typeof TradeQuery>;
export const AdminTrade = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  orderNo: Type.String(),
  outTradeNo: Type.String(),
  transactionId: Type.Union([Type.String(), Type.Null()]),
  state: Type.String(),
  stateName: Type.String(),
  cashAmount: Type.Integer({ description: 'fen paid by WeChat' }),
  pointsAmount: Type.Integer({ description: 'fen paid by points with it' }),
  refundedAmount: Type.Integer({ description: 'fen refunded successfully' }),
  createdAt: Type.String({ format: 'date-time' }),
  paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type AdminTrade = Static<typeof AdminTrade>;

export const RefundQuery = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  orderNo: Type.Optional(Text(40)),
  /** Our out_refund_no, WeChat's refund_id, or the trade's out_trade_no. */
  tradeNo: Type.Optional(Text(64)),
  status: Type.Optional(RefundStatus),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  pageNum: Type.Optional(PageNum),
});
export const AdminRefund = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  orderNo: Type.String(),
  outTradeNo: Type.String(),
  outRefundNo: Type.String(),
  refundId: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Integer({ description: 'fen' }),
  reason: Type.String(),
  status: Type.String(),
  statusName: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type AdminRefund = Static<typeof AdminRefund>;

export const ReconcileQuery = Type.Object({
  siteId: Type.Optional(SiteIdIn),
  /** Default: the last 7 days (China time), today included. */
  from: Type.Optional(Day),
  to: Type.Optional(Day),
});
export const ReconcileDay = Type.Object({
  day: Type.String(),
  siteId: Type.Integer(),
  /** Codes paid that day and their WeChat amount (fen). */
  paidCount: Type.Integer(),
  paidAmount: Type.Integer(),
  /** What the money journal applied that day: payments in, refunds out (fen, positive). */
  journalIn: Type.Integer(),
  journalOut: Type.Integer(),
  /** paidAmount − journalIn: 0 when every paid code was applied once. */
  difference: Type.Integer(),
});
export const ReconcileException = Type.Object({
  kind: Type.Union([Type.Literal('unapplied'), Type.Literal('refund'), Type.Literal('notify')]),
  siteId: Type.Integer(),
  reference: Type.String({ description: 'out_trade_no, out_refund_no or the notify id' }),
  orderNo: Type.String(),
  detail: Type.String(),
  at: Type.String({ format: 'date-time' }),
});
export const PaymentReconciliation = Type.Object({
  from: Type.String(),
  to: Type.String(),
  days: Type.Array(ReconcileDay),
  exceptions: Type.Array(ReconcileException),
});
export type PaymentReconciliation = Static<typeof PaymentReconciliation>;

/** Whether the books add up (账务核对): balances against their ledgers, refunds against payments. */
export const BooksQuery = Type.Object({ siteId: Type.Optional(SiteIdIn) });
export const BooksProblem = Type.Object({
  siteId: Type.Integer(),
  /** What does not add up: a member's account, a card, an order. */
  subject: Type.String(),
  /** What it should be (a sum of ledger entries), or the bound it must keep. */
  expected: Type.Integer(),
  actual: Type.Integer(),
});
export const BooksCheck = Type.Object({
  key: Type.String(),
  label: Type.String(),
  /** Rows looked at (accounts, cards, orders). */
  checked: Type.Integer(),
  /** The first problems found; empty when the check holds. */
  problems: Type.Array(BooksProblem),
});
export type BooksCheck = Static<typeof BooksCheck>;
export const BooksReport = Type.Object({ checkedAt: Type.String(), checks: Type.Array(BooksCheck) });
export type BooksReport = Static<typeof BooksReport>;

export const adminPaymentApi = {
  trades: endpoint({
    ...view,
    path: '/payment/trades',
    summary: '微信支付交易（按订单号、交易号、状态、日期，分页）',
    body: TradeQuery,
    reply: Paged(AdminTrade),
  }),
  exportTrades: endpoint({
    ...view,
    path: '/payment/trades/export',
    summary: '导出微信支付交易（xlsx，最多 5000 条）',
    body: Type.Omit(TradeQuery, ['pageNum']),
    reply: ErrorEnvelope,
    file: XLSX_TYPE,
  }),
  refunds: endpoint({
    ...view,
    path: '/payment/refunds',
    summary: '微信退款（按订单号、退款单号、状态、日期，分页）',
    body: RefundQuery,
    reply: Paged(AdminRefund),
  }),
  reconciliation: endpoint({
    ...view,
    path: '/payment/reconciliation',
    summary: '对账结果：每日微信已支付与资金流水，及异常（未入账、退款异常、通知被拒）',
    body: ReconcileQuery,
    reply: Envelope(PaymentReconciliation),
  }),
  books: endpoint({
    ...view,
    path: '/payment/books',
    summary: '账务核对：积分账户与卡包余额等于其流水之和，各订单退回的不超过付出的',
    body: BooksQuery,
    reply: Envelope(BooksReport),
  }),
};
