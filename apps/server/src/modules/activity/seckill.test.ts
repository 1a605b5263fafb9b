import {
  addressApi,
  ORDER_TYPE_SECKILL,
  orderApi,
  SECKILL_MSG,
  type SeckillAnswer,
  type SeckillProduct,
  type SubmitOrderResult,
  seckillApi,
} from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { expireOrders } from '../order/expiry';
import { refundOrder } from '../order/fulfilment';
import { buyer, NANJING, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { makeSale, quickMembers, wholeDay } from './activity.fixtures';
import { seckillPurchase, seckillSku } from './activity.tables';
import { clearSoldOut, isSoldOut, SOLD_OUT_MS } from './seckill-gate';

let t: TestApp;
let api: ReturnType<typeof client>;

const seckill = (token?: string) => api.post<SeckillAnswer>(seckillApi.seckill.path, { siteId: 719 }, token);
const activityTime = (productId: number, token?: string) =>
  api.post<SeckillProduct | null>(seckillApi.activityTime.path, { siteId: 719, productId }, token);
const buy = (token: string, spec: PickedSpec, num = 1, extra: Record<string, unknown> = {}) =>
  api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      orderType: ORDER_TYPE_SECKILL,
      productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num }],
      ...extra,
    },
    token,
  );

async function skuOf(activityId: number, specificationId: number) {
  const [row] = await t.db
    .select()
    .from(seckillSku)
    .where(and(eq(seckillSku.activityId, activityId), eq(seckillSku.specificationId, specificationId)));
  return row!;
}
async function boughtOf(activityId: number, memberId: number) {
  const [row] = await t.db
    .select({ qty: seckillPurchase.qty })
    .from(seckillPurchase)
    .where(and(eq(seckillPurchase.activityId, activityId), eq(seckillPurchase.memberId, memberId)));
  return row?.qty ?? 0;
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
});
afterAll(() => t.close());

describe('flash sale: sessions and timing', () => {
  it('lists the demo sessions of today with their products and server time', async () => {
    const before = Date.now();
    const { body } = await seckill();
    expect(body.code).toBe(200);
    const { sessions, currentTime } = body.data;
    expect(currentTime).toBeGreaterThanOrEqual(before);
    expect(sessions.map((s) => s.name)).toEqual(['早场', '午场', '晚场', '夜场']);
    // The demo sessions cover the day: exactly one is running, earlier ones ended, later ones wait.
    const statuses = sessions.map((s) => s.timing.status);
    expect(statuses.filter((s) => s === 0)).toHaveLength(1);
    expect(statuses.join(',')).toMatch(/^(1,)*0(,-1)*$/);
    const running = sessions.find((s) => s.timing.status === 0)!;
    expect(running.products.map((p) => p.totalStock)).toEqual([20, 10, 1]);
    for (const p of running.products) {
      expect(p.price).toBeLessThan(p.marketPrice);
      expect(p.timing).toMatchObject({ status: 0, currentTime });
      expect(p.bought).toBe(0);
    }
  });

  it('answers the activity of a product, or null', async () => {
    const { body: list } = await seckill();
    const product = list.data.sessions.flatMap((s) => s.products)[0]!;
    const { body } = await activityTime(product.productId);
    expect(body.data).toMatchObject({
      productId: product.productId,
      price: product.price,
      timing: { status: 0 },
    });
    const plain = (await pickSpecs(t.db, 719, { virtual: true, count: 9 }))[8];
    expect((await activityTime(plain!.productId)).body).toMatchObject({ code: 200, data: null });
  });
});

