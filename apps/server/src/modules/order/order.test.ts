import {
  addressApi,
  type Cart,
  cartApi,
  ORDER_MSG,
  type OrderCount,
  type OrderDetail,
  type OrderPage,
  orderApi,
  type PayOrderInfo,
  type PayResult,
  type SubmitOrderResult,
  shopUrl,
} from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { statementsOf, type TestApp, testApp } from '../../test/harness';
import { memberAddress } from '../address/address.tables';
import { cartLine } from '../cart/cart.tables';
import { siteProduct } from '../catalog/catalog.tables';
import { client } from '../identity/identity.fixtures';
import { getBalance } from '../points/points.service';
import { expireOrders, startOrderExpiry } from './expiry';
import { fareOf } from './freight';
import { shipChildOrder } from './fulfilment';
import {
  buyer,
  lineOf,
  NANJING,
  type PickedSpec,
  pickSpecs,
  setStock,
  stockOf,
  URUMQI,
} from './order.fixtures';
import { mallOrder } from './order.tables';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: { id: number; token: string };
let other: { id: number; token: string };
let goods: PickedSpec[];
let virtual: PickedSpec;

const submit = (payload: object, token = me.token, headers: Record<string, string> = {}) =>
  t.post<SubmitOrderResult>(
    shopUrl(orderApi.submitOrder),
    { siteId: 719, ...payload },
    { token, ...headers },
  );
const pay = (orderNo: string, payWay = 'ye', token = me.token, siteId = 719) =>
  api.post<PayResult>(
    orderApi.payOrder.path,
    { siteId, orderNo, payWay, orderType: 1, accVoucherIds: '' },
    token,
  );
const detail = async (orderNo: string, token = me.token) =>
  (await api.post<OrderDetail>(orderApi.orderDetail.path, { siteId: 719, orderNo }, token)).body;
const balance = (memberId = me.id) => getBalance(t, { siteId: 719, memberId });

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719, 1_000_000);
  other = await buyer(t, 719, 1_000_000);
  goods = await pickSpecs(t.db, 719, { count: 3, stock: 20 });
  virtual = (await pickSpecs(t.db, 719, { virtual: true, stock: 20 }))[0] as PickedSpec;
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, me.token);
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, other.token);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(mallOrder);
  await t.db.delete(cartLine);
  await setStock(
    t.db,
    [...goods, virtual!].map((s) => s.specificationId),
    20,
  );
});

