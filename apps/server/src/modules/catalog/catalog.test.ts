import { Value } from '@sinclair/typebox/value';
import {
  type CombinedStock,
  catalogApi,
  type HomeProductList,
  LableListReply,
  type LimitCheck,
  MAX_PAGE,
  type ProductCard,
  ProductCateListReply,
  type ProductDetail,
  ProductDetailReply,
  type ProductPage,
  type ProductStock,
  SearchReply,
  type SpecialList,
  siteApi,
} from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITES } from '../../db/demo/sites';
import { type TestApp, testApp } from '../../test/harness';
import { createCatalogCache, renameLabel } from './catalog.service';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const api = (path: string) => `/front-mall-api${path}`;
type Label = { id: number; lableName: string };
type Group = { levelId: number; levelName: string; id: number; catName: string };

const labels = async (siteId: number) =>
  (await t.post<{ mallCateLables: Label[] }>(api(catalogApi.lableList.path), { siteId })).body.data
    .mallCateLables;
const categories = async (siteId: number) => {
  const out: Group[] = [];
  for (const label of await labels(siteId))
    out.push(
      ...(
        await t.post<{ cateProductList: Group[] }>(api(catalogApi.productCateList.path), {
          siteId,
          lableId: label.id,
        })
      ).body.data.cateProductList,
    );
  return out;
};
const list = (payload: Record<string, unknown>) =>
  t.post<ProductPage>(api(catalogApi.productList.path), payload);
const detail = (siteId: number, productId: number) =>
  t.post<ProductDetail>(api(catalogApi.productDetail.path), { siteId, productId });
/** Every product a site sells, through the public list. */
const allProducts = async (siteId: number) => {
  const out: ProductCard[] = [];
  for (const cat of await categories(siteId)) {
    for (let pageNum = 1; ; pageNum++) {
      const page = (await list({ siteId, cateId: cat.id, pageNum })).body.data;
      out.push(...page.list);
      if (page.list.length < 10) break;
    }
  }
  return out;
};

describe('labels and categories (spec section 7)', () => {
  it('answers lableList with mallCateLables and productCateList with cateProductList', async () => {
    const res = await t.post(api(catalogApi.lableList.path), { siteId: 719 });
    expect(Value.Check(LableListReply, res.body)).toBe(true);
    const ls = await labels(719);
    expect(ls.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(ls[0]!).sort()).toEqual(['id', 'lableName']);
    const cats = await t.post(api(catalogApi.productCateList.path), {
      siteId: 719,
      lableId: ls[0]!.id,
      repeat: true,
    });
    expect(Value.Check(ProductCateListReply, cats.body)).toBe(true);
    const first = (cats.body.data as { cateProductList: Group[] }).cateProductList[0]!;
    expect(Object.keys(first).sort()).toEqual(['catName', 'id', 'levelId', 'levelName']);
  });

  it('gives every demo site at least 3 labels, 20 categories and 300 products', async () => {
    for (const site of DEMO_SITES) {
      expect((await labels(site.id)).length).toBeGreaterThanOrEqual(3);
      expect((await categories(site.id)).length).toBeGreaterThanOrEqual(20);
      expect((await list({ siteId: site.id })).body.data.total).toBeGreaterThanOrEqual(300);
    }
  });

  it('accepts form data as the storefront sends it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(catalogApi.lableList.path),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'siteId=10110',
    });
    expect(res.json().data.mallCateLables.length).toBeGreaterThanOrEqual(3);
  });

  it('answers the whole category tree in one call', async () => {
    const { body } = await t.post<{ mallCateLables: (Label & { cateProductList: Group[] })[] }>(
      api(catalogApi.cateList.path),
      { siteId: 1000 },
    );
    expect(body.data.mallCateLables.flatMap((l) => l.cateProductList)).toEqual(await categories(1000));
    expect((await t.post(api(catalogApi.templateLableList.path), { siteId: 1000 })).body).toEqual(
      (await t.post(api(catalogApi.lableList.path), { siteId: 1000 })).body,
    );
  });

  it('serves a label change made by another process once it is announced', async () => {
    const other = await createCatalogCache(t.database);
    try {
      const [first] = await labels(10110);
      expect((await other.get(10110)).labels[0]?.lableName).toBe(first!.lableName);
      await renameLabel(t.db, 10110, first!.id, '福利数码');
      await expect.poll(async () => (await labels(10110))[0]?.lableName).toBe('福利数码');
      await expect.poll(async () => (await other.get(10110)).labels[0]?.lableName).toBe('福利数码');
    } finally {
      await other.close();
    }
  });
});