describe('flash sale: buying through the order submit', () => {
  let spec: PickedSpec;
  let activityId: number;

  beforeAll(async () => {
    [spec] = (await pickSpecs(t.db, 719, { virtual: true, stock: 1000 })) as [PickedSpec];
    ({
      activity: { id: activityId },
    } = await makeSale(t.db, { ...spec, siteId: 719, price: 1, stock: 4, memberLimit: 2, orderLimit: 1 }));
  });

  it('buys at the activity price with the shorter expiry, counts the member', async () => {
    const b = await buyer(t, 719);
    const { body } = await buy(b.token, spec);
    expect(body).toMatchObject({ code: 200, data: { payAmount: 1 } });
    const expiresIn = new Date(body.data.expireTime).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(2 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(3 * 60_000);
    expect((await skuOf(activityId, spec.specificationId)).stock).toBe(3);
    expect(await boughtOf(activityId, b.id)).toBe(1);
    const mine = (await activityTime(spec.productId, b.token)).body.data;
    expect(mine).toMatchObject({ activityId, bought: 1, stock: 3 });
  });

  it('refuses above the per-order and per-member limits, and more than one line', async () => {
    const b = await buyer(t, 719);
    expect((await buy(b.token, spec, 2)).body.msg).toBe(SECKILL_MSG.perOrder(1));
    expect((await buy(b.token, spec)).body.code).toBe(200);
    expect((await buy(b.token, spec)).body.code).toBe(200);
    expect((await buy(b.token, spec)).body.msg).toBe(SECKILL_MSG.perMember(2));
    const [other] = await pickSpecs(t.db, 719, { virtual: true, count: 2 }).then((s) => s.slice(1));
    const two = await api.post(
      orderApi.submitOrder.path,
      {
        siteId: 719,
        orderType: ORDER_TYPE_SECKILL,
        productInfos: [
          { productId: spec.productId, specificationId: spec.specificationId, num: 1 },
          { productId: other!.productId, specificationId: other!.specificationId, num: 1 },
        ],
      },
      b.token,
    );
    expect(two.body.msg).toBe(SECKILL_MSG.oneLine);
    expect((await buy((await buyer(t, 719)).token, spec)).body.code).toBe(200);
    expect((await skuOf(activityId, spec.specificationId)).stock).toBe(0);
    expect((await buy((await buyer(t, 719)).token, spec)).body.msg).toBe(SECKILL_MSG.soldOut);
    expect(await boughtOf(activityId, b.id)).toBe(2);
  });

  it('gives stock and count back once on cancel, expiry and refund', async () => {
    const b = await buyer(t, 719, 1000);
    // Every unpaid order so far expires first, so what follows counts this member's orders alone.
    await expireOrders(t.db, new Date(Date.now() + 4 * 60_000));
    const first = (await buy(b.token, spec)).body.data;
    await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo: first.orderNo }, b.token);
    await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo: first.orderNo }, b.token);
    expect((await skuOf(activityId, spec.specificationId)).stock).toBe(4);
    expect(await boughtOf(activityId, b.id)).toBe(0);

    await buy(b.token, spec);
    expect(await boughtOf(activityId, b.id)).toBe(1);
    const later = new Date(Date.now() + 4 * 60_000);
    expect(await expireOrders(t.db, later)).toBeGreaterThanOrEqual(1);
    expect(await expireOrders(t.db, later)).toBe(0);
    expect((await skuOf(activityId, spec.specificationId)).stock).toBe(4);
    expect(await boughtOf(activityId, b.id)).toBe(0);

    const paid = (await buy(b.token, spec)).body.data;
    const pay = await api.post(
      orderApi.payOrder.path,
      { siteId: 719, orderNo: paid.orderNo, payWay: 'ye' },
      b.token,
    );
    expect(pay.body.code).toBe(200);
    // Virtual goods complete at payment: a refund is refused and the sale keeps the piece.
    await expect(refundOrder(t.db, { siteId: 719, orderNo: paid.orderNo })).rejects.toThrow();
    expect((await skuOf(activityId, spec.specificationId)).stock).toBe(3);
  });

  it('a refund of a paid flash-sale order gives stock and count back once', async () => {
    const [physical] = (await pickSpecs(t.db, 719, { stock: 100 })) as [PickedSpec];
    const { activity } = await makeSale(t.db, { ...physical, siteId: 719, price: 100, stock: 5 });
    const b = await buyer(t, 719, 100_000);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
    const { orderNo } = (await buy(b.token, physical, 1, { activityId: activity.id })).body.data;
    await api.post(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'ye' }, b.token);
    expect((await skuOf(activity.id, physical.specificationId)).stock).toBe(4);
    await refundOrder(t.db, { siteId: 719, orderNo });
    await refundOrder(t.db, { siteId: 719, orderNo });
    expect((await skuOf(activity.id, physical.specificationId)).stock).toBe(5);
    expect(await boughtOf(activity.id, b.id)).toBe(0);
  });

  it('refuses before the start and after the end, with the timing', async () => {
    const [, , early] = (await pickSpecs(t.db, 719, { virtual: true, count: 3 })) as PickedSpec[];
    const day = wholeDay();
    const startAt = new Date(Date.now() + 1000);
    await makeSale(t.db, { ...early!, siteId: 719, price: 1, stock: 5, startAt, endAt: day.end });
    const b = await buyer(t, 719);
    const before = await buy(b.token, early!);
    expect(before.body).toMatchObject({
      code: 500,
      msg: SECKILL_MSG.notStarted,
      data: { timing: { status: -1, startTimeStamp: startAt.getTime() } },
    });
    const [, , , late] = (await pickSpecs(t.db, 719, { virtual: true, count: 4 })) as PickedSpec[];
    await makeSale(t.db, {
      ...late!,
      siteId: 719,
      price: 1,
      stock: 5,
      startAt: day.start,
      endAt: new Date(),
    });
    const after = await buy(b.token, late!);
    expect(after.body).toMatchObject({ code: 500, msg: SECKILL_MSG.ended, data: { timing: { status: 1 } } });
    expect((await buy(b.token, { ...late!, specificationId: early!.specificationId })).body.code).not.toBe(
      200,
    );
  });
});

