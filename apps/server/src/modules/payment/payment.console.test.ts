import { type AdminTrade, adminPaymentApi as api, type PaymentReconciliation } from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaTime } from '../../lib/china-time';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, matrixMismatches } from '../admin/admin.fixtures';
import { pointsAccount } from '../points/points.tables';
import { orderToPay } from './payment.fixtures';
import { payJournal, payRefund, wechatCode } from './payment.tables';

let t: TestApp;
let sim: WechatpaySimulator;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
const today = chinaTime(new Date(), 'YYYY-MM-DD');
const tomorrow = chinaTime(new Date(Date.now() + 86_400_000), 'YYYY-MM-DD');

/** An order of the site paid by WeChat through the simulator (notify applied). */
async function paidByWechat(siteId: number) {
  const o = await orderToPay(t, siteId);
  const code = (await o.pay()).body.data.wechat;
  await sim.pay(code?.codeUrl as string);
  await sim.idle();
  const [row] = await t.db.select().from(wechatCode).where(eq(wechatCode.orderNo, o.orderNo));
  expect(row?.state).toBe('paid');
  return row as typeof wechatCode.$inferSelect;
}

const download = (query: Record<string, string>, token: string) =>
  t.app.inject({ method: 'GET', url: `/admin-api${api.exportTrades.path}`, query, headers: { token } });

let p719: typeof wechatCode.$inferSelect;
let p1000: typeof wechatCode.$inferSelect;

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
  sim = t.app.payments.simulator as WechatpaySimulator;
  p719 = await paidByWechat(719);
  p1000 = await paidByWechat(1000);
});
afterAll(() => t.close());

describe('payments in the console', () => {
  it('answers each route allowed or 403 as the permission table says', async () => {
    const mismatches = await matrixMismatches(t, tokens, [
      [api.trades, (siteId) => ({ siteId })],
      [api.exportTrades, (siteId) => ({ siteId })],
      [api.refunds, (siteId) => ({ siteId })],
      [api.reconciliation, (siteId) => ({ siteId })],
      [api.books, (siteId) => ({ siteId })],
    ]);
    expect(mismatches).toEqual([]);
  });

  it('searches trades within the site by order, trade number, state and day', async () => {
    const ids = (list: AdminTrade[]) => list.map((x) => x.outTradeNo);
    const site = await admin.call(api.trades, { siteId: 719 }, tokens.finance);
    expect(site.body.code).toBe(200);
    expect(site.body.data.list.every((x) => x.siteId === 719)).toBe(true);
    expect(ids(site.body.data.list)).toContain(p719.outTradeNo);
    expect(ids(site.body.data.list)).not.toContain(p1000.outTradeNo);

    const byOrder = await admin.call(api.trades, { orderNo: p719.orderNo }, tokens.admin);
    expect(byOrder.body.data.list).toEqual([
      expect.objectContaining({
        orderNo: p719.orderNo,
        state: 'paid',
        stateName: '已支付',
        cashAmount: p719.cashAmount,
      }),
    ]);
    const byTransaction = await admin.call(
      api.trades,
      { tradeNo: p1000.transactionId as string },
      tokens.finance,
    );
    expect(ids(byTransaction.body.data.list)).toEqual([p1000.outTradeNo]);
    const byTrade = await admin.call(
      api.trades,
      { tradeNo: p1000.outTradeNo, state: 'open' },
      tokens.finance,
    );
    expect(byTrade.body.data.total).toBe(0);
    const dayOf = await admin.call(
      api.trades,
      { orderNo: p719.orderNo, from: today, to: today },
      tokens.finance,
    );
    expect(dayOf.body.data.total).toBe(1);
    const later = await admin.call(api.trades, { orderNo: p719.orderNo, from: tomorrow }, tokens.finance);
    expect(later.body.data.total).toBe(0);

    for (const bad of [
      { from: tomorrow, to: today },
      { state: 'bogus' },
      { from: '2026-13' },
      { pageNum: 101 },
      { orderNo: 'x'.repeat(41) },
    ]) {
      const res = await admin.call(api.trades, bad, tokens.finance);
      expect(res.body.code).toBe(400);
    }
    expect((await admin.call(api.trades, {}, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(api.trades, { siteId: 10110 }, tokens.cs10110)).body.code).toBe(403);
  });

  it('exports the trades searched as xlsx, the site only', async () => {
    const res = await download({ siteId: '1000' }, tokens.finance as string);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('微信支付交易');
    const values = sheet?.getColumn(3).values.slice(2) ?? [];
    expect(values).toContain(p1000.outTradeNo);
    expect(values).not.toContain(p719.outTradeNo);
    expect(sheet?.getRow(1).getCell(2).value).toBe('订单号');
    const refused = await download({ siteId: '719' }, tokens.op719 as string);
    expect(refused.json()).toMatchObject({ code: 403 });
  });

  it('lists refunds and reconciles paid codes with the journal, naming the exceptions', async () => {
    await t.db.insert(payRefund).values({
      siteId: 719,
      codeId: p719.id,
      outRefundNo: `RF${p719.id}X`,
      amount: p719.cashAmount,
      reason: '售后退款',
      status: 'ABNORMAL',
    });
    const refunds = await admin.call(api.refunds, { siteId: 719, tradeNo: p719.outTradeNo }, tokens.finance);
    expect(refunds.body.data.list).toEqual([
      expect.objectContaining({ orderNo: p719.orderNo, status: 'ABNORMAL', statusName: '退款异常' }),
    ]);
    const none = await admin.call(api.refunds, { siteId: 1000, tradeNo: p719.outTradeNo }, tokens.finance);
    expect(none.body.data.total).toBe(0);
    expect((await admin.call(api.refunds, { status: 'LOST' }, tokens.finance)).body.code).toBe(400);

    // A code marked paid without its journal entry: the reconciliation names it.
    const o = await orderToPay(t, 1000);
    const open = (await o.pay()).body.data.wechat;
    await t.db
      .update(wechatCode)
      .set({ state: 'paid', paidAt: new Date(), transactionId: `TX-LOST-${open?.outTradeNo}` })
      .where(eq(wechatCode.outTradeNo, open?.outTradeNo as string));

    const rec = await admin.call(api.reconciliation, {}, tokens.finance);
    expect(rec.body.code).toBe(200);
    const data = rec.body.data as PaymentReconciliation;
    expect(data.to).toBe(today);
    const day719 = data.days.find((d) => d.siteId === 719 && d.day === today);
    expect(day719).toMatchObject({
      paidCount: 1,
      paidAmount: p719.cashAmount,
      journalIn: p719.cashAmount,
      difference: 0,
    });
    const day1000 = data.days.find((d) => d.siteId === 1000 && d.day === today);
    expect(day1000?.paidCount).toBe(2);
    expect(day1000?.difference).toBeGreaterThan(0);
    expect(data.exceptions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'unapplied', siteId: 1000, reference: open?.outTradeNo }),
        expect.objectContaining({ kind: 'refund', siteId: 719, reference: `RF${p719.id}X` }),
      ]),
    );
    const only719 = await admin.call(api.reconciliation, { siteId: 719 }, tokens.finance);
    expect(only719.body.data.days.every((d) => d.siteId === 719)).toBe(true);
    expect(only719.body.data.exceptions.every((e) => e.siteId === 719)).toBe(true);
    const tooLong = await admin.call(api.reconciliation, { from: '2026-01-01', to: today }, tokens.finance);
    expect(tooLong.body.code).toBe(400);
    expect((await admin.call(api.reconciliation, { siteId: 719 }, tokens.op719)).body.code).toBe(403);
  });
});

