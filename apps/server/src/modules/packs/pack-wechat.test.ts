import { randomUUID } from 'node:crypto';
import {
  PACK_MSG,
  PACK_ORDER_STATUS,
  PACK_ORDER_TRANSITIONS,
  type PackOrder,
  type PackProduct,
  packsApi,
  type VirtualCode,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { notifyFor, postNotify } from '../payment/payment.fixtures';
import { payJournal, wechatCode } from '../payment/payment.tables';
import { getBalance } from '../points/points.service';
import { expirePackOrders, movePackOrder } from './pack-orders';
import { packCard, packOrder } from './packs.tables';

/**
 * Packs bought by WeChat (wx_pc), on the real database through the WeChat Pay simulator: the
 * order waits unpaid behind a Native code; the paid code (notify or query) pays it once and
 * issues its one card; an unpaid one closes at its expiry with its code closed first.
 */
let t: TestApp;
let sim: WechatpaySimulator;
let api: ReturnType<typeof client>;
let product: PackProduct;

const post = <T>(e: { path: string }, payload: object, token: string) =>
  api.post<T>(e.path, { siteId: 719, ...payload }, token);

/** A member of site 719 buying the 100-point pack by WeChat. */
async function wechatBuyer(points = 0) {
  const me = await buyer(t, 719, points);
  const requestId = `pack-wx-${randomUUID()}`;
  const submit = (payload: object = {}) =>
    post<PackOrder>(
      packsApi.submitAndPay,
      { packId: product.id, payWay: 'wx_pc', requestId, ...payload },
      me.token,
    );
  const first = await submit();
  const order = first.body.data;
  const query = () => post<PackOrder>(packsApi.query, { orderNo: order.orderNo }, me.token);
  const cards = () => t.db.select().from(packCard).where(eq(packCard.memberId, me.id));
  const row = async () =>
    (await t.db.select().from(packOrder).where(eq(packOrder.orderNo, order.orderNo)))[0];
  return { me, first, order, submit, query, cards, row };
}

const journalOf = (orderNo: string) => t.db.select().from(payJournal).where(eq(payJournal.orderNo, orderNo));
const codesOf = (orderNo: string) => t.db.select().from(wechatCode).where(eq(wechatCode.orderNo, orderNo));
const settle = async () => {
  await sim.idle();
  sim.notifyMode.hold = false;
  sim.notifyMode.duplicates = 0;
};

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  sim = t.app.payments.simulator as WechatpaySimulator;
  const list = await api.post<{ list: PackProduct[] }>(packsApi.list.path, { siteId: 719 });
  product = list.body.data.list.find((p) => p.faceValue === 10_000) as PackProduct;
});
afterAll(() => t.close());

