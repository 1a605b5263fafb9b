import { catalogApi, type ProductPage } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLargeCatalog } from '../../db/demo/catalog';
import { COUNT_CACHED_FROM } from '../../lib/paging';
import { statementsOf, type TestApp, testApp } from '../../test/harness';
import { announceCatalogChange } from './catalog.service';

let t: TestApp;
const api = (path: string) => `/front-mall-api${path}`;
const pageOf = async (body: Record<string, unknown>) =>
  (await t.post<ProductPage>(api(catalogApi.productList.path), body)).body.data;
const totalOf = async (siteId: number, pageNum = 5) => (await pageOf({ siteId, pageNum })).total;
const takeOneOffSale = (siteId: number) =>
  t.db.execute(sql`
    update site_product set is_on_sale = false
    where site_id = ${siteId} and product_id = (
      select product_id from site_product where site_id = ${siteId} and is_on_sale order by product_id limit 1)`);

describe('product list totals', () => {
  beforeAll(async () => {
    t = await testApp();
    // Site 1000 past the line where totals are kept a while; 719 stays small.
    await seedLargeCatalog(t.db, { count: COUNT_CACHED_FROM, siteId: 1000 });
  }, 120_000);
  afterAll(() => t.close());

  it('answers a repeated page from memory until a change of the catalogue is announced', async () => {
    const before = await totalOf(719);
    // Taken off sale without an announcement: the page asked before still has its answer.
    await takeOneOffSale(719);
    expect(await totalOf(719)).toBe(before);
    // A page nobody asked for is read from the database: a small list is counted each time.
    expect(await totalOf(719, 6)).toBe(before - 1);
    await announceCatalogChange(t.db, 719);
    await expect.poll(() => totalOf(719)).toBe(before - 1);
  });

  it('answers the total with a page past the end', async () => {
    const past = (await t.post<ProductPage>(api(catalogApi.productList.path), { siteId: 719, pageNum: 99 }))
      .body.data;
    expect(past.list).toEqual([]);
    expect(past.total).toBe(await totalOf(719));
    expect(past.total).toBeGreaterThan(0);
  });

  it('keeps the total of a big list a while instead of counting it on every page', async () => {
    const before = await totalOf(1000);
    expect(before).toBeGreaterThan(COUNT_CACHED_FROM);
    await takeOneOffSale(1000);
    // Another page: its answer is new, its total the kept one.
    expect(await totalOf(1000, 6)).toBe(before);
  });

  it('answers every page and its total in one statement, in the order the database sorts them', async () => {
    const { rows } = (await t.db.execute(sql`
      select product_id as id from site_product where site_id = 719 and is_on_sale
      order by price desc, product_id desc`)) as unknown as { rows: { id: number }[] };
    const expected = rows.map((r) => Number(r.id));
    const asked = { siteId: 719, sortField: 'price', sortType: 'desc' };
    // The site's caches and the statement warm up (the other order: its answers are not these).
    await pageOf({ ...asked, sortType: 'asc' });
    const seen: number[] = [];
    for (let pageNum = 1; pageNum <= Math.ceil(expected.length / 10) + 1; pageNum++) {
      let page: ProductPage | undefined;
      const statements = await statementsOf(async () => {
        page = await pageOf({ ...asked, pageNum });
      });
      expect(statements).toHaveLength(1);
      expect(page?.total).toBe(expected.length);
      seen.push(...(page?.list.map((p) => p.id) ?? []));
    }
    expect(seen).toEqual(expected);
  });

  it('reads only the page while the total of a big list is kept', async () => {
    await totalOf(1000, 7);
    const statements = await statementsOf(() => totalOf(1000, 8));
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toMatch(/count\(\*\)/);
  });
});