describe('账务核对 (the books)', () => {
  const books = async (siteId?: number) =>
    (await admin.call(api.books, siteId ? { siteId } : {}, tokens.finance)).body.data.checks;
  const problemsOf = async (key: string, siteId?: number) =>
    (await books(siteId)).find((c) => c.key === key)?.problems;

  it('add up after points and WeChat payments', async () => {
    const checks = await books();
    expect(checks.map((c) => [c.key, c.problems])).toEqual(checks.map((c) => [c.key, []]));
    const checked = Object.fromEntries(checks.map((c) => [c.key, c.checked]));
    expect(checked.points_balance).toBeGreaterThanOrEqual(3);
    expect(checked.order_wechat).toBeGreaterThanOrEqual(2);
  });

  it('show a balance moved without its ledger entry and a refund beyond the payment, within the scope', async () => {
    const account = and(eq(pointsAccount.siteId, 719), eq(pointsAccount.memberId, 1));
    await t.db
      .update(pointsAccount)
      .set({ balance: sql`${pointsAccount.balance} + 1` })
      .where(account);
    await t.db.insert(payJournal).values({
      siteId: 719,
      orderNo: p719.orderNo,
      codeId: p719.id,
      kind: 'wechat_refund',
      amount: -(p719.cashAmount + 1),
      entryKey: 'refund:books-test',
    });
    try {
      const [balance] = (await problemsOf('points_balance', 719)) ?? [];
      expect(balance).toMatchObject({ siteId: 719, subject: 'member 1' });
      expect((balance?.actual ?? 0) - (balance?.expected ?? 0)).toBe(1);
      expect(await problemsOf('order_wechat', 719)).toEqual([
        { siteId: 719, subject: `order ${p719.orderNo}`, expected: 0, actual: -1 },
      ]);
      // Another site's books are not this site's problem.
      expect(await problemsOf('points_balance', 1000)).toEqual([]);
      expect(await problemsOf('order_wechat', 1000)).toEqual([]);
    } finally {
      await t.db
        .update(pointsAccount)
        .set({ balance: sql`${pointsAccount.balance} - 1` })
        .where(account);
      await t.db.delete(payJournal).where(eq(payJournal.entryKey, 'refund:books-test'));
    }
    expect((await books()).flatMap((c) => c.problems)).toEqual([]);
  });
});