describe('buying packs by WeChat', () => {
  it('answers a code to scan; the payment pays the order and issues its card once', async () => {
    const b = await wechatBuyer(5_000);
    expect(b.first.body).toMatchObject({ success: true, msg: PACK_MSG.scanToPay });
    expect(b.order).toMatchObject({ status: 'unpaid', statusName: '待支付', payWay: 'wx_pc', card: null });
    expect(b.order.payAmount).toBe(product.salePrice);
    expect(b.order.wechat).toMatchObject({ state: 'open', cashAmount: product.salePrice, pointsAmount: 0 });
    expect(b.order.wechat?.codeUrl).toMatch(/^weixin:\/\//);
    expect(b.order.expireTime).not.toBeNull();
    // The same request again: the same order and the same code.
    const again = await b.submit();
    expect(again.body.data).toMatchObject({
      orderNo: b.order.orderNo,
      wechat: { outTradeNo: b.order.wechat?.outTradeNo },
    });
    expect(await t.db.select().from(packOrder).where(eq(packOrder.memberId, b.me.id))).toHaveLength(1);

    await sim.pay(b.order.wechat?.codeUrl as string);
    await settle();
    const paid = (await b.query()).body.data;
    expect(paid).toMatchObject({ status: 'paid', statusName: '已支付', wechat: { state: 'paid' } });
    expect(paid.card).toMatchObject({ status: 'bound', balance: 10_000 });
    expect(await b.cards()).toHaveLength(1);
    expect(await journalOf(b.order.orderNo)).toHaveLength(1);
    // Points untouched; the code is readable as after a points purchase.
    expect(await getBalance(t, { siteId: 719, memberId: b.me.id })).toBe(5_000);
    const code = await post<VirtualCode>(packsApi.virtualCode, { orderNo: b.order.orderNo }, b.me.token);
    expect(code.body.data).toMatchObject({ masked: false });
    expect(code.body.data.code).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){3}$/);
    // Asking again after payment changes nothing.
    expect((await b.submit()).body.data).toMatchObject({ status: 'paid', orderNo: b.order.orderNo });
    expect(await b.cards()).toHaveLength(1);
  });

  it('parallel submits of one request make one order and one code', async () => {
    const b = await wechatBuyer();
    const answers = await Promise.all(Array.from({ length: 5 }, () => b.submit()));
    expect(new Set(answers.map((a) => a.body.data.wechat?.outTradeNo))).toEqual(
      new Set([b.order.wechat?.outTradeNo]),
    );
    expect(await t.db.select().from(packOrder).where(eq(packOrder.memberId, b.me.id))).toHaveLength(1);
    expect(await codesOf(b.order.orderNo)).toHaveLength(1);
  });

  it('a replayed notify issues no second card', async () => {
    const b = await wechatBuyer();
    sim.notifyMode.duplicates = 4;
    const trade = await sim.pay(b.order.wechat?.codeUrl as string);
    await settle();
    expect((await b.row())?.status).toBe('paid');
    const replay = await postNotify(t, 719, await notifyFor(t, 719, trade));
    expect(replay.statusCode).toBe(204);
    expect(await b.cards()).toHaveLength(1);
    expect(await journalOf(b.order.orderNo)).toHaveLength(1);
  });

  it('parallel notifies of one payment issue one card', async () => {
    const b = await wechatBuyer();
    sim.notifyMode.hold = true;
    const trade = await sim.pay(b.order.wechat?.codeUrl as string);
    const notify = await notifyFor(t, 719, trade);
    const answers = await Promise.all(Array.from({ length: 6 }, () => postNotify(t, 719, notify)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(204));
    // And the pay page's query at the same time.
    await b.query();
    await sim.flush();
    await settle();
    expect((await b.row())?.status).toBe('paid');
    expect(await b.cards()).toHaveLength(1);
    expect(await journalOf(b.order.orderNo)).toHaveLength(1);
  });

  it('refuses a notify with another amount; a code not for the order price pays nothing and goes back', async () => {
    const b = await wechatBuyer();
    sim.notifyMode.hold = true;
    const trade = await sim.pay(b.order.wechat?.codeUrl as string);
    const amount = trade.amount as NonNullable<typeof trade.amount>;
    const cheap = await postNotify(
      t,
      719,
      await notifyFor(t, 719, { ...trade, amount: { ...amount, total: amount.total - 1 } }),
    );
    expect(cheap.statusCode).toBe(400);
    expect((await b.row())?.status).toBe('unpaid');
    expect(await b.cards()).toHaveLength(0);
    await sim.flush();
    await settle();
    expect(await b.cards()).toHaveLength(1);

    // The pack order's price is what counts: a code whose amount is not it pays nothing.
    const c = await wechatBuyer();
    await t.db
      .update(packOrder)
      .set({ payAmount: product.salePrice + 1 })
      .where(eq(packOrder.orderNo, c.order.orderNo));
    await sim.pay(c.order.wechat?.codeUrl as string);
    await settle();
    expect((await c.row())?.status).toBe('unpaid');
    expect(await c.cards()).toHaveLength(0);
    expect(['refunding', 'refunded']).toContain((await codesOf(c.order.orderNo))[0]?.state);
  });

  it('an unpaid order closes at its expiry, its WeChat code closed first', async () => {
    const b = await wechatBuyer();
    const after = new Date(((await b.row())?.expireAt?.getTime() as number) + 1000);
    await expirePackOrders(t.db, after);
    expect((await b.row())?.status).toBe('unpaid'); // its code is still open
    await t.app.payments.wechat.reconcile(t.db, after);
    expect(sim.trade(b.order.wechat?.outTradeNo as string)?.trade_state).toBe('CLOSED');
    expect((await codesOf(b.order.orderNo))[0]?.state).toBe('closed');
    expect(await expirePackOrders(t.db, after)).toBeGreaterThanOrEqual(1);
    expect((await b.query()).body.data).toMatchObject({ status: 'closed', statusName: '已关闭', card: null });
    expect(await expirePackOrders(t.db, after)).toBe(0);
    // A closed order answers no new code to the same request.
    expect((await b.submit()).body.data).toMatchObject({ status: 'closed' });
    expect(await codesOf(b.order.orderNo)).toHaveLength(1);
  });

  it('moves pack orders only as PACK_ORDER_TRANSITIONS says: a paid order neither expires nor is paid again', async () => {
    const reachable = new Set<string>();
    let frontier = PACK_ORDER_TRANSITIONS.filter((x) => x.from === null).map((x) => x.to as string);
    while (frontier.length > 0) {
      for (const st of frontier) reachable.add(st);
      frontier = PACK_ORDER_TRANSITIONS.filter(
        (x) => x.from && reachable.has(x.from) && !reachable.has(x.to),
      ).map((x) => x.to);
    }
    expect([...reachable].sort()).toEqual(Object.values(PACK_ORDER_STATUS).sort());
    const b = await wechatBuyer();
    const where = eq(packOrder.orderNo, b.order.orderNo);
    await expect(movePackOrder(t.db, { event: 'pay', to: PACK_ORDER_STATUS.closed, where })).rejects.toThrow(
      /not in PACK_ORDER_TRANSITIONS/,
    );
    expect(await movePackOrder(t.db, { event: 'pay', to: PACK_ORDER_STATUS.paid, where })).toHaveLength(1);
    expect(await movePackOrder(t.db, { event: 'pay', to: PACK_ORDER_STATUS.paid, where })).toHaveLength(0);
    expect(await movePackOrder(t.db, { event: 'expire', to: PACK_ORDER_STATUS.closed, where })).toHaveLength(
      0,
    );
    expect((await b.row())?.status).toBe('paid');
  });

  it('refuses WeChat where the site does not name it, and answers nothing for another member', async () => {
    const b = await wechatBuyer();
    const elsewhere = await buyer(t, 10110); // paywayConf: ye only
    const refused = await post<PackOrder>(
      packsApi.submitAndPay,
      { siteId: 10110, packId: product.id, payWay: 'wx_pc', requestId: `pack-wx-${randomUUID()}` },
      elsewhere.token,
    );
    expect(refused.body.msg).toBe(PACK_MSG.payWayOff);
    const other = await buyer(t, 719);
    const seen = await post<PackOrder>(packsApi.query, { orderNo: b.order.orderNo }, other.token);
    expect(seen.body.msg).toBe(PACK_MSG.orderNotFound);
    const [code] = await t.db
      .select()
      .from(wechatCode)
      .where(and(eq(wechatCode.payee, 'pack'), eq(wechatCode.orderNo, b.order.orderNo)));
    expect(code?.orderId).toBe((await b.row())?.id);
  });
});
