import {
  addressApi,
  type OrderDetail,
  orderApi,
  type PayResult,
  type SubmitOrderResult,
  type TrackDetail,
} from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { getBalance } from '../points/points.service';
import { refundOrder, shipChildOrder } from './fulfilment';
import { buyer, lineOf, NANJING, type PickedSpec, pickSpecs, stockOf } from './order.fixtures';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: { id: number; token: string };
let goods: PickedSpec[];
let virtual: PickedSpec;

async function paidOrder(lines: ReturnType<typeof lineOf>[], isPaid = true) {
  const submitted = await api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    { siteId: 719, productInfos: lines },
    me.token,
  );
  expect(submitted.body.code).toBe(200);
  if (isPaid) {
    const paid = await api.post<PayResult>(
      orderApi.payOrder.path,
      { siteId: 719, orderNo: submitted.body.data.orderNo, payWay: 'ye' },
      me.token,
    );
    expect(paid.body.data.isPaid).toBe(true);
  }
  return submitted.body.data;
}
const detail = async (orderNo: string) =>
  (await api.post<OrderDetail>(orderApi.orderDetail.path, { siteId: 719, orderNo }, me.token)).body.data;
const balance = () => getBalance(t, { siteId: 719, memberId: me.id });
const ship = (childOrderNo: string, trackingNo = 'SF1234567890', siteId = 719) =>
  shipChildOrder(t.db, { siteId, childOrderNo, company: '顺丰速运', trackingNo });

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719, 10_000_000);
  goods = await pickSpecs(t.db, 719, { count: 3, stock: 50 });
  virtual = (await pickSpecs(t.db, 719, { virtual: true, stock: 50 }))[0] as PickedSpec;
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, me.token);
});
afterAll(() => t.close());

describe('ship', () => {
  it('records the parcel with a first event, shows it in track detail, and is idempotent', async () => {
    const order = await paidOrder([lineOf(goods[0]!)]);
    const childOrderNo = order.childOrderNo[0]!;
    const first = await ship(childOrderNo);
    expect(first).toMatchObject({ isNew: true, isOrderShipped: true, status: 22, orderNo: order.orderNo });
    const again = await ship(childOrderNo);
    expect(again).toMatchObject({ isNew: false, isOrderShipped: true });
    expect(again.shipment.id).toBe(first.shipment.id);
    const track = await api.post<TrackDetail>(
      orderApi.trackDetail.path,
      { siteId: 719, orderNo: order.orderNo },
      me.token,
    );
    expect(track.body.data.list).toHaveLength(1);
    expect(track.body.data.list[0]).toMatchObject({
      childOrderNo,
      company: '顺丰速运',
      trackingNo: 'SF1234567890',
    });
    expect(track.body.data.list[0]!.events[0]!.text).toContain('SF1234567890');
    const logs = (await detail(order.orderNo)).logs.map((l) => l.note);
    expect(logs.filter((n) => n.includes('发货'))).toHaveLength(2);
    await expect(ship(childOrderNo, 'YT99999999')).rejects.toThrow(/已发货/);
  });

  it('says the order is shipped only when every physical child order is', async () => {
    const order = await paidOrder(goods.map((g) => lineOf(g)));
    const children = order.childOrderNo;
    // Paid and not shipped: 确认中 (24); shipping moves each child, then the order, to 22.
    expect((await detail(order.orderNo)).status).toBe(24);
    for (const [i, no] of children.entries()) {
      const shipped = await ship(no, `SF10000000${i}`);
      expect(shipped.isOrderShipped).toBe(i === children.length - 1);
      expect((await detail(order.orderNo)).status).toBe(i === children.length - 1 ? 22 : 24);
    }
    expect((await detail(order.orderNo)).childOrders.every((c) => c.status === 22)).toBe(true);
  });

  it('refuses unpaid, cancelled, virtual, unknown and other sites’ child orders', async () => {
    const unpaid = await paidOrder([lineOf(goods[0]!)], false);
    await expect(ship(unpaid.childOrderNo[0]!)).rejects.toThrow('订单未支付');
    await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo: unpaid.orderNo }, me.token);
    await expect(ship(unpaid.childOrderNo[0]!)).rejects.toThrow('订单未支付');
    const card = await paidOrder([lineOf(virtual)]);
    await expect(ship(card.childOrderNo[0]!)).rejects.toThrow('虚拟商品子订单无需发货');
    await expect(ship('SO000000000000')).rejects.toThrow('没有子订单');
    const paid = await paidOrder([lineOf(goods[1]!)]);
    await expect(ship(paid.childOrderNo[0]!, 'SF1', 719)).rejects.toThrow('运单号');
    await expect(ship(paid.childOrderNo[0]!, 'SF12345678', 10110)).rejects.toThrow('没有子订单');
  });
});

