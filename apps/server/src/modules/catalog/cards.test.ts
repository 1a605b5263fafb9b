import { catalogApi, type ProductPage } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLargeCatalog } from '../../db/demo/catalog';
import { type TestApp, testApp } from '../../test/harness';
import { COUNT_CACHED_FROM } from './cards';

let t: TestApp;
const api = (path: string) => `/front-mall-api${path}`;
const totalOf = async (siteId: number) =>
  (await t.post<ProductPage>(api(catalogApi.productList.path), { siteId, pageNum: 5 })).body.data.total;
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

  it('counts a small list on every request: exact right after a change', async () => {
    const before = await totalOf(719);
    await takeOneOffSale(719);
    expect(await totalOf(719)).toBe(before - 1);
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
    expect(await totalOf(1000)).toBe(before);
  });
});
