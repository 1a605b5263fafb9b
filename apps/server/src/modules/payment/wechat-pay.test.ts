import { ORDER_MSG, orderApi, type PayOrderInfo } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import { type TestApp, testApp } from '../../test/harness';
import { expireOrders } from '../order/expiry';
import { stockOf } from '../order/order.fixtures';
import { mallOrder, orderStatusLog } from '../order/order.tables';
import { getBalance } from '../points/points.service';
import { pointsEntry } from '../points/points.tables';
import { notifyFor, orderToPay, postNotify } from './payment.fixtures';
import { payJournal, payMerchant, payNotify, payRefund, wechatCode } from './payment.tables';

let t: TestApp;
let sim: WechatpaySimulator;

beforeAll(async () => {
  t = await testApp();
  sim = t.app.payments.simulator as WechatpaySimulator;
});
afterAll(() => t.close());

const orderRow = async (orderNo: string) =>
  (await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo)))[0];
const journalOf = (orderNo: string) => t.db.select().from(payJournal).where(eq(payJournal.orderNo, orderNo));
const notifiesOf = (outTradeNo: string) =>
  t.db.select().from(payNotify).where(eq(payNotify.outTradeNo, outTradeNo));
const codesOf = (orderNo: string) => t.db.select().from(wechatCode).where(eq(wechatCode.orderNo, orderNo));
const settle = async () => {
  await sim.idle();
  sim.notifyMode.hold = false;
  sim.notifyMode.duplicates = 0;
  delete sim.notifyMode.tamper;
};