describe('refund', () => {
  it('withdraws a paid, unshipped order, refunds once and returns the stock', async () => {
    const before = await balance();
    const stock = await stockOf(t.db, goods[2]!.specificationId);
    const order = await paidOrder([lineOf(goods[2]!, 2)]);
    expect(await balance()).toBe(before - order.payAmount);
    const refunded = await refundOrder(t.db, { siteId: 719, orderNo: order.orderNo, reason: '缺货' });
    expect(refunded).toEqual({ orderNo: order.orderNo, status: 4, refunded: order.payAmount, isNew: true });
    expect(await balance()).toBe(before);
    expect(await stockOf(t.db, goods[2]!.specificationId)).toBe(stock);
    const again = await refundOrder(t.db, { siteId: 719, orderNo: order.orderNo });
    expect(again.isNew).toBe(false);
    expect(await balance()).toBe(before);
    const entries = await t.db.execute(
      sql`select type, amount, request_key from points_entry where order_no = ${order.orderNo} order by id`,
    );
    expect((entries as unknown as { rows: unknown[] }).rows).toEqual([
      { type: 'pay', amount: -order.payAmount, request_key: `pay:${order.orderNo}` },
      { type: 'refund', amount: order.payAmount, request_key: `refund:${order.orderNo}` },
    ]);
    const shown = await detail(order.orderNo);
    expect(shown.status).toBe(4);
    expect(shown.logs.at(-1)).toMatchObject({
      status: 4,
      note: expect.stringContaining('运营取消订单并退款'),
    });
    expect(shown.logs.at(-1)!.note).toContain('缺货');
    await expect(ship(order.childOrderNo[0]!)).rejects.toThrow('不能发货');
  });

  it('parallel refunds of one order refund once', async () => {
    const before = await balance();
    const order = await paidOrder([lineOf(goods[0]!)]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => refundOrder(t.db, { siteId: 719, orderNo: order.orderNo })),
    );
    expect(answers.filter((a) => a.isNew)).toHaveLength(1);
    expect(await balance()).toBe(before);
  });

  it('refuses shipped, unpaid, virtual and unknown orders', async () => {
    const shipped = await paidOrder([lineOf(goods[0]!)]);
    await ship(shipped.childOrderNo[0]!, 'SF55555555');
    await expect(refundOrder(t.db, { siteId: 719, orderNo: shipped.orderNo })).rejects.toThrow(
      '请走售后流程',
    );
    const unpaid = await paidOrder([lineOf(goods[0]!)], false);
    await expect(refundOrder(t.db, { siteId: 719, orderNo: unpaid.orderNo })).rejects.toThrow('订单未支付');
    const card = await paidOrder([lineOf(virtual)]);
    await expect(refundOrder(t.db, { siteId: 719, orderNo: card.orderNo })).rejects.toThrow();
    await expect(refundOrder(t.db, { siteId: 10110, orderNo: shipped.orderNo })).rejects.toThrow('没有订单');
  });
});