describe('submitOrder', () => {
  it('prices on the server, takes stock, snapshots lines and address, and splits per source', async () => {
    const before = await stockOf(t.db, goods[0]!.specificationId);
    const { body } = await submit({
      productInfos: JSON.stringify([{ ...lineOf(goods[0]!, 2), price: 1, amount: 1 }, lineOf(virtual!, 1)]),
      price: 1,
      payAmount: 1,
    });
    expect(body).toMatchObject({ code: 200, success: true });
    const { orderNo, childOrderNo, payAmount } = body.data;
    expect(childOrderNo).toHaveLength(2);
    const fare = fareOf(
      { source: goods[0]!.source, sourceName: '', hasAddress: true, goodsAmount: 2 * goods[0]!.price },
      '320000',
    );
    expect(payAmount).toBe(2 * goods[0]!.price + virtual!.price + fare);
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(before - 2);
    const order = await detail(orderNo);
    expect(order.data).toMatchObject({ status: 0, statusName: '待付款', freightAmount: fare, payAmount });
    expect(order.data.address).toMatchObject({ provinceName: '江苏省', consignee: '张三' });
    expect(
      order.data.childOrders.flatMap((c) => c.lines.map((l) => [l.specificationId, l.price, l.num])),
    ).toEqual(
      expect.arrayContaining([
        [goods[0]!.specificationId, goods[0]!.price, 2],
        [virtual!.specificationId, virtual!.price, 1],
      ]),
    );
    expect(order.data.logs.map((l) => l.status)).toEqual([0]);
  });

  it('orders selected cart lines and removes them from the cart', async () => {
    await api.post(
      cartApi.submitCart.path,
      { siteId: 719, productInfo: [lineOf(goods[0]!, 1), lineOf(goods[1]!, 2)] },
      me.token,
    );
    const cart = (await api.post<{ obj: Cart }>(cartApi.getCartProduct.path, { siteId: 719 }, me.token)).body
      .data.obj;
    const chosen = cart.list.find((l) => l.specificationId === goods[1]!.specificationId)!;
    const { body } = await submit({ cartIds: String(chosen.id) });
    expect(body.code).toBe(200);
    const after = (await api.post<{ obj: Cart }>(cartApi.getCartProduct.path, { siteId: 719 }, me.token)).body
      .data.obj;
    expect(after.list.map((l) => l.specificationId)).toEqual([goods[0]!.specificationId]);
    // Another member's cart line cannot be ordered.
    const theirs = await submit({ cartIds: [after.list[0]!.id] }, other.token);
    expect(theirs.body).toMatchObject({ success: false, msg: '购物车商品不存在' });
  });

  it('answers a replayed submission with the same order (requestId or Idempotency-Key)', async () => {
    const payload = { productInfos: [lineOf(goods[0]!, 1)], requestId: 'req-000000001' };
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => submit(payload)));
    expect(new Set(answers.map((a) => a.body.data.orderNo)).size).toBe(1);
    const byHeader = await Promise.all(
      [1, 2, 3].map(() =>
        submit({ productInfos: [lineOf(goods[0]!, 1)] }, me.token, { 'idempotency-key': 'hdr-000000001' }),
      ),
    );
    expect(new Set(byHeader.map((a) => a.body.data.orderNo)).size).toBe(1);
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(18);
    expect(await t.db.select().from(mallOrder)).toHaveLength(2);
    // A retry after the goods sold out still answers the order its key made, and changes nothing.
    await setStock(t.db, [goods[0]!.specificationId], 0);
    const late = await submit(payload);
    expect(late.body).toMatchObject({ code: 200, data: { orderNo: answers[0]!.body.data.orderNo } });
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(0);
    // A new key is refused as sold out.
    expect((await submit({ ...payload, requestId: 'req-000000002' })).body.msg).toMatch(/库存不足|售罄/);
    expect(await t.db.select().from(mallOrder)).toHaveLength(2);
  });

  it('refuses bad quantities, vouchers, limits, sold-out goods and a missing address, changing nothing', async () => {
    const cases: [object, string | RegExp][] = [
      [{ productInfos: [lineOf(goods[0]!, 0)] }, /./],
      [{ productInfos: [lineOf(goods[0]!, -2)] }, /./],
      [{ productInfos: JSON.stringify([{ ...lineOf(goods[0]!), num: 1.5 }]) }, /./],
      [{ productInfos: JSON.stringify([{ ...lineOf(goods[0]!), num: 1e9 }]) }, /./],
      [{}, '请选择要结算的商品'],
      [{ productInfos: [lineOf(goods[0]!, 1)], accVoucherIds: 'V123' }, '优惠券不存在或不可用'],
      [{ productInfos: [lineOf(goods[0]!, 1)], accVoucherIds: ['42'] }, '优惠券不存在或不可用'],
      [{ productInfos: [lineOf(goods[0]!, 21)] }, /库存不足/],
      [{ productInfos: [lineOf(goods[0]!, 1), lineOf(goods[1]!, 25)] }, /库存不足/],
    ];
    for (const [payload, msg] of cases) {
      const { body } = await submit(payload);
      expect(body.success, JSON.stringify(payload)).toBe(false);
      expect(body.msg).toMatch(msg);
    }
    await t.db.update(siteProduct).set({ limitNum: 2 }).where(eq(siteProduct.productId, goods[2]!.productId));
    const limited = await submit({ productInfos: [lineOf(goods[2]!, 3)] });
    expect(limited.body.msg).toMatch(/限购 2 件/);
    await t.db.update(siteProduct).set({ limitNum: 0 }).where(eq(siteProduct.productId, goods[2]!.productId));
    await setStock(t.db, [goods[1]!.specificationId], 0);
    const soldOut = await submit({ productInfos: [lineOf(goods[0]!, 1), lineOf(goods[1]!, 1)] });
    expect(soldOut.body.msg).toMatch(/售罄/);
    const homeless = await buyer(t, 719, 1000);
    const noAddress = await submit({ productInfos: [lineOf(goods[0]!, 1)] }, homeless.token);
    expect(noAddress.body.msg).toBe('请选择收货地址');
    // Virtual goods need no address.
    expect((await submit({ productInfos: [lineOf(virtual!, 1)] }, homeless.token)).body.code).toBe(200);
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(20);
    expect(await t.db.select().from(mallOrder)).toHaveLength(1);
  });

  it('adds remote-province freight', async () => {
    const remote = await api.post<{ id: number }>(addressApi.save.path, { siteId: 719, ...URUMQI }, me.token);
    const fare = await api.post<{ totalFare: number; list: { fare: number }[] }>(
      orderApi.getFare.path,
      { siteId: 719, productInfos: [lineOf(goods[0]!, 1)], addressId: remote.body.data.id },
      me.token,
    );
    const near = await api.post<{ totalFare: number }>(
      orderApi.totalFare.path,
      { siteId: 719, productInfos: [lineOf(goods[0]!, 1)], provinceCode: '320000' },
      me.token,
    );
    expect(fare.body.data.totalFare).toBeGreaterThan(near.body.data.totalFare);
    const rules = await api.post<{ list: { source: number; fee: number }[] }>(orderApi.freightList.path, {
      siteId: 719,
    });
    expect(rules.body.data.list.find((r) => r.source === 7)?.fee).toBe(0);
    await t.db.delete(memberAddress).where(eq(memberAddress.id, remote.body.data.id));
  });

  it("delivers to the address named, else the default; another member's address is not found", async () => {
    const remote = await api.post<{ id: number }>(addressApi.save.path, { siteId: 719, ...URUMQI }, me.token);
    const [others] = await t.db.select().from(memberAddress).where(eq(memberAddress.memberId, other.id));
    const line = [lineOf(goods[0]!, 1)];
    const addressOf = async (payload: object) => {
      const { body } = await submit({ productInfos: line, ...payload });
      expect(body.code).toBe(200);
      const [order] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, body.data.orderNo));
      return order!.address;
    };
    // The book's default is the first address saved (Nanjing); the order keeps a snapshot.
    expect(await addressOf({})).toMatchObject({ provinceCode: NANJING.provinceCode, detail: NANJING.detail });
    const named = await addressOf({ addressId: remote.body.data.id });
    expect(named).toMatchObject({ provinceCode: URUMQI.provinceCode, consignee: URUMQI.consignee });
    expect(named).not.toHaveProperty('id');
    expect(named).not.toHaveProperty('isDefault');
    const before = await t.db.select().from(mallOrder);
    const foreign = await submit({ productInfos: line, addressId: others!.id });
    expect(foreign.body).toMatchObject({ code: 500, msg: '收货地址不存在' });
    const fare = await api.post(
      orderApi.getFare.path,
      { siteId: 719, productInfos: line, addressId: others!.id },
      me.token,
    );
    expect(fare.body).toMatchObject({ code: 500, msg: '收货地址不存在' });
    expect(await t.db.select().from(mallOrder)).toHaveLength(before.length);
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(18);
    await t.db.delete(memberAddress).where(eq(memberAddress.id, remote.body.data.id));
  });
});