describe('WeChat Native payment', () => {
  it('shows a code, and the notify after the scan pays the order once', async () => {
    const o = await orderToPay(t, 1000);
    const first = await o.pay();
    expect(first.body).toMatchObject({ success: true, msg: ORDER_MSG.scanToPay });
    const code = first.body.data.wechat;
    expect(code).toMatchObject({ state: 'open', pointsAmount: 0, cashAmount: first.body.data.payAmount });
    expect(code?.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(code?.scanUrl).toMatch(/^\/simulator\/wechatpay\/scan\?code=/);
    expect(code?.expireTime).toBe((await orderRow(o.orderNo))?.expireAt.toISOString());
    // Asking again answers the same code; the pay page sees it too.
    expect((await o.pay()).body.data.wechat?.outTradeNo).toBe(code?.outTradeNo);
    const info = await o.api.post<PayOrderInfo>(
      orderApi.payOrderInfo.path,
      { siteId: 1000, orderNo: o.orderNo },
      o.member.token,
    );
    expect(info.body.data).toMatchObject({ mixedPay: false, wechat: { outTradeNo: code?.outTradeNo } });

    await sim.pay(code?.codeUrl as string);
    await settle();
    const paid = await o.query();
    expect(paid.body.data).toMatchObject({
      isPaid: true,
      status: 24,
      payWay: 'wx_pc',
      wechat: { state: 'paid' },
    });
    expect(await journalOf(o.orderNo)).toHaveLength(1);
    expect((await notifiesOf(code?.outTradeNo as string)).map((n) => n.outcome)).toEqual(['applied']);
    expect((await o.pay()).body.msg).toBe(ORDER_MSG.alreadyPaid);
  });

  it('100 copies of one notify, half at once, pay once and journal once', async () => {
    const o = await orderToPay(t, 1000);
    const code = (await o.pay()).body.data.wechat;
    sim.notifyMode.hold = true;
    const trade = await sim.pay(code?.codeUrl as string);
    const notify = await notifyFor(t, 1000, trade);
    const parallel = await Promise.all(Array.from({ length: 50 }, () => postNotify(t, 1000, notify)));
    const sequential = [];
    for (let i = 0; i < 50; i++) sequential.push(await postNotify(t, 1000, notify));
    expect([...parallel, ...sequential].every((r) => r.statusCode === 204)).toBe(true);
    const order = await orderRow(o.orderNo);
    expect(order?.status).toBe(24);
    expect(await journalOf(o.orderNo)).toHaveLength(1);
    const moves = await t.db
      .select()
      .from(orderStatusLog)
      .where(and(eq(orderStatusLog.orderId, order?.id as number), eq(orderStatusLog.status, 24)));
    expect(moves).toHaveLength(1);
    const outcomes = (await notifiesOf(trade.out_trade_no)).map((n) => n.outcome);
    expect(outcomes).toHaveLength(100);
    expect(outcomes.filter((x) => x === 'applied')).toHaveLength(1);
    expect(outcomes.filter((x) => x === 'duplicate')).toHaveLength(99);
    // The held original arrives late: still a duplicate.
    sim.notifyMode.hold = false;
    await sim.flush();
    await settle();
    expect(await journalOf(o.orderNo)).toHaveLength(1);
  });

  it('duplicates and out-of-order notifies from the simulator change nothing more', async () => {
    const a = await orderToPay(t, 1000);
    const b = await orderToPay(t, 1000);
    const codeA = (await a.pay()).body.data.wechat;
    const codeB = (await b.pay()).body.data.wechat;
    sim.notifyMode.hold = true;
    sim.notifyMode.duplicates = 4;
    await sim.pay(codeA?.codeUrl as string);
    await sim.pay(codeB?.codeUrl as string);
    await sim.flush({ reverse: true });
    await settle();
    for (const o of [a, b]) {
      expect((await orderRow(o.orderNo))?.status).toBe(24);
      expect(await journalOf(o.orderNo)).toHaveLength(1);
    }
    expect(
      (await notifiesOf(codeA?.outTradeNo as string)).filter((n) => n.outcome === 'applied'),
    ).toHaveLength(1);
  });

  it.each([
    ['signature', 'rejected: bad-signature'],
    ['body', 'rejected: bad-signature'],
    ['stale', 'rejected: stale'],
    ['serial', 'rejected: unknown-serial'],
    ['ciphertext', 'rejected: bad-ciphertext'],
  ] as const)('refuses a notify with a tampered %s; the query then finds the real payment', async (tamper, outcome) => {
    const o = await orderToPay(t, 1000);
    const code = (await o.pay()).body.data.wechat;
    sim.notifyMode.tamper = tamper;
    await sim.pay(code?.codeUrl as string);
    await settle();
    const deliveries = sim.deliveries().filter((d) => d.status !== 204);
    expect(deliveries.at(-1)?.status).toBe(401);
    expect((await notifiesOf(code?.outTradeNo as string)).map((n) => n.outcome)).toEqual([]);
    const stored = await t.db.select().from(payNotify).where(eq(payNotify.outcome, outcome));
    expect(stored.length).toBeGreaterThan(0);
    expect((await orderRow(o.orderNo))?.status).toBe(0);
    expect(await journalOf(o.orderNo)).toHaveLength(0);
    // No valid notify came: the pay page's poll asks WeChat and applies what it says.
    expect((await o.query()).body.data).toMatchObject({ isPaid: true, status: 24 });
    expect(await journalOf(o.orderNo)).toHaveLength(1);
  });

  it("refuses a notify naming another site's order, a wrong amount, or another merchant", async () => {
    const mine = await orderToPay(t, 719, 1_000_000);
    const code = (await mine.pay()).body.data.wechat;
    sim.notifyMode.hold = true;
    const trade = await sim.pay(code?.codeUrl as string);
    // Site 1000's own merchant and keys, a transaction naming site 719's out_trade_no.
    const [other] = await t.db.select().from(payMerchant).where(eq(payMerchant.siteId, 1000));
    const asOther = { ...trade, mchid: other?.mchid as string, appid: other?.appid as string };
    const elsewhere = await postNotify(t, 1000, await notifyFor(t, 1000, asOther));
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toEqual({ code: 'FAIL', message: '订单不存在' });
    const amount = trade.amount as NonNullable<typeof trade.amount>;
    const cheap = await postNotify(
      t,
      719,
      await notifyFor(t, 719, { ...trade, amount: { ...amount, total: amount.total - 1 } }),
    );
    expect(cheap.statusCode).toBe(400);
    const foreign = await postNotify(t, 719, await notifyFor(t, 719, asOther));
    expect(foreign.statusCode).toBe(400);
    expect((await orderRow(mine.orderNo))?.status).toBe(0);
    expect(await journalOf(mine.orderNo)).toHaveLength(0);
    await sim.flush();
    await settle();
    expect((await orderRow(mine.orderNo))?.status).toBe(24);
  });

  it('refunds a payment that arrives after its order ended, once', async () => {
    const o = await orderToPay(t, 1000);
    const code = (await o.pay()).body.data.wechat;
    sim.notifyMode.hold = true;
    await sim.pay(code?.codeUrl as string);
    // WeChat could not be reached to close the code; the order expired without it.
    await t.db
      .update(wechatCode)
      .set({ state: 'closed' })
      .where(eq(wechatCode.outTradeNo, code?.outTradeNo as string));
    const order = await orderRow(o.orderNo);
    expect(await expireOrders(t.db, new Date((order?.expireAt.getTime() as number) + 1000))).toBe(1);
    sim.notifyMode.hold = false;
    await sim.flush();
    await settle(); // the refund turns SUCCESS at the simulator and its notify arrives
    const [refund] = await t.db
      .select()
      .from(payRefund)
      .where(eq(payRefund.codeId, (await codesOf(o.orderNo))[0]?.id as number));
    expect(refund).toMatchObject({ status: 'SUCCESS', amount: code?.cashAmount });
    expect((await journalOf(o.orderNo)).map((j) => j.amount).sort()).toEqual(
      [-(code?.cashAmount as number), code?.cashAmount].sort(),
    );
    expect((await codesOf(o.orderNo))[0]?.state).toBe('refunded');
    expect(sim.trade(code?.outTradeNo as string)?.trade_state).toBe('REFUND');
    expect((await orderRow(o.orderNo))?.status).toBe(41);
  });

  it('an expiring order has its WeChat order closed first, then expires with its stock back', async () => {
    const o = await orderToPay(t, 1000);
    const code = (await o.pay()).body.data.wechat;
    const order = await orderRow(o.orderNo);
    const after = new Date((order?.expireAt.getTime() as number) + 1000);
    const stock = await stockOf(t.db, o.specificationId);
    expect(await expireOrders(t.db, after)).toBe(0); // its code is still open
    await t.app.payments.wechat.reconcile(t.db, after);
    expect(sim.trade(code?.outTradeNo as string)?.trade_state).toBe('CLOSED');
    expect((await codesOf(o.orderNo))[0]?.state).toBe('closed');
    expect(await expireOrders(t.db, after)).toBe(1);
    expect(await stockOf(t.db, o.specificationId)).toBe(stock + 1);
  });

  it('reconciles a payment whose notify never came', async () => {
    const o = await orderToPay(t, 1000);
    const code = (await o.pay()).body.data.wechat;
    sim.notifyMode.hold = true;
    await sim.pay(code?.codeUrl as string);
    await t.app.payments.wechat.reconcile(t.db, new Date(Date.now() + 60_000));
    expect((await orderRow(o.orderNo))?.status).toBe(24);
    await sim.flush();
    await settle();
    expect(await journalOf(o.orderNo)).toHaveLength(1);
  });

  it('cancelling an order already paid at WeChat applies the payment instead', async () => {
    const o = await orderToPay(t, 1000);
    const code = (await o.pay()).body.data.wechat;
    sim.notifyMode.hold = true;
    await sim.pay(code?.codeUrl as string);
    const cancel = await o.api.post(
      orderApi.cancelOrder.path,
      { siteId: 1000, orderNo: o.orderNo },
      o.member.token,
    );
    expect(cancel.body.msg).toBe(ORDER_MSG.notCancellable);
    expect((await orderRow(o.orderNo))?.status).toBe(24);
    await sim.flush();
    await settle();
  });

  it('paying by points closes the open WeChat code', async () => {
    const o = await orderToPay(t, 1000, 1_000_000);
    const code = (await o.pay()).body.data.wechat;
    expect((await o.pay('ye')).body.data).toMatchObject({ isPaid: true, payWay: 'ye' });
    expect(sim.trade(code?.outTradeNo as string)?.trade_state).toBe('CLOSED');
    await expect(sim.pay(code?.codeUrl as string)).rejects.toThrow();
  });

  it('ten parallel requests for a code open one', async () => {
    const o = await orderToPay(t, 1000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => o.pay()));
    const numbers = new Set(answers.map((a) => a.body.data.wechat?.outTradeNo));
    expect(numbers.size).toBe(1);
    expect(await codesOf(o.orderNo)).toHaveLength(1);
  });
});

