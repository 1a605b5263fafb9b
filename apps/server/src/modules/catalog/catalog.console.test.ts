import {
  ADMIN_MSG,
  type AdminSiteProduct,
  adminCatalogueApi as api,
  CATALOGUE_MSG,
  catalogApi,
  type Endpoint,
  MAX_SITE_PRICE,
  type ProductDetail,
  type SearchResult,
} from '@sitemall/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATORS } from '../../db/demo/operators';
import { DEMO_SITES } from '../../db/demo/sites';
import { excel } from '../../lib/xlsx';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, holds } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { category, product, productSpecification, sitePrice, siteProduct, stockMove } from './catalog.tables';

/**
 * The console's catalogue and stock screens on the real database: listing a shared product on
 * a site at a price (and the storefront showing it), prices, sale, limit, stock adjustments
 * into the ledger (exact under parallel requests), the export, and every route allowed or 403
 * for each demo operator on each demo site, with bad input changing nothing.
 */

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
/** Products of the shared catalogue that 719 does not sell (demo plan: id % 15 === 7). */
const NOT_ON_719 = [7, 22, 37, 52];
let cat719: number;
let cat10110: number;

const specsOf = (productId: number) =>
  t.db
    .select({ id: productSpecification.id, stock: productSpecification.stock })
    .from(productSpecification)
    .where(eq(productSpecification.productId, productId))
    .orderBy(productSpecification.id);
const listed = async (siteId: number, productId: number) =>
  (
    await t.db
      .select()
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, siteId), eq(siteProduct.productId, productId)))
  )[0];
const audits = async (action: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
const auditCount = async () => (await t.db.select({ n: count() }).from(auditLog))[0]?.n ?? 0;
const detailOn = (siteId: number, productId: number) =>
  client(t).post<ProductDetail>(catalogApi.productDetail.path, { siteId, productId });

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
  const firstCategory = async (siteId: number) =>
    (await t.db.select({ id: category.id }).from(category).where(eq(category.siteId, siteId)).limit(1))[0]
      ?.id as number;
  cat719 = await firstCategory(719);
  cat10110 = await firstCategory(10110);
  for (const id of NOT_ON_719) expect(await listed(719, id)).toBeUndefined();
});
afterAll(() => t.close());