describe('payOrder and my orders', () => {
  it('pays with points once: the ledger is debited, the supplier confirms, shipping awaits receipt', async () => {
    const { orderNo, payAmount } = (await submit({ productInfos: [lineOf(goods[0]!, 1)] })).body.data;
    const info = await api.post<PayOrderInfo>(orderApi.payOrderInfo.path, { siteId: 719, orderNo }, me.token);
    expect(info.body.data).toMatchObject({
      payAmount,
      payWays: [{ code: 'wx_pc' }, { code: 'ye' }, { code: 'pack' }],
    });
    const before = await balance();
    const paid = await pay(orderNo);
    expect(paid.body).toMatchObject({
      code: 200,
      data: { isPaid: true, status: 24, statusName: '确认中', balance: before - payAmount },
    });
    const again = await pay(orderNo);
    expect(again.body).toMatchObject({ msg: '订单已支付，请勿重复支付', data: { isPaid: true, status: 24 } });
    expect(await balance()).toBe(before - payAmount);
    const confirmPay = await api.post<PayResult>(
      orderApi.confirmPay.path,
      { siteId: 719, orderNo },
      me.token,
    );
    expect(confirmPay.body.data.isPaid).toBe(true);
    // A paid order cannot be cancelled; receipt can be confirmed once it has shipped, once.
    const cancel = await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo }, me.token);
    expect(cancel.body).toMatchObject({ success: false, msg: '只有待付款的订单可以取消' });
    const early = await api.post(orderApi.confirmOrder.path, { siteId: 719, orderNo }, me.token);
    expect(early.body).toMatchObject({ success: false, msg: ORDER_MSG.notConfirmable });
    const [child] = (await detail(orderNo)).data.childOrders;
    await shipChildOrder(t.db, {
      siteId: 719,
      childOrderNo: child!.childOrderNo,
      company: '顺丰速运',
      trackingNo: 'SF5550001',
    });
    expect((await detail(orderNo)).data.status).toBe(22);
    const confirmed = await api.post(orderApi.confirmOrder.path, { siteId: 719, orderNo }, me.token);
    expect(confirmed.body.data).toMatchObject({ status: 23, statusName: '已完成' });
    expect(
      (await api.post(orderApi.confirmOrder.path, { siteId: 719, orderNo }, me.token)).body.success,
    ).toBe(false);
    expect((await detail(orderNo)).data.logs.map((l) => l.status)).toEqual([0, 24, 22, 22, 23]);
    const track = await api.post<{ list: unknown[] }>(
      orderApi.trackDetail.path,
      { siteId: 719, orderNo },
      me.token,
    );
    expect(track.body.data.list).toHaveLength(1);
  });

  it('completes a virtual-only order on payment', async () => {
    // Goods completed at payment, not an e-code or ticket a provider issues after it.
    const [instant] = await pickSpecs(t.db, 719, { virtual: true, instant: true, stock: 20 });
    const { orderNo } = (await submit({ productInfos: [lineOf(instant!, 1)] })).body.data;
    expect((await pay(orderNo)).body.data).toMatchObject({ status: 23, statusName: '已完成' });
  });

  it('refuses pay ways the site lacks, a spent balance and others’ orders', async () => {
    const { orderNo } = (await submit({ productInfos: [lineOf(goods[0]!, 1)] })).body.data;
    expect((await pay(orderNo, 'alipay')).body.msg).toBe('本站未开通该支付方式');
    expect((await pay(orderNo, 'ye', other.token)).body.msg).toBe('订单不存在');
    const poor = await buyer(t, 719, 100);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, poor.token);
    const cheap = (await submit({ productInfos: [lineOf(goods[1]!, 1)] }, poor.token)).body.data;
    const spent = await pay(cheap.orderNo, 'ye', poor.token);
    expect(spent.body).toMatchObject({ success: false, msg: '积分余额不足' });
    expect(await balance(poor.id)).toBe(100);
    expect((await detail(cheap.orderNo, poor.token)).data.status).toBe(0);
    expect((await detail(orderNo, other.token)).msg).toBe('订单不存在');
    expect((await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo }, other.token)).body.msg).toBe(
      '订单不存在',
    );
    expect((await detail(orderNo)).data.status).toBe(0);
    // A member of another site cannot reach it either.
    const stranger = await buyer(t, 1000, 100_000);
    const elsewhere = await api.post(orderApi.orderDetail.path, { siteId: 1000, orderNo }, stranger.token);
    expect(elsewhere.body.msg).toBe('订单不存在');
    expect((await pay(orderNo, 'ye', stranger.token, 1000)).body.msg).toBe('订单不存在');
  });

  it('cancels a pending order, returning its stock, and lists orders by status with counts', async () => {
    const a = (await submit({ productInfos: [lineOf(goods[0]!, 3)] })).body.data;
    const b = (await submit({ productInfos: [lineOf(goods[0]!, 1)] })).body.data;
    await pay(b.orderNo);
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(16);
    const cancelled = await api.post(
      orderApi.cancelOrder.path,
      { siteId: 719, orderNo: a.orderNo, reason: '不想要了' },
      me.token,
    );
    expect(cancelled.body.data).toMatchObject({ status: 4, statusName: '订单已撤回' });
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(19);
    expect(
      (await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo: a.orderNo }, me.token)).body.success,
    ).toBe(false);
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(19);
    const all = await api.post<OrderPage>(orderApi.myOrderList.path, { siteId: 719 }, me.token);
    expect(all.body.data.list.map((o) => o.orderNo)).toEqual([b.orderNo, a.orderNo]);
    // The list says whether an order was ever paid: a cancelled unpaid order shows 应付, not 实付款.
    expect(all.body.data.list.map((o) => o.payTime === null)).toEqual([false, true]);
    const receiving = await api.post<OrderPage>(
      orderApi.myOrderList.path,
      { siteId: 719, status: 24 },
      me.token,
    );
    expect(receiving.body.data.list.map((o) => o.orderNo)).toEqual([b.orderNo]);
    const tab = await api.post<OrderPage>(
      orderApi.myOrderList.path,
      { siteId: 719, tab: 'cancelled' },
      me.token,
    );
    expect(tab.body.data.total).toBe(1);
    const counts = await api.post<OrderCount>(orderApi.orderCount.path, { siteId: 719 }, me.token);
    expect(counts.body.data.total).toBe(2);
    expect(counts.body.data.byStatus).toEqual([
      { status: 4, statusName: '订单已撤回', count: 1 },
      { status: 24, statusName: '确认中', count: 1 },
    ]);
    expect(
      (await api.post<OrderPage>(orderApi.myOrderList.path, { siteId: 719 }, other.token)).body.data.total,
    ).toBe(0);
  });

  it('pages my orders ten at a time', async () => {
    for (let i = 0; i < 12; i += 1) await submit({ productInfos: [lineOf(virtual!, 1)] });
    const page2 = await api.post<OrderPage>(orderApi.myOrderList.path, { siteId: 719, pageNum: 2 }, me.token);
    expect(page2.body.data).toMatchObject({ total: 12, pageSize: 10, pageNum: 2 });
    expect(page2.body.data.list).toHaveLength(2);
  });

  it('expires unpaid orders after their time, returning stock, and then refuses payment', async () => {
    const { orderNo } = (await submit({ productInfos: [lineOf(goods[0]!, 4)] })).body.data;
    expect(await expireOrders(t.db)).toBe(0);
    expect(await expireOrders(t.db, new Date(Date.now() + 31 * 60_000))).toBe(1);
    expect((await detail(orderNo)).data).toMatchObject({ status: 41, statusName: '已过期取消' });
    expect(await stockOf(t.db, goods[0]!.specificationId)).toBe(20);
    expect((await pay(orderNo)).body).toMatchObject({ success: false, msg: '订单当前状态不可支付' });
  });

  it('runs expiry on an interval until stopped', async () => {
    const { orderNo } = (await submit({ productInfos: [lineOf(goods[1]!, 2)] })).body.data;
    await t.db
      .update(mallOrder)
      .set({ expireAt: new Date(Date.now() - 1000) })
      .where(eq(mallOrder.orderNo, orderNo));
    // Only the job's interval is faked: the database's own timers stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const job = startOrderExpiry(t.db, { intervalMs: 30_000 });
      vi.advanceTimersByTime(29_999);
      expect((await detail(orderNo)).data.status).toBe(0);
      vi.advanceTimersByTime(1);
      await job.stop(); // waits for the run the interval started
    } finally {
      vi.useRealTimers();
    }
    expect((await detail(orderNo)).data.status).toBe(41);
    expect(await stockOf(t.db, goods[1]!.specificationId)).toBe(20);
  });
});

