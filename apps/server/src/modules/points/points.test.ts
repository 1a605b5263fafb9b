import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { getBalance, listBills, postEntry } from './points.service';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.execute(sql`truncate points_entry, points_account`);
});

const alice = { siteId: 719, memberId: 1 };
const aliceOnOtherSite = { siteId: 10110, memberId: 1 };

/** The ledger invariant: every balance equals the sum of its entries, and none is negative. */
async function expectLedgerConsistent() {
  const result = await t.db.execute(sql`
    select a.site_id, a.member_id, a.balance, coalesce(sum(e.amount), 0)::int as total
    from points_account a left join points_entry e using (site_id, member_id)
    group by a.site_id, a.member_id, a.balance`);
  const rows = (result as unknown as { rows: { balance: number; total: number }[] }).rows;
  for (const row of rows) {
    expect(row.balance).toBe(row.total);
    expect(row.balance).toBeGreaterThanOrEqual(0);
  }
}

describe('points ledger', () => {
  it('credits and debits with the balance after each entry', async () => {
    const credit = await postEntry(t.db, { ...alice, amount: 10_000, type: 'issue', note: '年终奖励' });
    expect(credit).toMatchObject({ amount: 10_000, balanceAfter: 10_000, type: 'issue', note: '年终奖励' });
    const debit = await postEntry(t.db, { ...alice, amount: -2_550, type: 'pay', orderNo: 'SO1' });
    expect(debit).toMatchObject({ amount: -2_550, balanceAfter: 7_450, orderNo: 'SO1' });
    expect(await getBalance(t, alice)).toBe(7_450);
    await expectLedgerConsistent();
  });

  it('refuses to overspend and changes nothing', async () => {
    await postEntry(t.db, { ...alice, amount: 100, type: 'issue' });
    await expect(postEntry(t.db, { ...alice, amount: -101, type: 'pay' })).rejects.toThrow('积分余额不足');
    await expect(postEntry(t.db, { ...aliceOnOtherSite, amount: -1, type: 'pay' })).rejects.toThrow(
      '积分余额不足',
    );
    expect(await getBalance(t, alice)).toBe(100);
    expect((await listBills(t, { ...alice, pageNum: 1 })).total).toBe(1);
  });

  it('refuses a zero, fractional or unsafe amount', async () => {
    for (const amount of [0, 1.5, Number.MAX_SAFE_INTEGER + 2, Number.NaN]) {
      await expect(postEntry(t.db, { ...alice, amount, type: 'issue' })).rejects.toThrow('积分数额不正确');
    }
  });

  it('keeps the same member number on two sites as two balances', async () => {
    await postEntry(t.db, { ...alice, amount: 500, type: 'issue' });
    await postEntry(t.db, { ...aliceOnOtherSite, amount: 70, type: 'issue' });
    expect(await getBalance(t, alice)).toBe(500);
    expect(await getBalance(t, aliceOnOtherSite)).toBe(70);
    expect((await listBills(t, { ...aliceOnOtherSite, pageNum: 1 })).list.map((e) => e.amount)).toEqual([70]);
  });

  it('never overspends under 30 parallel debits', async () => {
    await postEntry(t.db, { ...alice, amount: 1_000, type: 'issue' });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        postEntry(t.db, { ...alice, amount: -100, type: 'pay', orderNo: `SO${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(await getBalance(t, alice)).toBe(0);
    await expectLedgerConsistent();
  });

  it('applies a request key once, even when the same credit arrives in parallel', async () => {
    const twins = await Promise.all(
      Array.from({ length: 10 }, () =>
        postEntry(t.db, { ...alice, amount: 300, type: 'issue', requestKey: 'csv-row-7' }),
      ),
    );
    expect(new Set(twins.map((e) => e.id)).size).toBe(1);
    expect(await getBalance(t, alice)).toBe(300);
    await expectLedgerConsistent();
  });

  it('lists bills newest first, ten a page, filtered by type and date', async () => {
    for (let i = 1; i <= 12; i++) await postEntry(t.db, { ...alice, amount: i, type: 'issue' });
    await postEntry(t.db, { ...alice, amount: -5, type: 'pay', orderNo: 'SO9' });
    const first = await listBills(t, { ...alice, pageNum: 1 });
    expect(first).toMatchObject({ total: 13, pageNum: 1, pageSize: 10 });
    expect(first.list).toHaveLength(10);
    expect(first.list[0]).toMatchObject({ amount: -5, orderNo: 'SO9' });
    expect((await listBills(t, { ...alice, pageNum: 2 })).list).toHaveLength(3);
    expect((await listBills(t, { ...alice, type: 'pay', pageNum: 1 })).total).toBe(1);
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect((await listBills(t, { ...alice, from: tomorrow, pageNum: 1 })).total).toBe(0);
    expect((await listBills(t, { ...alice, to: tomorrow, pageNum: 1 })).total).toBe(13);
  });
});
