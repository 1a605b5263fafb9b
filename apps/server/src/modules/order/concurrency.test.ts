import { addressApi, orderApi, type PayResult, type SubmitOrderResult } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { getBalance } from '../points/points.service';
import { expireOrders } from './expiry';
import { buyer, NANJING, type PickedSpec, pickSpecs, setStock, stockOf } from './order.fixtures';

/** Parallel requests through app.inject: stock never oversells, points never overspend. */
let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;

const submit = (token: string, num = 1) =>
  api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num }],
    },
    token,
  );
const pay = (token: string, orderNo: string) =>
  api.post<PayResult>(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'ye' }, token);

async function ledgerMatchesBalances() {
  const result = await t.db.execute(sql`
    select a.site_id, a.member_id, a.balance, coalesce(sum(e.amount), 0)::int as total
    from points_account a left join points_entry e on e.site_id = a.site_id and e.member_id = a.member_id
    group by a.site_id, a.member_id, a.balance`);
  const rows = (result as unknown as { rows: { balance: number; total: number }[] }).rows;
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(Number(r.total)).toBe(Number(r.balance));
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  spec = (await pickSpecs(t.db, 719, { stock: 5 }))[0] as PickedSpec;
});
afterAll(() => t.close());

describe('concurrency', () => {
  it('50 buyers for the last 5 units: exactly 5 orders, stock 0', async () => {
    const buyers = await Promise.all(Array.from({ length: 50 }, () => buyer(t, 719, 100_000)));
    await Promise.all(
      buyers.map((b) => api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token)),
    );
    await setStock(t.db, [spec.specificationId], 5);
    const answers = await Promise.all(buyers.map((b) => submit(b.token)));
    const won = answers.filter((a) => a.body.code === 200);
    expect(won).toHaveLength(5);
    for (const lost of answers.filter((a) => a.body.code !== 200))
      expect(lost.body.msg).toMatch(/库存不足|售罄/);
    expect(await stockOf(t.db, spec.specificationId)).toBe(0);
    // And they can all pay.
    const paid = await Promise.all(
      answers.flatMap((a, i) => (a.body.code === 200 ? [pay(buyers[i]!.token, a.body.data.orderNo)] : [])),
    );
    expect(paid.every((p) => p.body.data.isPaid)).toBe(true);
    await ledgerMatchesBalances();
  });

  it('30 buyers of two goods, the second running out: each order takes both or neither', async () => {
    // The stock of both is taken by the order's statement, the lower id first: a buyer who took
    // the first and found the second short rolls the first back with the order's transaction.
    const [first, second] = [...(await pickSpecs(t.db, 719, { count: 3, stock: 100 }))]
      .filter((s) => s.specificationId !== spec.specificationId)
      .sort((a, b) => a.specificationId - b.specificationId);
    const buyers = await Promise.all(Array.from({ length: 30 }, () => buyer(t, 719, 100_000)));
    await Promise.all(
      buyers.map((b) => api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token)),
    );
    await setStock(t.db, [first!.specificationId], 100);
    await setStock(t.db, [second!.specificationId], 4);
    const line = (s: PickedSpec) => ({ productId: s.productId, specificationId: s.specificationId, num: 1 });
    const answers = await Promise.all(
      buyers.map((b, i) =>
        api.post<SubmitOrderResult>(
          orderApi.submitOrder.path,
          // Every third buys the second alone: an order of one specification, one statement alone.
          { siteId: 719, productInfos: i % 3 === 0 ? [line(second!)] : [line(first!), line(second!)] },
          b.token,
        ),
      ),
    );
    const won = answers.filter((a) => a.body.code === 200);
    expect(won).toHaveLength(4);
    for (const lost of answers.filter((a) => a.body.code !== 200))
      expect(lost.body.msg).toMatch(/库存不足|售罄/);
    const bothWon = answers.filter((a, i) => a.body.code === 200 && i % 3 !== 0).length;
    expect(await stockOf(t.db, second!.specificationId)).toBe(0);
    expect(await stockOf(t.db, first!.specificationId)).toBe(100 - bothWon);
  });

  it('20 parallel payments of one order debit once', async () => {
    await setStock(t.db, [spec.specificationId], 100);
    const b = await buyer(t, 719, 1_000_000);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
    const { orderNo, payAmount } = (await submit(b.token)).body.data;
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(b.token, orderNo)));
    expect(answers.every((a) => a.body.data?.isPaid)).toBe(true);
    expect(await getBalance(t, { siteId: 719, memberId: b.id })).toBe(1_000_000 - payAmount);
    const entries = await t.db.execute(
      sql`select count(*)::int as n from points_entry where order_no = ${orderNo}`,
    );
    expect(Number((entries as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(1);
    await ledgerMatchesBalances();
  });

  it('20 parallel payments of different orders from one balance never overspend', async () => {
    await setStock(t.db, [spec.specificationId], 100);
    const b = await buyer(t, 719, 0);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
    const orders = [];
    for (let i = 0; i < 20; i += 1) orders.push((await submit(b.token)).body.data);
    const each = orders[0]!.payAmount;
    const { postEntry } = await import('../points/points.service');
    await postEntry(t.db, { siteId: 719, memberId: b.id, amount: each * 7 + 1, type: 'issue' });
    const answers = await Promise.all(orders.map((o) => pay(b.token, o.orderNo)));
    const paid = answers.filter((a) => a.body.code === 200);
    expect(paid).toHaveLength(7);
    for (const a of answers.filter((x) => x.body.code !== 200)) expect(a.body.msg).toBe('积分余额不足');
    expect(await getBalance(t, { siteId: 719, memberId: b.id })).toBe(1);
    await ledgerMatchesBalances();
  });

  it('expiry running twice at once cancels each order once and returns stock once', async () => {
    const later = new Date(Date.now() + 31 * 60_000);
    await expireOrders(t.db, later); // the unpaid orders of the tests above
    await setStock(t.db, [spec.specificationId], 30);
    const b = await buyer(t, 719, 0);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
    for (let i = 0; i < 10; i += 1) await submit(b.token, 2);
    expect(await stockOf(t.db, spec.specificationId)).toBe(10);
    const [first, second] = await Promise.all([expireOrders(t.db, later), expireOrders(t.db, later)]);
    expect(first + second).toBe(10);
    expect(await stockOf(t.db, spec.specificationId)).toBe(30);
    expect(await expireOrders(t.db, later)).toBe(0);
    const logs = await t.db.execute(
      sql`select count(*)::int as n from order_status_log l join mall_order o on o.id = l.order_id where l.status = 41 and o.member_id = ${b.id}`,
    );
    expect(Number((logs as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(10);
  });
});