describe('round trips of a paid order', () => {
  it('writes an order of more lines than the prepared shapes in one statement sent unnamed', async () => {
    // Eight specifications: above PREPARED_ORDER_LINES (6), built for this order alone.
    const many = await pickSpecs(t.db, 719, { count: 8, stock: 20 });
    expect(many).toHaveLength(8);
    const lines = many.map((g, i) => lineOf(g, (i % 3) + 1));
    let submitted: Awaited<ReturnType<typeof submit>> | undefined;
    const statements = await statementsOf(async () => {
      submitted = await submit({ productInfos: lines });
    });
    const body = submitted!.body;
    expect(body.code).toBe(200);
    const written = statements.filter((s) => /^with "stock_0"/.test(s.trimStart()));
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('"stock_7"');
    const order = (await detail(body.data.orderNo)).data;
    expect(
      order.childOrders
        .flatMap((c) => c.lines.map((l) => [l.specificationId, l.num]))
        .sort(([a], [b]) => Number(a) - Number(b)),
    ).toEqual(lines.map((l) => [l.specificationId, l.num]).sort(([a], [b]) => Number(a) - Number(b)));
    for (const [i, g] of many.entries())
      expect(await stockOf(t.db, g.specificationId)).toBe(20 - ((i % 3) + 1));
  });

  it('submits in one statement per step and pays with points without re-reading what it wrote', async () => {
    // Once first: the site's and the catalogue's caches, and the prepared statements, warm up.
    const warm = (await submit({ productInfos: [lineOf(goods[0]!, 1)] })).body.data;
    await pay(warm.orderNo);
    let orderNo = '';
    const submitted = await statementsOf(
      async () => {
        // With a request key, as the storefront sends: a new key costs no read.
        const { body } = await submit({ productInfos: [lineOf(goods[0]!, 1)], requestId: 'trips-000001' });
        expect(body.code).toBe(200);
        orderNo = body.data.orderNo;
      },
      { transactions: true },
    );
    const paid = await statementsOf(
      async () => {
        expect((await pay(orderNo)).body.data).toMatchObject({ isPaid: true, status: 24 });
      },
      { transactions: true },
    );
    const starting = (statements: string[], re: RegExp) => statements.filter((s) => re.test(s.trimStart()));
    // Neither writes in a transaction: each is one statement alone.
    expect(starting([...submitted, ...paid], /^(begin|commit)\b/i)).toEqual([]);
    // The stock, the order, its child order, its line and its log line are one statement (CTEs).
    const [written, ...more] = starting(submitted, /^with "stock_0" as \(update product_specification/);
    expect(more).toEqual([]);
    for (const table of ['mall_order', 'child_order', 'order_line', 'order_status_log'])
      expect(written).toContain(`insert into "${table}"`);
    expect(
      starting(
        submitted,
        /^(insert into|update) "?(mall_order|child_order|order_line|order_status_log|product_specification)/,
      ),
    ).toEqual([]);
    // The pay move carries its child order, its log line, the debit and its ledger entry.
    const [move, ...moreMoves] = starting(paid, /^with "moved" as \(update "mall_order"/);
    expect(moreMoves).toEqual([]);
    expect(move).toContain('insert into points_entry');
    expect(
      starting(
        paid,
        /^(update|insert into) "?(mall_order|child_order|order_status_log|points_account|points_entry)/,
      ),
    ).toEqual([]);
    // Submit: one read of the specifications with the VIP level, address and approval rule; the
    // order with its stock. Pay: the order (with whether it has an open WeChat code, a group-buy
    // place or provider goods: it has none, so nothing more is asked of them), the move with the
    // ledger.
    const [read, ...moreReads] = starting(submitted, /^select\b/);
    expect(moreReads).toEqual([]);
    for (const table of ['product_specification', 'member_vip', 'member_address', 'approval_rule'])
      expect(read).toContain(`from "${table}"`);
    expect(submitted).toHaveLength(2);
    expect(submitted.at(-1)).toBe(written);
    expect(paid).toHaveLength(2);
  });
});