describe('products', () => {
  it('lists a category sorted and paged by 10, and a whole label', async () => {
    const [cat] = await categories(719);
    const page = (await list({ siteId: 719, cateId: cat!.id, sortField: 'price', sortType: 'asc' })).body
      .data;
    expect(page.pageSize).toBe(10);
    expect(page.list).toHaveLength(10);
    const prices = page.list.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const desc = (await list({ siteId: 719, cateId: cat!.id, sortField: 'sales', sortType: 'desc' })).body
      .data.list;
    expect(desc.map((p) => p.sales)).toEqual(desc.map((p) => p.sales).sort((a, b) => b - a));
    const page2 = (
      await list({ siteId: 719, cateId: cat!.id, sortField: 'price', sortType: 'asc', pageNum: 2 })
    ).body.data;
    expect(page2.total).toBe(page.total);
    expect(page2.list.every((p) => !page.list.some((q) => q.id === p.id))).toBe(true);
    const [label] = await labels(719);
    expect((await list({ siteId: 719, lableId: label!.id })).body.data.total).toBeGreaterThan(page.total);
  });

  it('refuses pages beyond 100 and nonsense page numbers with a clear msg', async () => {
    expect((await list({ siteId: 719, pageNum: MAX_PAGE + 1 })).body).toMatchObject({
      code: 400,
      msg: `最多只能查看前 ${MAX_PAGE} 页，请缩小筛选范围`,
    });
    for (const pageNum of [0, -3, 99999999999, 'abc'])
      expect((await list({ siteId: 719, pageNum })).body).toMatchObject({ code: 400, success: false });
    expect((await list({ siteId: 719, pageNum: MAX_PAGE })).body).toMatchObject({
      code: 200,
      data: { list: [] },
    });
  });

  it('answers a product detail with specifications, site prices, source and shop', async () => {
    const res = await detail(719, 1);
    expect(Value.Check(ProductDetailReply, res.body)).toBe(true);
    const p = res.body.data;
    expect(p.name).toContain('iPhone 15');
    expect(p.images.length).toBeGreaterThanOrEqual(3);
    expect(p.detail).toContain('<h3>');
    expect(p.productSpecifications.length).toBeGreaterThan(1);
    expect(p.price).toBe(Math.min(...p.productSpecifications.map((s) => s.price)));
    // Site 719 names source 1 through its supplyConfig (spec section 3).
    expect(p.source).toEqual({ source: 1, type: 1, name: '汇通直供', hasAddressTab: true });
    expect(p.shop.shopName).toBe('Apple 授权专营店');
    expect(p.category.catName).toBe('手机');
  });

  it('names sources by the section 3 mapping where the site does not rename them, with the address-tab flag', async () => {
    const voucher = (
      await t.post<{ list: ProductCard[] }>(api(catalogApi.search.path), { siteId: 1000, itemName: '话费' })
    ).body.data.list[0]!;
    expect(voucher.source).toMatchObject({ source: 26, name: '直充', hasAddressTab: false });
    expect(voucher.orderType).toBe(2);
    const books = (
      await t.post<{ list: ProductCard[] }>(api(catalogApi.search.path), { siteId: 1000, itemName: '三体' })
    ).body.data.list[0]!;
    expect(books.source).toMatchObject({ source: 54, name: '图书', hasAddressTab: true });
  });

  it('answers stock, combined stock (list or JSON text) and limit checks', async () => {
    const stock = (
      await t.post<ProductStock>(api(catalogApi.productStock.path), { siteId: 719, productId: 1 })
    ).body.data;
    const [spec] = stock.productSpecifications;
    expect(spec!.stock).toBeGreaterThan(0);
    const lines = [
      { productId: 1, specificationId: spec!.id, num: 1 },
      { productId: 1, specificationId: spec!.id, num: spec!.stock + 1 },
      { productId: 2, specificationId: spec!.id, num: 1 },
    ];
    for (const productInfos of [lines, JSON.stringify(lines)]) {
      const combined = (
        await t.post<CombinedStock>(api(catalogApi.combinedStock.path), { siteId: 719, productInfos })
      ).body.data;
      expect(combined.list.map((l) => l.isEnough)).toEqual([true, false, false]);
      expect(combined.isEnough).toBe(false);
    }
    const limits = (
      await t.post<LimitCheck>(api(catalogApi.limitCheck.path), {
        siteId: 719,
        productInfos: [{ productId: 1, specificationId: spec!.id, num: 3 }],
      })
    ).body.data;
    expect(limits.isPassed).toBe(false);
    expect(limits.list[0]).toMatchObject({ limitNum: 2, msg: '该商品每单限购 2 件' });
    const fine = (
      await t.post<LimitCheck>(api(catalogApi.limitCheck.path), {
        siteId: 719,
        productInfos: [{ productId: 1, specificationId: spec!.id, num: 2 }],
      })
    ).body.data;
    expect(fine).toMatchObject({ isPassed: true });
    for (const productInfos of [
      'not json',
      '[]',
      '[{"productId":-1}]',
      JSON.stringify(Array(51).fill(lines[0])),
    ])
      expect(
        (await t.post(api(catalogApi.combinedStock.path), { siteId: 719, productInfos })).body,
      ).toMatchObject({
        code: 400,
      });
  });

  it('lists by ids in the order asked, guess-like and home floors', async () => {
    const byIds = (
      await t.post<{ list: ProductCard[] }>(api(catalogApi.listByIds.path), { siteId: 1000, ids: '3,1,2' })
    ).body.data.list;
    expect(byIds.map((p) => p.id)).toEqual([3, 1, 2]);
    const guess = (
      await t.post<{ list: ProductCard[] }>(api(catalogApi.guessLike.path), { siteId: 1000, productId: 1 })
    ).body.data.list;
    expect(guess).toHaveLength(10);
    expect(guess.some((p) => p.id === 1)).toBe(false);
    const home = (await t.post<HomeProductList>(api(catalogApi.homeProductList.path), { siteId: 1000 })).body
      .data;
    expect(home.floors.length).toBe((await labels(1000)).length);
    expect(home.floors[0]!.list.length).toBe(8);
  });

  it('answers unknown products and bad ids with clear errors, never a 5xx', async () => {
    // A miss is a business answer with a code the request layer treats as normal, not a fault.
    expect((await detail(719, 999999)).body).toEqual({
      code: 222,
      msg: '商品不存在或已下架',
      success: false,
      data: null,
    });
    for (const productId of [0, -1, 'x', 2 ** 40])
      expect((await detail(719, productId as number)).body).toMatchObject({ code: 400, success: false });
    expect((await detail(4242, 1)).body).toMatchObject({ code: 500, msg: '站点不存在' });
    expect((await t.post(api(catalogApi.listByIds.path), { siteId: 719, ids: '1,x' })).body.code).toBe(400);
  });
});