describe('listing a shared product on a site', () => {
  it('refuses bad prices, a foreign category, a missing specification and other sites; nothing changes', async () => {
    const [spec, ...more] = await specsOf(7);
    expect(spec).toBeDefined();
    const body = (price: unknown, over: Record<string, unknown> = {}) => ({
      siteId: 719,
      productId: 7,
      categoryId: cat719,
      prices: [spec, ...more].map((s) => ({ specificationId: s?.id, price })),
      ...over,
    });
    for (const price of [-100, 0, 12.5, MAX_SITE_PRICE + 1, 2 ** 40, '1e3', 'abc']) {
      const answer = await admin.call(api.list, body(price), tokens.op719);
      expect(answer.body.code, String(price)).toBe(400);
    }
    expect((await admin.call(api.list, body(1000, { categoryId: cat10110 }), tokens.op719)).body.msg).toBe(
      CATALOGUE_MSG.categoryMissing,
    );
    if (more.length)
      expect(
        (
          await admin.call(
            api.list,
            { ...body(1000), prices: [{ specificationId: spec?.id, price: 1000 }] },
            tokens.op719,
          )
        ).body.msg,
      ).toBe(CATALOGUE_MSG.pricesIncomplete);
    const foreignSpec = (await specsOf(8))[0]?.id;
    expect(
      (
        await admin.call(
          api.list,
          { ...body(1000), prices: [{ specificationId: foreignSpec, price: 1000 }] },
          tokens.op719,
        )
      ).body.msg,
    ).toBe(CATALOGUE_MSG.specMissing);
    const foreign = await admin.call(api.list, body(1000, { siteId: 10110 }), tokens.op719);
    expect(foreign.body).toMatchObject({ code: 403, msg: ADMIN_MSG.forbiddenSite });
    expect((await admin.call(api.list, body(1000), tokens.cs10110)).body.code).toBe(403);
    expect((await admin.call(api.list, body(1000), tokens.finance)).body.code).toBe(403);
    expect((await admin.call(api.list, body(1000))).body.code).toBe(401);
    expect(await listed(719, 7)).toBeUndefined();
    expect(await t.db.select().from(sitePrice).where(eq(sitePrice.productId, 7))).not.toContainEqual(
      expect.objectContaining({ siteId: 719 }),
    );
    expect(await audits('catalogue.list')).toEqual([]);
  });

  it('lists the product at the price on 719 with an audit row; the storefront of 719 sells it at that price', async () => {
    const specs = await specsOf(7);
    expect((await detailOn(719, 7)).body.code).not.toBe(200);
    const shared = await admin.call(api.shared, { siteId: 719, keyword: '7' }, tokens.op719);
    expect(shared.body.data.list.map((p) => p.id)).toContain(7);
    const answer = await admin.call(
      api.list,
      {
        siteId: 719,
        productId: 7,
        categoryId: cat719,
        prices: specs.map((s, i) => ({ specificationId: s.id, price: 12_300 + i * 100 })),
        limitNum: 3,
      },
      tokens.op719,
    );
    expect(answer.body.code).toBe(200);
    expect(answer.body.data).toMatchObject({
      siteId: 719,
      productId: 7,
      price: 12_300,
      isOnSale: true,
      limitNum: 3,
      categoryId: cat719,
    });
    expect(answer.body.data.specs.map((s) => s.price)).toEqual(specs.map((_, i) => 12_300 + i * 100));
    const [row] = await audits('catalogue.list');
    expect(row).toMatchObject({ siteId: 719, entity: 'site_product', entityId: '7', before: null });
    expect(row?.after).toMatchObject({ limitNum: 3, isOnSale: true });
    const detail = await detailOn(719, 7);
    expect(detail.body.data).toMatchObject({ id: 7, price: 12_300, isOnSale: true, limitNum: 3 });
    // 10110 still does not sell it at 719's price.
    expect((await detailOn(10110, 7)).body.data?.price).not.toBe(12_300);
    // Listed twice: refused, nothing more written.
    const again = await admin.call(
      api.list,
      {
        siteId: 719,
        productId: 7,
        categoryId: cat719,
        prices: specs.map((s) => ({ specificationId: s.id, price: 1 })),
      },
      tokens.op719,
    );
    expect(again.body.msg).toBe(CATALOGUE_MSG.alreadyListed);
    expect((await listed(719, 7))?.price).toBe(12_300);
    expect(await audits('catalogue.list')).toHaveLength(1);
    // Gone from the shared list of products 719 does not sell.
    const after = await admin.call(api.shared, { siteId: 719, keyword: '7' }, tokens.op719);
    expect(after.body.data.list.map((p) => p.id)).not.toContain(7);
  });

  it('parallel listings of one product: exactly one wins', async () => {
    const specs = await specsOf(22);
    // The storefront's search answers (and caches) the product's name before it is listed.
    const [named] = await t.db.select({ name: product.name }).from(product).where(eq(product.id, 22));
    const before = await client(t).post<SearchResult>(catalogApi.search.path, {
      siteId: 719,
      itemName: named?.name,
    });
    expect(before.body.data.list.map((p) => p.id)).not.toContain(22);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        admin.call(
          api.list,
          {
            siteId: 719,
            productId: 22,
            categoryId: cat719,
            prices: specs.map((s) => ({ specificationId: s.id, price: 5_000 })),
          },
          tokens.op719,
        ),
      ),
    );
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.body.msg === CATALOGUE_MSG.alreadyListed)).toHaveLength(5);
    expect((await audits('catalogue.list')).filter((a) => a.entityId === '22')).toHaveLength(1);
  });

  it('finds the new product in the storefront search at once: the cached answer was dropped', async () => {
    const name = (
      await admin.call(api.products, { siteId: 719, keyword: '22' }, tokens.op719)
    ).body.data.list.find((p) => p.productId === 22)?.name as string;
    const found = await client(t).post<SearchResult>(catalogApi.search.path, {
      siteId: 719,
      itemName: name,
    });
    expect(found.body.data.list.map((p) => p.id)).toContain(22);
  });
});

