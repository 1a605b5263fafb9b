import { and, eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { productSpecification, siteProduct } from './catalog.tables';
import { lowStock } from './stock-admin';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const firstSpecOf = async (productId: number) => {
  const [spec] = await t.db
    .select({ id: productSpecification.id })
    .from(productSpecification)
    .where(eq(productSpecification.productId, productId))
    .orderBy(productSpecification.id)
    .limit(1);
  return spec!.id;
};
const setStock = (specificationId: number, stock: number) =>
  t.db.update(productSpecification).set({ stock }).where(eq(productSpecification.id, specificationId));

/** The list as its definition reads, from every row: what the query must answer. */
async function lowStockByHand(scope: 'all' | number[], below: number, limit: number) {
  const specs = await t.db
    .select({
      id: productSpecification.id,
      productId: productSpecification.productId,
      stock: productSpecification.stock,
    })
    .from(productSpecification)
    .where(lt(productSpecification.stock, below));
  const listings = await t.db.select().from(siteProduct);
  const sold = new Set(
    listings
      .filter((l) => l.isOnSale && (scope === 'all' || scope.includes(l.siteId)))
      .map((l) => l.productId),
  );
  return specs
    .filter((s) => sold.has(s.productId))
    .sort((a, b) => a.stock - b.stock || a.id - b.id)
    .slice(0, limit)
    .map((s) => s.id);
}

describe('low stock', () => {
  it('lists each specification once, lowest first, of products on sale on a site of the scope', async () => {
    await t.db.update(productSpecification).set({ stock: 50 });
    // Product 1 sells on 719, 1000 and 10110; product 3 on 719 and 1000; product 7 on
    // 1000 and 10110.
    const onEvery = await firstSpecOf(1);
    const notOn10110 = await firstSpecOf(3);
    const on10110 = await firstSpecOf(7);
    await setStock(onEvery, 2);
    await setStock(notOn10110, 0);
    await setStock(on10110, 5);
    // Off sale on 719: no longer 719's, still 1000's.
    await t.db
      .update(siteProduct)
      .set({ isOnSale: false })
      .where(and(eq(siteProduct.siteId, 719), eq(siteProduct.productId, 3)));

    const ids = async (scope: 'all' | number[], limit = 10) =>
      (await lowStock(t.db, scope, 10, limit)).map((r) => r.specificationId);
    expect(await ids('all')).toEqual([notOn10110, onEvery, on10110]);
    expect(await ids([719])).toEqual([onEvery]);
    expect(await ids([1000])).toEqual([notOn10110, onEvery, on10110]);
    expect(await ids([10110])).toEqual([onEvery, on10110]);
    expect(await ids([719, 10110])).toEqual([onEvery, on10110]);
    expect(await ids('all', 2)).toEqual([notOn10110, onEvery]);
    for (const scope of ['all', [719], [1000], [10110], [719, 10110], []] as const)
      expect(await ids(scope === 'all' ? scope : [...scope])).toEqual(
        await lowStockByHand(scope === 'all' ? scope : [...scope], 10, 10),
      );
  });
});