describe('tenant isolation', () => {
  it('never shows a site another site’s labels or categories', async () => {
    const own = new Set((await labels(719)).map((l) => l.id));
    for (const other of await labels(10110)) {
      expect(own.has(other.id)).toBe(false);
      expect(
        (await t.post(api(catalogApi.productCateList.path), { siteId: 719, lableId: other.id })).body,
      ).toMatchObject({
        code: 500,
        msg: '分类标签不存在',
      });
    }
    const otherCats = await categories(10110);
    expect((await list({ siteId: 719, cateId: otherCats[0]!.id })).body).toMatchObject({
      code: 500,
      msg: '分类不存在',
    });
    expect((await list({ siteId: 719, lableId: (await labels(10110))[0]!.id })).body.code).toBe(500);
  });

  it('never shows a site a product it does not sell, anywhere', async () => {
    // Product 7 is in the shared catalogue, sold by 1000 and not by 719 (demo plan).
    expect((await detail(1000, 7)).body.code).toBe(200);
    const name = (await detail(1000, 7)).body.data.name;
    expect((await detail(719, 7)).body).toMatchObject({ code: 222, msg: '商品不存在或已下架' });
    expect((await t.post(api(catalogApi.productStock.path), { siteId: 719, productId: 7 })).body.code).toBe(
      222,
    );
    const byIds = await t.post<{ list: ProductCard[] }>(api(catalogApi.listByIds.path), {
      siteId: 719,
      ids: [7, 1],
    });
    expect(byIds.body.data.list.map((p) => p.id)).toEqual([1]);
    const found = await t.post<{ list: ProductCard[] }>(api(catalogApi.search.path), {
      siteId: 719,
      itemName: name,
    });
    expect(Value.Check(SearchReply, found.body)).toBe(true);
    expect(found.body.data.list.some((p) => p.id === 7)).toBe(false);
    const stock = (
      await t.post<CombinedStock>(api(catalogApi.combinedStock.path), {
        siteId: 719,
        productInfos: [
          {
            productId: 7,
            specificationId: (await detail(1000, 7)).body.data.productSpecifications[0]!.id,
            num: 1,
          },
        ],
      })
    ).body.data;
    expect(stock.list[0]).toMatchObject({ isOnSale: false, stock: 0, isEnough: false });
    const all719 = await allProducts(719);
    expect(all719.some((p) => p.id === 7)).toBe(false);
  });

  it('shows each site its own price for the same product', async () => {
    const prices = await Promise.all(DEMO_SITES.map(async (s) => (await detail(s.id, 1)).body.data.price));
    expect(new Set(prices).size).toBe(3);
    const specs = await Promise.all(
      DEMO_SITES.map(async (s) =>
        (await detail(s.id, 1)).body.data.productSpecifications.map((x) => x.price),
      ),
    );
    expect(specs[0]).not.toEqual(specs[1]);
  });

  it('never lets a site open another site’s advert or special', async () => {
    const other = (
      await t.post<{ list: { id: number }[] }>(api(catalogApi.listByMode.path), {
        siteId: 10110,
        mode: 'menu',
      })
    ).body.data.list[0]!;
    expect(
      (await t.post(api(catalogApi.specialList.path), { siteId: 719, advertId: other.id })).body,
    ).toMatchObject({
      code: 500,
      msg: '广告不存在',
    });
    expect((await t.post(api(catalogApi.advertById.path), { siteId: 719, id: other.id })).body.code).toBe(
      500,
    );
  });
});