describe('prices, sale and limit of a listed product', () => {
  let product: AdminSiteProduct;
  beforeAll(async () => {
    const page = await admin.call(api.products, { siteId: 719, onSale: 1 }, tokens.op719);
    product =
      page.body.data.list.find((p) => p.specs.length > 1 && p.productId !== 7) ??
      (page.body.data.list[0] as AdminSiteProduct);
  });

  it('searches the site’s products by id and name, by sale state and category', async () => {
    const byId = await admin.call(
      api.products,
      { siteId: 719, keyword: String(product.productId) },
      tokens.op719,
    );
    expect(byId.body.data.list.map((p) => p.productId)).toContain(product.productId);
    const byName = await admin.call(
      api.products,
      { siteId: 719, keyword: product.name.slice(0, 4) },
      tokens.op719,
    );
    expect(byName.body.data.list.every((p) => p.name.includes(product.name.slice(0, 4)))).toBe(true);
    const byCategory = await admin.call(
      api.products,
      { siteId: 719, categoryId: product.categoryId },
      tokens.op719,
    );
    expect(byCategory.body.data.list.every((p) => p.categoryId === product.categoryId)).toBe(true);
    expect(byCategory.body.data.total).toBeGreaterThan(0);
    const off = await admin.call(api.products, { siteId: 719, onSale: 0 }, tokens.op719);
    expect(off.body.data.list.every((p) => !p.isOnSale)).toBe(true);
    expect((await admin.call(api.products, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
    expect((await admin.call(api.products, { siteId: 10110 }, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(api.products, { siteId: 10110 }, tokens.admin)).body.code).toBe(200);
    const categories = await admin.call(api.categories, { siteId: 719 }, tokens.op719);
    expect(categories.body.data.list.map((c) => c.id)).toContain(cat719);
    expect(categories.body.data.list.map((c) => c.id)).not.toContain(cat10110);
  });

  it('changes one specification’s price: list price is the lowest, audited before/after; bad prices change nothing', async () => {
    const [first] = product.specs;
    const id = first?.id as number;
    for (const price of [-1, 0, 99.5, MAX_SITE_PRICE + 1])
      expect(
        (
          await admin.call(
            api.setPrices,
            { siteId: 719, productId: product.productId, prices: [{ specificationId: id, price }] },
            tokens.op719,
          )
        ).body.code,
      ).toBe(400);
    const foreign = await admin.call(
      api.setPrices,
      { siteId: 10110, productId: product.productId, prices: [{ specificationId: id, price: 100 }] },
      tokens.op719,
    );
    expect(foreign.body.code).toBe(403);
    const otherSpec = (await specsOf(NOT_ON_719[3] as number))[0]?.id as number;
    expect(
      (
        await admin.call(
          api.setPrices,
          { siteId: 719, productId: product.productId, prices: [{ specificationId: otherSpec, price: 100 }] },
          tokens.op719,
        )
      ).body.msg,
    ).toBe(CATALOGUE_MSG.specMissing);
    expect(
      (
        await admin.call(
          api.setPrices,
          {
            siteId: 719,
            productId: NOT_ON_719[3] as number,
            prices: [{ specificationId: otherSpec, price: 100 }],
          },
          tokens.op719,
        )
      ).body.msg,
    ).toBe(CATALOGUE_MSG.notListed);
    expect(
      (
        await admin.call(api.products, { siteId: 719, keyword: String(product.productId) }, tokens.op719)
      ).body.data.list.find((p) => p.productId === product.productId)?.specs,
    ).toEqual(product.specs);
    expect(await audits('catalogue.price')).toEqual([]);

    const changed = await admin.call(
      api.setPrices,
      {
        siteId: 719,
        productId: product.productId,
        prices: [{ specificationId: id, price: 100 }],
        reason: '促销',
      },
      tokens.op719,
    );
    expect(changed.body.data.specs.find((s) => s.id === id)?.price).toBe(100);
    expect(changed.body.data.price).toBe(100);
    const [row] = await audits('catalogue.price');
    expect(row).toMatchObject({ siteId: 719, entityId: String(product.productId), reason: '促销' });
    expect((row?.before as Record<string, number>)[id]).toBe(first?.price);
    expect((row?.after as Record<string, number>)[id]).toBe(100);
    const detail = await detailOn(719, product.productId);
    expect(detail.body.data.price).toBe(100);
  });

  it('puts off and on sale, sets the purchase limit; each audited; bad limits change nothing', async () => {
    const off = await admin.call(
      api.setSale,
      { siteId: 719, productId: product.productId, isOnSale: false },
      tokens.op719,
    );
    expect(off.body.data.isOnSale).toBe(false);
    expect((await detailOn(719, product.productId)).body.data?.isOnSale ?? false).toBe(false);
    expect(
      (
        await admin.call(
          api.setSale,
          { siteId: 719, productId: product.productId, isOnSale: true },
          tokens.cs10110,
        )
      ).body.code,
    ).toBe(403);
    const on = await admin.call(
      api.setSale,
      { siteId: 719, productId: product.productId, isOnSale: true },
      tokens.admin,
    );
    expect(on.body.data.isOnSale).toBe(true);
    expect((await audits('catalogue.sale')).map((a) => a.after)).toEqual([
      { isOnSale: false },
      { isOnSale: true },
    ]);

    for (const limitNum of [-1, 1.5, 10_000])
      expect(
        (
          await admin.call(
            api.setLimit,
            { siteId: 719, productId: product.productId, limitNum },
            tokens.op719,
          )
        ).body.code,
      ).toBe(400);
    expect(
      (
        await admin.call(
          api.setLimit,
          { siteId: 10110, productId: product.productId, limitNum: 2 },
          tokens.op719,
        )
      ).body.code,
    ).toBe(403);
    const limited = await admin.call(
      api.setLimit,
      { siteId: 719, productId: product.productId, limitNum: 2 },
      tokens.op719,
    );
    expect(limited.body.data.limitNum).toBe(2);
    expect((await audits('catalogue.limit')).map((a) => [a.before, a.after])).toEqual([
      [{ limitNum: product.limitNum }, { limitNum: 2 }],
    ]);
    expect((await detailOn(719, product.productId)).body.data.limitNum).toBe(2);
  });

  it('exports the site’s products as xlsx, one row per specification', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin-api${api.exportProducts.path}`,
      query: { siteId: '719', keyword: '7' },
      headers: { token: tokens.op719 as string },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new (await excel()).Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('站点商品');
    const rows = (sheet?.getSheetValues() ?? []).filter(Boolean) as unknown[][];
    expect(rows[0]).toContain('站点价（元）');
    expect(rows.some((r) => r[1] === 7 && r[7] === 123)).toBe(true);
    const refused = await admin.call(api.exportProducts, { siteId: 719 }, tokens.cs10110);
    expect(refused.body.code).toBe(403);
  });
});

describe('stock', () => {
  let specId: number;
  beforeAll(async () => {
    specId = (await specsOf(7))[0]?.id as number;
  });
  const stockOf = async (id: number) =>
    (
      await t.db
        .select({ stock: productSpecification.stock })
        .from(productSpecification)
        .where(eq(productSpecification.id, id))
    )[0]?.stock as number;
  const moves = async (id: number) => t.db.select().from(stockMove).where(eq(stockMove.specificationId, id));

  it('refuses a missing reason, 0, below 0, another site’s specification and operators without stock:manage', async () => {
    const start = await stockOf(specId);
    const adjust = (over: Record<string, unknown>, token = tokens.op719) =>
      admin.call(
        api.adjust,
        { siteId: 719, specificationId: specId, delta: 5, reason: '盘点', ...over },
        token,
      );
    expect((await adjust({ reason: ' ' })).body.msg).toBe(ADMIN_MSG.reasonRequired);
    expect((await adjust({ reason: undefined })).body.code).toBe(400);
    expect((await adjust({ delta: 0 })).body.msg).toBe(CATALOGUE_MSG.zeroDelta);
    expect((await adjust({ delta: 1.5 })).body.code).toBe(400);
    expect((await adjust({ delta: 10_000_000 })).body.code).toBe(400);
    expect((await adjust({ delta: -(start + 1) })).body.msg).toBe(CATALOGUE_MSG.stockShort);
    expect((await adjust({ siteId: 10110 })).body).toMatchObject({ code: 403 });
    expect((await adjust({}, tokens.cs10110)).body.code).toBe(403);
    expect((await adjust({}, tokens.finance)).body.code).toBe(403);
    // A specification 719 does not sell (another site's): 403.
    const foreign = (await specsOf(NOT_ON_719[2] as number))[0]?.id;
    expect((await adjust({ specificationId: foreign })).body).toMatchObject({
      code: 403,
      msg: CATALOGUE_MSG.specNotOnSite,
    });
    expect(await stockOf(specId)).toBe(start);
    expect(await moves(specId)).toEqual([]);
    expect(await audits('stock.adjust')).toEqual([]);
  });

  it('adjusts with a reason: the stock, a ledger row and an audit row; the ledger view shows it', async () => {
    const start = await stockOf(specId);
    const answer = await admin.call(
      api.adjust,
      { siteId: 719, specificationId: specId, delta: 5, reason: '到货入库' },
      tokens.op719,
    );
    expect(answer.body.data).toMatchObject({ specificationId: specId, stock: start + 5 });
    expect(await moves(specId)).toMatchObject([
      { delta: 5, stockAfter: start + 5, siteId: 719, reason: '到货入库' },
    ]);
    expect(await audits('stock.adjust')).toMatchObject([
      {
        siteId: 719,
        entityId: String(specId),
        before: { stock: start },
        after: { stock: start + 5 },
        reason: '到货入库',
      },
    ]);
    const ledger = await admin.call(api.moves, { siteId: 719, specificationId: specId }, tokens.op719);
    expect(ledger.body.data.list).toMatchObject([
      { delta: 5, stockAfter: start + 5, operatorName: '汇通运营', reason: '到货入库' },
    ]);
    expect(
      (await admin.call(api.moves, { siteId: 10110, specificationId: specId }, tokens.op719)).body.code,
    ).toBe(403);
    const list = await admin.call(api.stock, { siteId: 719, keyword: '7' }, tokens.op719);
    expect(list.body.data.list.find((s) => s.specificationId === specId)?.stock).toBe(start + 5);
  });

  it('stays exact under parallel adjustments: 20 × -1 on stock 10 → 10 succeed, stock 0, 10 ledger rows', async () => {
    const start = await stockOf(specId);
    await admin.call(
      api.adjust,
      { siteId: 719, specificationId: specId, delta: 10 - start, reason: '校准为 10' },
      tokens.op719,
    );
    expect(await stockOf(specId)).toBe(10);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin.call(
          api.adjust,
          { siteId: 719, specificationId: specId, delta: -1, reason: '并发出库' },
          tokens.op719,
        ),
      ),
    );
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.body.msg === CATALOGUE_MSG.stockShort)).toHaveLength(10);
    expect(await stockOf(specId)).toBe(0);
    const rows = (await moves(specId)).filter((m) => m.reason === '并发出库');
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.stockAfter).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await audits('stock.adjust')).filter((a) => a.reason === '并发出库')).toHaveLength(10);
    // On the low-stock list now.
    const low = await admin.call(api.lowStock, { siteId: 719 }, tokens.op719);
    expect(low.body.data.list.map((s) => s.specificationId)).toContain(specId);
    expect((await admin.call(api.lowStock, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
  });

  it('hides who and why of moves made through sites outside the caller’s scope', async () => {
    // Product 7 sells on 10110 too: the platform admin adjusts it there.
    if (!(await listed(10110, 7))) return;
    await admin.call(
      api.adjust,
      { siteId: 10110, specificationId: specId, delta: 3, reason: '10110 入库' },
      tokens.admin,
    );
    const ledger = await admin.call(api.moves, { siteId: 719, specificationId: specId }, tokens.op719);
    expect(ledger.body.data.list[0]).toMatchObject({
      siteId: 10110,
      delta: 3,
      operatorName: '其他站点',
      reason: '',
    });
    const mine = await admin.call(api.moves, { siteId: 719, specificationId: specId }, tokens.admin);
    expect(mine.body.data.list[0]).toMatchObject({ operatorName: '平台管理员', reason: '10110 入库' });
  });
});

describe('a new product of the shared catalogue', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    siteId: 719,
    name: '运营新建 保温杯',
    brand: '测试牌',
    shopId: 1,
    source: 2,
    categoryId: cat719,
    specs: [
      { specificationValue: '500ml 白色', stock: 30, price: 4_900 },
      { specificationValue: '750ml 黑色', stock: 0, price: 5_900 },
    ],
    limitNum: 0,
    ...over,
  });

  it('refuses bad specifications, prices, sources, categories and other sites; nothing is created', async () => {
    const products = async () => (await t.db.select({ n: count() }).from(productSpecification))[0]?.n;
    const before = await products();
    const bad: [Record<string, unknown>, number | string][] = [
      [{ specs: [] }, 400],
      [{ specs: [{ specificationValue: '一', stock: -1, price: 100 }] }, 400],
      [{ specs: [{ specificationValue: '一', stock: 1, price: 0 }] }, 400],
      [{ specs: [{ specificationValue: '一', stock: 1, price: 10.5 }] }, 400],
      [{ specs: [{ specificationValue: '一', stock: 1, price: MAX_SITE_PRICE + 1 }] }, 400],
      [
        {
          specs: [
            { specificationValue: '一', stock: 1, price: 100 },
            { specificationValue: '一 ', stock: 1, price: 100 },
          ],
        },
        CATALOGUE_MSG.specsDuplicate,
      ],
      [{ name: ' ' }, '商品名称不能为空'],
      [{ source: 7 }, CATALOGUE_MSG.sourceInvalid],
      [{ shopId: 2_000_000_000 }, CATALOGUE_MSG.shopMissing],
      [{ categoryId: cat10110 }, CATALOGUE_MSG.categoryMissing],
      [{ siteId: 10110 }, ADMIN_MSG.forbiddenSite],
    ];
    for (const [over, expected] of bad) {
      const answer = await admin.call(api.create, body(over), tokens.op719);
      if (typeof expected === 'number') expect(answer.body.code, JSON.stringify(over)).toBe(expected);
      else expect(answer.body.msg, JSON.stringify(over)).toBe(expected);
    }
    expect((await admin.call(api.create, body(), tokens.cs10110)).body.code).toBe(403);
    expect(await products()).toBe(before);
    expect(await audits('catalogue.create')).toEqual([]);
  });

  it('creates it with its specifications and opening stock, listed on 719 at its prices', async () => {
    const shops = await admin.call(api.shops, { siteId: 719 }, tokens.op719);
    expect(shops.body.data.list.map((s) => s.id)).toContain(1);
    const answer = await admin.call(api.create, body(), tokens.op719);
    expect(answer.body.data).toMatchObject({ siteId: 719, name: '运营新建 保温杯', price: 4_900, stock: 30 });
    const created = answer.body.data;
    expect(created.specs.map((s) => [s.specificationValue, s.stock, s.price])).toEqual([
      ['500ml 白色', 30, 4_900],
      ['750ml 黑色', 0, 5_900],
    ]);
    const opening = await t.db
      .select()
      .from(stockMove)
      .where(eq(stockMove.specificationId, created.specs[0]?.id as number));
    expect(opening).toMatchObject([{ delta: 30, stockAfter: 30, siteId: 719, reason: '新建商品期初库存' }]);
    expect(await audits('catalogue.create')).toMatchObject([
      { siteId: 719, entityId: String(created.productId) },
    ]);
    const detail = await detailOn(719, created.productId);
    expect(detail.body.data).toMatchObject({ name: '运营新建 保温杯', price: 4_900, isOnSale: true });
    expect((await detailOn(10110, created.productId)).body.code).not.toBe(200);
    // Another site may list it from the shared catalogue now.
    const shared = await admin.call(api.shared, { siteId: 10110, keyword: '保温杯' }, tokens.admin);
    expect(shared.body.data.list.map((p) => p.id)).toContain(created.productId);
  });
});

describe('catalogue console permission matrix', () => {
  const NONE = 2_000_000_000;
  /** Allowed writes are shaped to be refused on their own terms (no such product), so nothing changes. */
  const ROUTES: [Endpoint, (siteId: number) => Record<string, unknown>][] = [
    [api.products, (siteId) => ({ siteId })],
    [api.exportProducts, (siteId) => ({ siteId, keyword: 'no-such-product' })],
    [api.categories, (siteId) => ({ siteId })],
    [api.shared, (siteId) => ({ siteId })],
    [
      api.list,
      (siteId) => ({
        siteId,
        productId: NONE,
        categoryId: NONE,
        prices: [{ specificationId: NONE, price: 1 }],
      }),
    ],
    [api.setPrices, (siteId) => ({ siteId, productId: NONE, prices: [{ specificationId: NONE, price: 1 }] })],
    [api.setSale, (siteId) => ({ siteId, productId: NONE, isOnSale: false })],
    [api.setLimit, (siteId) => ({ siteId, productId: NONE, limitNum: 1 })],
    [api.shops, (siteId) => ({ siteId })],
    [
      api.create,
      (siteId) => ({
        siteId,
        name: '矩阵',
        shopId: NONE,
        source: 2,
        categoryId: NONE,
        specs: [{ specificationValue: '一', stock: 1, price: 1 }],
      }),
    ],
    // No such product (404) or no file (400): allowed, refused on their own terms.
    [api.pictures, (siteId) => ({ siteId, productId: NONE })],
    [api.uploadPicture, (siteId) => ({ siteId, productId: NONE })],
    [api.arrangePictures, (siteId) => ({ siteId, productId: NONE, images: ['/media/x.png'] })],
    [api.removePicture, (siteId) => ({ siteId, productId: NONE, url: '/media/x.png' })],
    [api.importProducts, (siteId) => ({ siteId })],
    [api.menus, (siteId) => ({ siteId })],
    [api.saveMenu, (siteId) => ({ siteId, level: 'category', id: NONE, name: '矩阵' })],
    [api.assignCategory, (siteId) => ({ siteId, categoryId: NONE, productIds: [NONE] })],
    [api.stock, (siteId) => ({ siteId })],
    [api.lowStock, (siteId) => ({ siteId })],
    [api.moves, (siteId) => ({ siteId, specificationId: NONE })],
    [api.adjust, (siteId) => ({ siteId, specificationId: NONE, delta: 1, reason: '矩阵测试' })],
  ];

  it('covers every route of the contract', () => {
    expect(new Set(ROUTES.map(([e]) => e))).toEqual(new Set(Object.values(api)));
  });

  it('answers each route allowed or 403 as the permission table says; nothing is written', async () => {
    const mismatches: string[] = [];
    const before = await auditCount();
    const moveRows = async () => (await t.db.select({ n: count() }).from(stockMove))[0]?.n ?? 0;
    const movesBefore = await moveRows();
    for (const { username } of DEMO_OPERATORS)
      for (const [declared, payload] of ROUTES)
        for (const { id: siteId } of DEMO_SITES) {
          const answer = await admin.call(declared, payload(siteId), tokens[username]);
          const code = answer.body?.code ?? answer.status;
          const allowed = holds(username, declared.operator as string, siteId);
          if (allowed !== (code !== 403 && code !== 401))
            mismatches.push(`${username} ${declared.path} ${siteId}: ${code} ${answer.body?.msg ?? ''}`);
        }
    expect(mismatches).toEqual([]);
    expect(await auditCount()).toBe(before);
    expect(await moveRows()).toBe(movesBefore);
  });
});