describe('mixed payment (points + WeChat)', () => {
  it('holds the points part, releases it when the code is replaced or fails, keeps it when paid', async () => {
    const o = await orderToPay(t, 719, 1_000_000);
    const me = { siteId: 719, memberId: o.member.id };
    const first = await o.pay('wx_pc', { pointsAmount: 500 });
    const payAmount = first.body.data.payAmount;
    expect(first.body.data.wechat).toMatchObject({ pointsAmount: 500, cashAmount: payAmount - 500 });
    expect(await getBalance(t, me)).toBe(1_000_000 - 500);

    const second = await o.pay('wx_pc', { pointsAmount: 800 });
    expect(sim.trade(first.body.data.wechat?.outTradeNo as string)?.trade_state).toBe('CLOSED');
    expect(await getBalance(t, me)).toBe(1_000_000 - 800);

    await sim.fail(second.body.data.wechat?.codeUrl as string);
    expect((await o.query()).body.data.wechat?.state).toBe('failed');
    expect(await getBalance(t, me)).toBe(1_000_000);

    const third = await o.pay('wx_pc', { pointsAmount: 300 });
    await sim.pay(third.body.data.wechat?.codeUrl as string);
    await settle();
    expect((await o.query()).body.data).toMatchObject({ isPaid: true, status: 24 });
    expect(await getBalance(t, me)).toBe(1_000_000 - 300);
    const entries = await t.db.select().from(pointsEntry).where(eq(pointsEntry.orderNo, o.orderNo));
    expect(entries.map((e) => `${e.type}:${e.amount}`).sort()).toEqual(
      ['hold:-500', 'release:500', 'hold:-800', 'release:800', 'hold:-300'].sort(),
    );
    expect(await journalOf(o.orderNo)).toEqual([expect.objectContaining({ amount: payAmount - 300 })]);
  });

  it('releases the held points when the order expires unpaid', async () => {
    const o = await orderToPay(t, 719, 1_000_000);
    const me = { siteId: 719, memberId: o.member.id };
    await o.pay('wx_pc', { pointsAmount: 100 });
    const order = await orderRow(o.orderNo);
    await t.app.payments.wechat.reconcile(t.db, new Date((order?.expireAt.getTime() as number) + 1000));
    expect(await getBalance(t, me)).toBe(1_000_000);
  });

  it('refuses mixing where the site does not allow it, a points part too large, and a short balance', async () => {
    const plain = await orderToPay(t, 1000, 1_000_000);
    expect((await plain.pay('wx_pc', { pointsAmount: 100 })).body.msg).toBe(ORDER_MSG.mixedOff);
    const o = await orderToPay(t, 719, 200);
    const payAmount = (await o.pay()).body.data.payAmount;
    expect((await o.pay('wx_pc', { pointsAmount: payAmount })).body.msg).toBe(ORDER_MSG.pointsPartInvalid);
    expect((await o.pay('wx_pc', { pointsAmount: 201 })).body.msg).toBe(ORDER_MSG.pointsShort);
    expect((await o.pay('wx_pc', { pointsAmount: -1 })).body.success).toBe(false);
    expect((await o.pay('wx_pc', { pointsAmount: 'x' })).body.success).toBe(false);
    expect(await getBalance(t, { siteId: 719, memberId: o.member.id })).toBe(200);
    expect((await codesOf(o.orderNo)).filter((c) => c.state === 'open')).toHaveLength(1);
  });
});
