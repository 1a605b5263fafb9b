import { catalogApi, type SearchResult, shopUrl } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { announceCatalogChange } from './catalog.service';
import { siteProduct } from './catalog.tables';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const search = async (siteId: number, itemName: string) =>
  (await t.post<SearchResult>(shopUrl(catalogApi.search), { siteId, itemName })).body.data;
const ids = (result: SearchResult) => result.list.map((p) => p.id);
const setOnSale = (siteId: number, productId: number, isOnSale: boolean) =>
  t.db
    .update(siteProduct)
    .set({ isOnSale })
    .where(and(eq(siteProduct.siteId, siteId), eq(siteProduct.productId, productId)));

describe('search result cache', () => {
  it('answers a repeated query from memory until the catalogue change is announced', async () => {
    const first = await search(1000, '华为手机');
    const top = first.list[0]!.id;
    // Taken off sale without an announcement: the cached answer still lists it.
    await setOnSale(1000, top, false);
    try {
      expect(ids(await search(1000, '华为手机'))).toContain(top);
      // Another query was never cached: it reads the database and no longer finds it.
      expect(ids(await search(1000, '华为 手机'))).not.toContain(top);
      await announceCatalogChange(t.db, 1000);
      await expect.poll(async () => ids(await search(1000, '华为手机'))).not.toContain(top);
    } finally {
      await setOnSale(1000, top, true);
      await announceCatalogChange(t.db, 1000);
    }
    await expect.poll(async () => ids(await search(1000, '华为手机'))).toContain(top);
  });

  it('keeps each site its own results for the same query', async () => {
    // Product 7 is sold by site 1000 and not by 719 (demo plan).
    const name = (
      await t.post<{ name: string }>(shopUrl(catalogApi.productDetail), { siteId: 1000, productId: 7 })
    ).body.data.name;
    expect(ids(await search(1000, name))).toContain(7);
    expect(ids(await search(719, name))).not.toContain(7);
  });
});
