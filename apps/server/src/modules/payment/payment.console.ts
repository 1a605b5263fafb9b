import {
  type AdminRefund,
  type AdminTrade,
  adminPaymentApi as api,
  type PaymentReconciliation,
  type TradeQuery,
  WECHAT_REFUND_STATUS_LABEL,
  WECHAT_TRADE_STATE_LABEL,
  XLSX_TYPE,
} from '@sitemall/contract';
import { and, count, desc, eq, gte, inArray, like, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { chinaTime } from '../../lib/china-time';
import { ok } from '../../lib/envelope';
import { badRequest } from '../../lib/errors';
import { emptyPage, listPage } from '../../lib/paging';
import { serve } from '../../lib/serve';
import { excel } from '../../lib/xlsx';
import { type OperatorCtx, operatorOf, type SiteScope, sitesToRead } from '../admin/admin.service';
import { checkBooks } from '../admin/books';
import { dayEnd, dayStart, inSites, isoOrNull, noSites } from '../admin/console-kit';
import { payJournal, payNotify, payRefund, wechatCode } from './payment.tables';

/**
 * Payments in the console, read-only under finance:view: WeChat trades and refunds of the
 * operator's sites, the trades as xlsx, and the reconciliation of paid codes against the
 * money journal. Every query is filtered by the caller's site scope.
 */

const PERMISSION = 'finance:view';
/** The most trades one export holds, newest first. */
export const TRADES_EXPORT_MAX = 5000;
const EXCEPTIONS_MAX = 100;
const RECONCILE_DEFAULT_DAYS = 7;
const RECONCILE_MAX_DAYS = 92;

const between = (column: Parameters<typeof gte>[0], from?: string, to?: string) => {
  const start = dayStart(from);
  const end = dayEnd(to);
  if (start && end && start >= end) throw badRequest('开始日期不能晚于结束日期');
  return and(start ? gte(column, start) : undefined, end ? lt(column, end) : undefined);
};

const refunded = sql<number>`coalesce((select sum(${payRefund.amount}) from ${payRefund}
  where ${payRefund.codeId} = ${wechatCode.id} and ${payRefund.status} = 'SUCCESS'), 0)::int`;

function tradeWhere(scope: SiteScope, q: Omit<TradeQuery, 'pageNum'>): SQL | undefined {
  const c = wechatCode;
  const tradeNo = q.tradeNo?.trim();
  return and(
    inSites(c.siteId, scope),
    q.orderNo?.trim() ? eq(c.orderNo, q.orderNo.trim()) : undefined,
    tradeNo ? or(eq(c.outTradeNo, tradeNo), eq(c.transactionId, tradeNo)) : undefined,
    q.state ? eq(c.state, q.state as AdminTrade['state'] as never) : undefined,
    between(c.createdAt, q.from, q.to),
  );
}

const tradeOf = (row: typeof wechatCode.$inferSelect & { refundedAmount: number }): AdminTrade => ({
  id: row.id,
  siteId: row.siteId,
  orderNo: row.orderNo,
  outTradeNo: row.outTradeNo,
  transactionId: row.transactionId,
  state: row.state,
  stateName: WECHAT_TRADE_STATE_LABEL[row.state] ?? row.state,
  cashAmount: row.cashAmount,
  pointsAmount: row.pointsAmount,
  refundedAmount: row.refundedAmount,
  createdAt: row.createdAt.toISOString(),
  paidAt: isoOrNull(row.paidAt),
});

async function selectTrades(ctx: OperatorCtx, where: SQL | undefined, limit: number, offset: number) {
  const rows = await ctx.db
    .select({ code: wechatCode, refundedAmount: refunded })
    .from(wechatCode)
    .where(where)
    .orderBy(desc(wechatCode.id))
    .limit(limit)
    .offset(offset);
  return rows.map(({ code, refundedAmount }) => tradeOf({ ...code, refundedAmount }));
}

async function findTrades(ctx: OperatorCtx, q: TradeQuery) {
  const pageNum = q.pageNum ?? 1;
  const scope = sitesToRead(ctx, PERMISSION, q.siteId);
  if (noSites(scope)) return emptyPage<AdminTrade>(pageNum);
  const where = tradeWhere(scope, q);
  return listPage({
    pageNum,
    rows: (limit, offset) => selectTrades(ctx, where, limit, offset),
    total: ctx.db.select({ n: count() }).from(wechatCode).where(where),
  });
}

async function exportTrades(ctx: OperatorCtx, q: Omit<TradeQuery, 'pageNum'>): Promise<Buffer> {
  const scope = sitesToRead(ctx, PERMISSION, q.siteId);
  const trades = noSites(scope) ? [] : await selectTrades(ctx, tradeWhere(scope, q), TRADES_EXPORT_MAX, 0);
  const workbook = new (await excel()).Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet('微信支付交易');
  sheet.columns = [
    { header: '站点', key: 'siteId', width: 8 },
    { header: '订单号', key: 'orderNo', width: 24 },
    { header: '商户订单号', key: 'outTradeNo', width: 30 },
    { header: '微信支付单号', key: 'transactionId', width: 32 },
    { header: '状态', key: 'stateName', width: 10 },
    { header: '微信支付金额（元）', key: 'cash', width: 16, style: { numFmt: '0.00' } },
    { header: '积分抵扣（元）', key: 'points', width: 14, style: { numFmt: '0.00' } },
    { header: '已退款（元）', key: 'refunded', width: 14, style: { numFmt: '0.00' } },
    { header: '创建时间', key: 'createdAt', width: 20 },
    { header: '支付时间', key: 'paidAt', width: 20 },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const at = (iso: string | null) => (iso ? chinaTime(new Date(iso), 'YYYY-MM-DD HH:mm:ss') : '');
  for (const t of trades)
    sheet.addRow({
      ...t,
      transactionId: t.transactionId ?? '',
      cash: t.cashAmount / 100,
      points: t.pointsAmount / 100,
      refunded: t.refundedAmount / 100,
      createdAt: at(t.createdAt),
      paidAt: at(t.paidAt),
    });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function findRefunds(
  ctx: OperatorCtx,
  q: {
    siteId?: number;
    orderNo?: string;
    tradeNo?: string;
    status?: string;
    from?: string;
    to?: string;
    pageNum?: number;
  },
) {
  const pageNum = q.pageNum ?? 1;
  const scope = sitesToRead(ctx, PERMISSION, q.siteId);
  if (noSites(scope)) return emptyPage<AdminRefund>(pageNum);
  const r = payRefund;
  const tradeNo = q.tradeNo?.trim();
  const where = and(
    inSites(r.siteId, scope),
    q.orderNo?.trim() ? eq(wechatCode.orderNo, q.orderNo.trim()) : undefined,
    tradeNo
      ? or(eq(r.outRefundNo, tradeNo), eq(r.refundId, tradeNo), eq(wechatCode.outTradeNo, tradeNo))
      : undefined,
    q.status ? eq(r.status, q.status) : undefined,
    between(r.createdAt, q.from, q.to),
  );
  const joined = () => ctx.db.select().from(r).innerJoin(wechatCode, eq(wechatCode.id, r.codeId));
  return listPage({
    pageNum,
    rows: joined().where(where).orderBy(desc(r.id)),
    total: ctx.db
      .select({ n: count() })
      .from(r)
      .innerJoin(wechatCode, eq(wechatCode.id, r.codeId))
      .where(where),
    present: (rows) =>
      rows.map(
        ({ pay_refund: refund, wechat_code: code }): AdminRefund => ({
          id: refund.id,
          siteId: refund.siteId,
          orderNo: code.orderNo,
          outTradeNo: code.outTradeNo,
          outRefundNo: refund.outRefundNo,
          refundId: refund.refundId,
          amount: refund.amount,
          reason: refund.reason,
          status: refund.status,
          statusName: WECHAT_REFUND_STATUS_LABEL[refund.status] ?? refund.status,
          createdAt: refund.createdAt.toISOString(),
          updatedAt: refund.updatedAt.toISOString(),
        }),
      ),
  });
}

const chinaDayOf = (column: unknown) =>
  sql<string>`to_char(${column} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;

async function reconciliation(
  ctx: OperatorCtx,
  q: { siteId?: number; from?: string; to?: string },
): Promise<PaymentReconciliation> {
  const today = chinaTime(new Date(), 'YYYY-MM-DD');
  const to = q.to ?? today;
  const from =
    q.from ??
    chinaTime(new Date(dayStart(to)!.getTime() - (RECONCILE_DEFAULT_DAYS - 1) * 86_400_000), 'YYYY-MM-DD');
  const start = dayStart(from)!;
  const end = dayEnd(to)!;
  if (start >= end) throw badRequest('开始日期不能晚于结束日期');
  if (end.getTime() - start.getTime() > RECONCILE_MAX_DAYS * 86_400_000)
    throw badRequest(`对账日期范围最多 ${RECONCILE_MAX_DAYS} 天`);
  const scope = sitesToRead(ctx, PERMISSION, q.siteId);
  if (noSites(scope)) return { from, to, days: [], exceptions: [] };
  const c = wechatCode;
  const j = payJournal;
  const paidDay = chinaDayOf(c.paidAt);
  const journalDay = chinaDayOf(j.createdAt);
  const [paid, journal, unapplied, refunds, notifies] = await Promise.all([
    ctx.db
      .select({
        day: paidDay,
        siteId: c.siteId,
        n: sql<number>`count(*)::int`,
        amount: sql<number>`sum(${c.cashAmount})::int`,
      })
      .from(c)
      .where(and(inSites(c.siteId, scope), gte(c.paidAt, start), lt(c.paidAt, end)))
      .groupBy(paidDay, c.siteId),
    ctx.db
      .select({
        day: journalDay,
        siteId: j.siteId,
        in: sql<number>`coalesce(sum(${j.amount}) filter (where ${j.amount} > 0), 0)::int`,
        out: sql<number>`coalesce(-sum(${j.amount}) filter (where ${j.amount} < 0), 0)::int`,
      })
      .from(j)
      .where(and(inSites(j.siteId, scope), gte(j.createdAt, start), lt(j.createdAt, end)))
      .groupBy(journalDay, j.siteId),
    // A code WeChat paid whose payment the journal does not hold (or holds at another amount).
    ctx.db
      .select({
        code: c,
        applied: sql<number | null>`(select sum(${j.amount}) from ${j}
          where ${j.codeId} = ${c.id} and ${j.kind} = 'wechat_pay')::int`,
      })
      .from(c)
      .where(
        and(
          inSites(c.siteId, scope),
          gte(c.paidAt, start),
          lt(c.paidAt, end),
          sql`coalesce((select sum(${j.amount}) from ${j} where ${j.codeId} = ${c.id} and ${j.kind} = 'wechat_pay'), 0) <> ${c.cashAmount}`,
        ),
      )
      .orderBy(desc(c.id))
      .limit(EXCEPTIONS_MAX),
    ctx.db
      .select({ refund: payRefund, orderNo: c.orderNo })
      .from(payRefund)
      .innerJoin(c, eq(c.id, payRefund.codeId))
      .where(
        and(
          inSites(payRefund.siteId, scope),
          inArray(payRefund.status, ['CLOSED', 'ABNORMAL']),
          gte(payRefund.updatedAt, start),
          lt(payRefund.updatedAt, end),
        ),
      )
      .orderBy(desc(payRefund.id))
      .limit(EXCEPTIONS_MAX),
    ctx.db
      .select()
      .from(payNotify)
      .where(
        and(
          inSites(payNotify.siteId, scope),
          like(payNotify.outcome, 'rejected%'),
          gte(payNotify.receivedAt, start),
          lt(payNotify.receivedAt, end),
        ),
      )
      .orderBy(desc(payNotify.id))
      .limit(EXCEPTIONS_MAX),
  ]);
  const days = new Map<string, PaymentReconciliation['days'][number]>();
  const dayOf = (day: string, siteId: number) => {
    const key = `${day}/${siteId}`;
    let row = days.get(key);
    if (!row) {
      row = { day, siteId, paidCount: 0, paidAmount: 0, journalIn: 0, journalOut: 0, difference: 0 };
      days.set(key, row);
    }
    return row;
  };
  for (const p of paid) Object.assign(dayOf(p.day, p.siteId), { paidCount: p.n, paidAmount: p.amount });
  for (const x of journal) Object.assign(dayOf(x.day, x.siteId), { journalIn: x.in, journalOut: x.out });
  for (const row of days.values()) row.difference = row.paidAmount - row.journalIn;
  return {
    from,
    to,
    days: [...days.values()].sort((a, b) => b.day.localeCompare(a.day) || a.siteId - b.siteId),
    exceptions: [
      ...unapplied.map(({ code, applied }) => ({
        kind: 'unapplied' as const,
        siteId: code.siteId,
        reference: code.outTradeNo,
        orderNo: code.orderNo,
        detail: `微信已支付 ${code.cashAmount} 分，资金流水入账 ${applied ?? 0} 分`,
        at: (code.paidAt ?? code.createdAt).toISOString(),
      })),
      ...refunds.map(({ refund, orderNo }) => ({
        kind: 'refund' as const,
        siteId: refund.siteId,
        reference: refund.outRefundNo,
        orderNo,
        detail: `${WECHAT_REFUND_STATUS_LABEL[refund.status] ?? refund.status}：${refund.amount} 分`,
        at: refund.updatedAt.toISOString(),
      })),
      ...notifies.map((n) => ({
        kind: 'notify' as const,
        siteId: n.siteId,
        reference: String(n.id),
        orderNo: '',
        detail: `支付通知被拒（${n.kind}）：${n.outcome}`,
        at: n.receivedAt.toISOString(),
      })),
    ],
  };
}

export const paymentConsole: FastifyPluginAsync = async (app) => {
  serve(app, api.trades, async (req) => ok(await findTrades(operatorOf(req), req.query)));
  serve(app, api.exportTrades, async (req, reply) => {
    const file = await exportTrades(operatorOf(req), req.query);
    const day = chinaTime(new Date(), 'YYYYMMDD');
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="wechat-trades-${day}.xlsx"`)
      .send(file);
  });
  serve(app, api.refunds, async (req) => ok(await findRefunds(operatorOf(req), req.query)));
  serve(app, api.reconciliation, async (req) => ok(await reconciliation(operatorOf(req), req.query)));
  serve(app, api.books, async (req) => {
    const ctx = operatorOf(req);
    return ok(await checkBooks(ctx, sitesToRead(ctx, PERMISSION, req.query.siteId)));
  });
};
