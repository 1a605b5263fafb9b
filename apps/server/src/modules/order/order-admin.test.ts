import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CACHED_FROM } from '../../lib/paging';
import { statementsOf, type TestApp, testApp } from '../../test/harness';
import { buyer } from './order.fixtures';
import { searchOrders } from './order-admin';

let t: TestApp;
let seq = 0;

/** `n` settled orders of a member, numbered apart from every other call. */
async function settledOrders(siteId: number, memberId: number, n: number) {
  seq += 1;
  await t.db.execute(sql`
    insert into mall_order (order_no, site_id, member_id, status, goods_amount, freight_amount,
      pay_amount, is_virtual, pay_way, paid_at, expire_at, created_at, updated_at)
    select 'TOTALS' || ${seq} || '-' || i, ${siteId}, ${memberId}, 24, 1000, 0, 1000, false, 'ye',
      now(), now() + interval '30 minutes', now(), now()
    from generate_series(1, ${n}) as i`);
}

describe("console orders: a big site's total", () => {
  let big: number;
  let small: number;
  beforeAll(async () => {
    t = await testApp();
    big = (await buyer(t, 1000)).id;
    small = (await buyer(t, 719)).id;
    await settledOrders(1000, big, COUNT_CACHED_FROM);
    await settledOrders(719, small, 3);
  }, 120_000);
  afterAll(() => t.close());

  it('is counted once, then kept while the operator pages through the same filter', async () => {
    const first = await searchOrders(t.db, [1000], { pageNum: 1 });
    expect(first.total).toBeGreaterThanOrEqual(COUNT_CACHED_FROM);
    await settledOrders(1000, big, 1);
    let second: Awaited<ReturnType<typeof searchOrders>> | undefined;
    const statements = await statementsOf(async () => {
      second = await searchOrders(t.db, [1000], { pageNum: 2 });
    });
    expect(statements).toHaveLength(1);
    expect(second?.total).toBe(first.total);
    expect(second?.list).toHaveLength(10);
    // Another filter is another list: counted, and the new order is in it.
    const others = await searchOrders(t.db, [1000], { status: 24, pageNum: 1 });
    expect(others.total).toBeGreaterThan(COUNT_CACHED_FROM);
    // Nor does another operator's scope see the kept number.
    expect((await searchOrders(t.db, [719], { pageNum: 1 })).total).toBeLessThan(COUNT_CACHED_FROM);
  });

  it('a small list is counted on every page, exact right after a new order', async () => {
    const before = (await searchOrders(t.db, [719], { memberIds: [small] })).total;
    expect(before).toBe(3);
    await settledOrders(719, small, 1);
    expect((await searchOrders(t.db, [719], { memberIds: [small] })).total).toBe(4);
  });
});