describe('flash sale: the rush', () => {
  it('500 parallel requests of 100 members for 20 units, limit 1: 20 orders, nobody above the limit', async () => {
    const [, , , , , spec] = (await pickSpecs(t.db, 719, {
      virtual: true,
      count: 6,
      stock: 1000,
    })) as PickedSpec[];
    const { activity } = await makeSale(t.db, { ...spec!, siteId: 719, price: 1, stock: 20, memberLimit: 1 });
    const members = await quickMembers(t, 719, 100);
    const requests = members.flatMap((m) => Array.from({ length: 5 }, () => m));
    const answers = await Promise.all(
      requests.map((m) => buy(m.token, spec!, 1, { activityId: activity.id })),
    );
    const won = answers.filter((a) => a.body.code === 200);
    expect(won).toHaveLength(20);
    for (const a of answers.filter((x) => x.body.code !== 200))
      expect([SECKILL_MSG.soldOut, SECKILL_MSG.perMember(1)]).toContain(a.body.msg);
    expect((await skuOf(activity.id, spec!.specificationId)).stock).toBe(0);
    const perMember = await t.db.execute(sql`
      select o.member_id, count(*)::int as n from seckill_order o where o.activity_id = ${activity.id}
      group by o.member_id`);
    const rows = (perMember as unknown as { rows: { n: number }[] }).rows;
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => Number(r.n) === 1)).toBe(true);
    const counted = await t.db.execute(
      sql`select coalesce(sum(qty), 0)::int as n from seckill_purchase where activity_id = ${activity.id}`,
    );
    expect(Number((counted as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(20);
  }, 180_000);
});

describe('flash sale: a sale seen sold out', () => {
  let spec: PickedSpec;
  beforeAll(async () => {
    const specs = await pickSpecs(t.db, 719, { virtual: true, count: 7, stock: 1000 });
    spec = specs[6] as PickedSpec;
  });
  const restock = (activityId: number, stock: number) =>
    t.db.update(seckillSku).set({ stock }).where(eq(seckillSku.activityId, activityId));

  it('is refused without the database once read empty, and sells again at once when a cancel here gives a piece back', async () => {
    const { activity } = await makeSale(t.db, { ...spec, siteId: 719, price: 1, stock: 1, memberLimit: 1 });
    const sale = { activityId: activity.id, specificationId: spec.specificationId };
    const [first, second] = await quickMembers(t, 719, 2);
    const { orderNo } = (await buy(first!.token, spec, 1, { activityId: activity.id })).body.data;
    // The flag the last take set has passed: the next request reads the sale, finds it empty ...
    clearSoldOut(sale);
    expect((await buy(second!.token, spec, 1, { activityId: activity.id })).body.msg).toBe(
      SECKILL_MSG.soldOut,
    );
    // ... and believes it: a piece the database gets behind its back is not seen.
    expect(isSoldOut(sale)).toBe(true);
    await restock(activity.id, 1);
    expect((await buy(second!.token, spec, 1, { activityId: activity.id })).body.msg).toBe(
      SECKILL_MSG.soldOut,
    );
    await restock(activity.id, 0);
    // The buyer cancels in this process: the piece sells at once.
    await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo }, first!.token);
    expect(isSoldOut(sale)).toBe(false);
    expect((await buy(second!.token, spec, 1, { activityId: activity.id })).body.code).toBe(200);
    expect((await skuOf(activity.id, spec.specificationId)).stock).toBe(0);
  });

  it('sells a piece given back by another process once the moment the flag is believed has passed', async () => {
    const { activity } = await makeSale(t.db, { ...spec, siteId: 719, price: 1, stock: 1, memberLimit: 1 });
    const sale = { activityId: activity.id, specificationId: spec.specificationId };
    const [first, second] = await quickMembers(t, 719, 2);
    expect((await buy(first!.token, spec, 1, { activityId: activity.id })).body.code).toBe(200);
    expect(isSoldOut(sale)).toBe(true);
    // Another process cancelled an order of the sale: its stock is back, this process was not told.
    await restock(activity.id, 1);
    expect((await buy(second!.token, spec, 1, { activityId: activity.id })).body.msg).toBe(
      SECKILL_MSG.soldOut,
    );
    await new Promise((r) => setTimeout(r, SOLD_OUT_MS + 50));
    expect((await buy(second!.token, spec, 1, { activityId: activity.id })).body.code).toBe(200);
    expect((await skuOf(activity.id, spec.specificationId)).stock).toBe(0);
  });
});
