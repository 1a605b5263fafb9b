import { catalogApi, type ShopPage, type ShopProducts } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const api = (p: string) => `/front-mall-api${p}`;

describe('shop street', () => {
  it('lists the site’s shops with their best sellers, and a shop’s products', async () => {
    const page = (await t.post<ShopPage>(api(catalogApi.shopList.path), { siteId: 1000 })).body.data;
    expect(page.list.length).toBe(10);
    expect(page.total).toBeGreaterThan(10);
    expect(page.list[0]!.products.length).toBe(4);
    expect(page.list[0]!.productCount).toBeGreaterThanOrEqual(page.list[1]!.productCount);
    const page2 = (await t.post<ShopPage>(api(catalogApi.shopList.path), { siteId: 1000, pageNum: 2 })).body
      .data;
    expect(page2.list.length).toBe(page.total - 10);
    const shop = page.list[0]!;
    const products = (
      await t.post<ShopProducts>(api(catalogApi.shopProducts.path), { siteId: 1000, shopId: shop.id })
    ).body.data;
    expect(products.shop.shopName).toBe(shop.shopName);
    expect(products.total).toBe(shop.productCount);
    expect(products.list).toHaveLength(10);
    expect(
      (await t.post(api(catalogApi.shopProducts.path), { siteId: 1000, shopId: 9999 })).body,
    ).toMatchObject({
      code: 500,
      msg: '店铺不存在',
    });
  });
});