describe('specials (adverts of type 1 and 2)', () => {
  it('lists the products of a type-1 advert, paged, sold on this site only', async () => {
    const ads = (
      await t.post<{ list: { id: number; type: number; adName: string; url: string }[] }>(
        api(catalogApi.listByMode.path),
        { siteId: 719, mode: 'menu' },
      )
    ).body.data.list;
    const special = ads.find((a) => a.adName === '数码焕新季')!;
    const page = (
      await t.post<SpecialList>(api(catalogApi.specialList.path), { siteId: 719, advertId: special.id })
    ).body.data;
    expect(page.advert).toMatchObject({ id: special.id, type: 1 });
    expect(page.total).toBeGreaterThan(10);
    expect(page.list).toHaveLength(10);
    const sorted = (
      await t.post<SpecialList>(api(catalogApi.specialList.path), {
        siteId: 719,
        advertId: special.id,
        sortField: 'price',
        sortType: 'desc',
      })
    ).body.data.list.map((p) => p.price);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    const external = ads.find((a) => a.type === 2)!;
    const ext = (
      await t.post<SpecialList>(api(catalogApi.specialList.path), { siteId: 719, advertId: external.id })
    ).body.data;
    expect(ext).toMatchObject({ list: [], total: 0, advert: { type: 2, url: external.url } });
    expect(external.url).toMatch(/^https:\/\//);
  });
});

describe('adverts and templates', () => {
  it('answers each template and advert query', async () => {
    const get = async (url: string) => (await t.app.inject({ method: 'GET', url: api(url) })).json();
    const home = await get(`${catalogApi.homeTemplate.path}?siteId=10110`);
    expect(home.data.homePageModes.map((m: { templateName: string }) => m.templateName)).toEqual([
      'home-head-template',
      'home-menu-template',
      'home-foot-template',
    ]);
    expect((await t.post(api(catalogApi.allTemplates.path), { siteId: 10110 })).body.data).toEqual(home.data);
    const mode = await t.post<{ value: { note: string } }>(api(catalogApi.modeDetail.path), {
      siteId: 10110,
      templateName: 'home-head-template',
    });
    expect(mode.body.data.value.note).toContain('中秋礼盒');
    expect(
      (await t.post(api(catalogApi.modeDetail.path), { siteId: 10110, templateName: 'nope' })).body.code,
    ).toBe(500);
    const pcGet = await get(`${catalogApi.templatePcInfo.path}?siteId=10110`);
    const pcPost = (await t.post(api(siteApi.pcInfo.path), { id: 10110 })).body;
    expect(pcGet).toEqual(pcPost);
    const tiny = await get(`${catalogApi.tinyPageInfo.path}?siteId=719`);
    expect(tiny.data.blocks.map((b: { kind: string }) => b.kind)).toEqual(['banner', 'adverts', 'products']);
    expect(tiny.data.blocks[2].products.length).toBeGreaterThan(5);
    expect((await get(`${catalogApi.tinyPageInfo.path}?siteId=719&id=999`)).code).toBe(500);
    const info = (
      await t.post<Record<string, { id: number; position: string }[]>>(api(catalogApi.siteAdvertInfo.path), {
        siteId: 719,
      })
    ).body.data;
    expect(info.menu!.length).toBe(4);
    expect(info.banner!.length).toBe(2);
    expect(info.activity!.length).toBe(2);
    const banners = await get(`${catalogApi.advertList.path}?siteId=719&position=banner`);
    expect(banners.data.list).toEqual(info.banner);
    expect((await get(`${catalogApi.advertList.path}?siteId=719`)).data.list.length).toBe(8);
    expect((await get(`${catalogApi.advertList.path}?siteId=719&position=<x>`)).code).toBe(400);
    const one = await t.post(api(catalogApi.advertById.path), {
      siteId: 719,
      id: info.menu![0]!.id as unknown as number,
    });
    expect(one.body.data).toEqual(info.menu![0]);
    const activity = await t.app.inject({
      method: 'POST',
      url: api(`${catalogApi.activityList.path}?siteId=719`),
      payload: { siteId: 719 },
    });
    expect(activity.json().data.list).toEqual(info.activity);
    expect((await get(catalogApi.homeTemplate.path)).code).toBe(400);
  });
});

describe('product images', () => {
  it('draws a tile per product and view, and a logo per shop', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/media/product/1.svg' });
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toContain('image/svg+xml');
    expect(a.body).toContain('iPhone 15');
    expect(a.body).toContain('linearGradient');
    const b = await t.app.inject({ method: 'GET', url: '/media/product/1-2.svg' });
    expect(b.body).not.toEqual(a.body);
    expect((await t.app.inject({ method: 'GET', url: '/media/product/1.svg' })).body).toEqual(a.body);
    expect((await t.app.inject({ method: 'GET', url: '/media/shop/1.svg' })).statusCode).toBe(200);
    for (const bad of ['999999.svg', '1-9.svg', 'x.svg', '99999999999.svg'])
      expect((await t.app.inject({ method: 'GET', url: `/media/product/${bad}` })).statusCode).toBe(404);
  });
});
