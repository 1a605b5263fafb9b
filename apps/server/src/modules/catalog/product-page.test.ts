import { catalogApi, type ProductDetail, shopUrl } from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { statementsOf, type TestApp, testApp } from '../../test/harness';
import { announceCatalogChange } from './catalog.service';
import { product, productSpecification, siteProduct } from './catalog.tables';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const detail = async (siteId: number, productId: number) =>
  (await t.post<ProductDetail>(shopUrl(catalogApi.productDetail), { siteId, productId })).body;
const listing = (siteId: number, productId: number) =>
  and(eq(siteProduct.siteId, siteId), eq(siteProduct.productId, productId));

/** The clock a second and a bit later: what a product page keeps a second has expired. */
function aSecondLater() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 1_001);
}

describe('product page', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps stock and sales a second, then reads what moves in one statement, the rest still kept', async () => {
    const first = (await detail(1000, 2)).data;
    const [spec] = first.productSpecifications;
    await t.db
      .update(productSpecification)
      .set({ stock: sql`${productSpecification.stock} + 5` })
      .where(eq(productSpecification.id, spec!.id));
    await t.db
      .update(siteProduct)
      .set({ sales: sql`${siteProduct.sales} + 1`, isOnSale: false })
      .where(listing(1000, 2));
    try {
      expect(await statementsOf(() => detail(1000, 2))).toHaveLength(0);
      expect((await detail(1000, 2)).data).toEqual(first);

      aSecondLater();
      let again: ProductDetail | undefined;
      const statements = await statementsOf(async () => {
        again = (await detail(1000, 2)).data;
      });
      expect(statements).toHaveLength(1);
      expect(again?.productSpecifications[0]).toMatchObject({ id: spec!.id, stock: spec!.stock + 5 });
      expect(again).toMatchObject({ sales: first.sales + 1, isOnSale: false, name: first.name });
    } finally {
      await t.db
        .update(productSpecification)
        .set({ stock: spec!.stock })
        .where(eq(productSpecification.id, spec!.id));
      await t.db.update(siteProduct).set({ sales: first.sales, isOnSale: true }).where(listing(1000, 2));
    }
  });

  it("shows an operator's price change at once: the change announces the site's catalogue", async () => {
    const first = (await detail(1000, 5)).data;
    // The clock stands still: only the announcement can end the kept page.
    vi.useFakeTimers({ toFake: ['Date'] });
    await t.db
      .update(siteProduct)
      .set({ price: first.price + 100 })
      .where(listing(1000, 5));
    try {
      expect((await detail(1000, 5)).data.price).toBe(first.price);
      await announceCatalogChange(t.db, 1000);
      await expect.poll(async () => (await detail(1000, 5)).data.price).toBe(first.price + 100);
    } finally {
      await t.db.update(siteProduct).set({ price: first.price }).where(listing(1000, 5));
      await announceCatalogChange(t.db, 1000);
      // Heard before the next test keeps its own page (PostgreSQL delivers NOTIFY a moment later).
      await expect.poll(async () => (await detail(1000, 5)).data.price).toBe(first.price);
    }
  });

  it('keeps names, pictures and text until a change of the catalogue is announced', async () => {
    const { name } = (await detail(1000, 3)).data;
    await t.db
      .update(product)
      .set({ name: `${name}（新款）` })
      .where(eq(product.id, 3));
    try {
      expect((await detail(1000, 3)).data.name).toBe(name);
      await announceCatalogChange(t.db, 1000);
      await expect.poll(async () => (await detail(1000, 3)).data.name).toBe(`${name}（新款）`);
    } finally {
      await t.db.update(product).set({ name }).where(eq(product.id, 3));
      await announceCatalogChange(t.db, 1000);
    }
  });

  it('answers a product the site stopped selling as gone, though its page was kept', async () => {
    await detail(1000, 4);
    const [row] = await t.db.select().from(siteProduct).where(listing(1000, 4));
    await t.db.delete(siteProduct).where(listing(1000, 4));
    aSecondLater();
    try {
      expect(await detail(1000, 4)).toMatchObject({ code: 222, msg: '商品不存在或已下架' });
    } finally {
      await t.db.insert(siteProduct).values(row!);
    }
    expect((await detail(1000, 4)).data.id).toBe(4);
  });
});
