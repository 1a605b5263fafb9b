import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBooks } from '../lib/books';
import { POINTS_BOOKS } from '../modules/points/books';
import { type TestApp, testApp } from '../test/harness';
import { type ScaleCounts, scaleCounts, seedScale } from './demo/scale';

const totals = async (t: TestApp) =>
  (
    (await t.db.execute(sql`
      select (select count(*) from mall_site)::int as sites,
             (select count(*) from product)::int as products,
             (select count(*) from site_product where site_id > 100000)::int as "addedListings",
             (select count(*) from member where phone like '199%')::int as members,
             (select count(*) from points_entry where note = '规模测试')::int as entries`)) as unknown as {
      rows: Record<string, number>[];
    }
  ).rows[0];

describe('seed --scale', () => {
  let t: TestApp;
  let counts: ScaleCounts;
  beforeAll(async () => {
    t = await testApp();
    const before = await totals(t);
    // The demo data plus two added sites, 300 more products, 40 per added site, 2 × 5 entries.
    counts = {
      sites: (before?.sites ?? 0) + 2,
      products: (before?.products ?? 0) + 300,
      assortment: 40,
      membersPerSite: 2,
      entriesPerMember: 5,
    };
    await seedScale(t.db, counts);
  });
  afterAll(() => t.close());

  it('scales every count by the factor, entries by the factor itself', () => {
    const full = scaleCounts();
    expect(full).toEqual({
      sites: 1000,
      products: 1_000_000,
      assortment: 1000,
      membersPerSite: 100,
      entriesPerMember: 100,
    });
    const small = scaleCounts(0.01);
    expect(small.sites).toBe(10);
    expect(small.products).toBe(10_000);
    expect(small.membersPerSite * small.entriesPerMember).toBe(100);
  });

  it('tops up sites, products, assortments and ledgers to the counts', async () => {
    const after = await totals(t);
    expect(after?.sites).toBe(counts.sites);
    expect(after?.products).toBe(counts.products);
    // Each added site sells the copied demo catalogue plus its own slice of the large one.
    const slices = (
      (await t.db.execute(sql`
        select sp.site_id, count(*)::int as n from site_product sp
        where sp.site_id > 100000 and sp.product_id > (select max(product_id) from site_product where site_id = 719)
        group by sp.site_id order by sp.site_id`)) as unknown as { rows: { site_id: number; n: number }[] }
    ).rows;
    expect(slices).toHaveLength(2);
    for (const slice of slices) expect(slice.n).toBe(40);
    // Every site has its members, each with the five entries; balances are 10 − 5 + 10 − 5 + 10 = 20.00.
    expect(after?.members).toBe(counts.sites * 2);
    expect(after?.entries).toBe(counts.sites * 2 * 5);
    const balances = (
      (await t.db.execute(sql`
        select distinct a.balance from points_account a join member m on m.id = a.member_id
        where m.phone like '199%'`)) as unknown as { rows: { balance: number }[] }
    ).rows;
    expect(balances).toEqual([{ balance: 2000 }]);
  });

  it('keeps the points books: balances are the sums of their entries, running balances hold', async () => {
    const report = await runBooks(t.db, 'all', POINTS_BOOKS);
    for (const check of report.checks) expect(check.problems, check.label).toEqual([]);
  });

  it('adds nothing when run again', async () => {
    const before = await totals(t);
    await seedScale(t.db, counts);
    expect(await totals(t)).toEqual(before);
  });
});
