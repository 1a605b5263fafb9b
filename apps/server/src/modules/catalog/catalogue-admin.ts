import {
  type AdminSiteProduct,
  type AdminSpec,
  CATALOGUE_MSG,
  type CreateProductBody,
  type ListProductBody,
  type ProductSearchBody,
  type SetPricesBody,
  type SharedProduct,
  type SiteCategory,
  SOURCE_TYPES,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, ilike, inArray, min, notExists, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { excel } from '../../lib/xlsx';
import { type OperatorCtx, requireSiteAccess } from '../admin/admin.service';
import { audited } from '../admin/audit';
import { announceCatalogChange } from './catalog.service';
import {
  category,
  categoryGroup,
  categoryLabel,
  product,
  productSpecification,
  shop,
  sitePrice,
  siteProduct,
} from './catalog.tables';
import { openSpecifications } from './inventory';
import { indexTerms } from './search-terms';

/**
 * The catalogue screen's services: what a site sells from the shared catalogue, at what price
 * per specification, on or off sale and with what purchase limit. Every write is audited in its
 * transaction and announces the change (the catalogue cache's NOTIFY drops every process's
 * cached search results and hot words of the site when it commits).
 */

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A product id typed whole, or part of a name. */
function keywordFilter(keyword: string | undefined): SQL | undefined {
  const text = keyword?.trim();
  if (!text) return undefined;
  const byName = ilike(product.name, `%${escapeLike(text)}%`);
  return /^\d{1,9}$/.test(text) ? or(eq(product.id, Number(text)), byName) : byName;
}

/** The specifications of products with their prices on the site (null: none there). */
async function specsOf(db: Db, siteId: number, productIds: number[]): Promise<Map<number, AdminSpec[]>> {
  const out = new Map<number, AdminSpec[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return out;
  const rows = await db
    .select({
      productId: productSpecification.productId,
      id: productSpecification.id,
      specificationValue: productSpecification.specificationValue,
      stock: productSpecification.stock,
      price: sitePrice.price,
    })
    .from(productSpecification)
    .leftJoin(
      sitePrice,
      and(eq(sitePrice.specificationId, productSpecification.id), eq(sitePrice.siteId, siteId)),
    )
    .where(inArray(productSpecification.productId, productIds))
    .orderBy(asc(productSpecification.sort), asc(productSpecification.id));
  for (const { productId, ...spec } of rows) out.get(productId)?.push(spec);
  return out;
}

const productFields = {
  siteId: siteProduct.siteId,
  productId: product.id,
  name: product.name,
  brand: product.brand,
  categoryId: category.id,
  categoryName: category.catName,
  price: siteProduct.price,
  marketPrice: product.marketPrice,
  sales: siteProduct.sales,
  isOnSale: siteProduct.isOnSale,
  limitNum: siteProduct.limitNum,
  listedAt: siteProduct.listedAt,
};
type ProductRow = { [K in keyof typeof productFields]: (typeof productFields)[K]['_']['data'] };

async function withSpecs(db: Db, siteId: number, rows: ProductRow[]): Promise<AdminSiteProduct[]> {
  const specs = await specsOf(
    db,
    siteId,
    rows.map((r) => r.productId),
  );
  return rows.map((r) => {
    const list = specs.get(r.productId) ?? [];
    return {
      ...r,
      listedAt: r.listedAt.toISOString(),
      specs: list,
      stock: list.reduce((sum, s) => sum + s.stock, 0),
    };
  });
}

const productQuery = (db: Db) =>
  db
    .select(productFields)
    .from(siteProduct)
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .innerJoin(category, eq(category.id, siteProduct.categoryId));

const searchWhere = (query: ProductSearchBody) =>
  and(
    eq(siteProduct.siteId, query.siteId),
    keywordFilter(query.keyword),
    query.onSale === undefined ? undefined : eq(siteProduct.isOnSale, query.onSale === 1),
    query.categoryId ? eq(siteProduct.categoryId, query.categoryId) : undefined,
  );
// Newest listings first: what an operator has just put on sale is on top.
const listOrder = [desc(siteProduct.listedAt), desc(siteProduct.productId)];

/** The site's products, searched by id or name, filtered by sale state and category. */
export async function siteProducts(ctx: OperatorCtx, query: ProductSearchBody) {
  const where = searchWhere(query);
  return listPage({
    pageNum: query.pageNum,
    rows: productQuery(ctx.db)
      .where(where)
      .orderBy(...listOrder),
    total: ctx.db
      .select({ n: count() })
      .from(siteProduct)
      .innerJoin(product, eq(product.id, siteProduct.productId))
      .where(where),
    present: (rows) => withSpecs(ctx.db, query.siteId, rows),
  });
}

/** One product as the site sells it; undefined when the site does not sell it. */
export async function siteProductOf(db: Db, siteId: number, productId: number) {
  const rows = await productQuery(db).where(
    and(eq(siteProduct.siteId, siteId), eq(siteProduct.productId, productId)),
  );
  return (await withSpecs(db, siteId, rows))[0];
}

const notListed = () => new AppError(404, CATALOGUE_MSG.notListed);

/** The site's categories as "label / group / category", in menu order. */
export async function siteCategories(db: Db, siteId: number): Promise<SiteCategory[]> {
  const rows = await db
    .select({
      id: category.id,
      label: categoryLabel.lableName,
      group: categoryGroup.levelName,
      name: category.catName,
    })
    .from(category)
    .innerJoin(categoryGroup, eq(categoryGroup.id, category.groupId))
    .innerJoin(categoryLabel, eq(categoryLabel.id, categoryGroup.labelId))
    .where(eq(category.siteId, siteId))
    .orderBy(asc(categoryLabel.sort), asc(categoryGroup.sort), asc(category.sort), asc(category.id));
  return rows.map((r) => ({ id: r.id, path: `${r.label} / ${r.group} / ${r.name}` }));
}

/** Products of the shared catalogue the site does not sell yet. */
export async function sharedProducts(
  ctx: OperatorCtx,
  query: { siteId: number; keyword?: string; pageNum?: number },
) {
  const where = and(
    keywordFilter(query.keyword),
    notExists(
      ctx.db
        .select({ one: sql`1` })
        .from(siteProduct)
        .where(and(eq(siteProduct.siteId, query.siteId), eq(siteProduct.productId, product.id))),
    ),
  );
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db
      .select({ id: product.id, name: product.name, brand: product.brand, marketPrice: product.marketPrice })
      .from(product)
      .where(where)
      .orderBy(asc(product.id)),
    total: ctx.db.select({ n: count() }).from(product).where(where),
    present: async (rows): Promise<SharedProduct[]> => {
      const specs = await specsOf(
        ctx.db,
        query.siteId,
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({ ...r, specs: specs.get(r.id) ?? [] }));
    },
  });
}

/** Whether the category is one of the site's. */
async function categoryOfSite(db: Db, siteId: number, categoryId: number) {
  const [row] = await db
    .select({ id: category.id })
    .from(category)
    .where(and(eq(category.id, categoryId), eq(category.siteId, siteId)));
  if (!row) throw failure(CATALOGUE_MSG.categoryMissing);
}

/** The product's specification ids; every priced id must be one of them. */
async function checkSpecs(db: Db, productId: number, prices: { specificationId: number }[], all: boolean) {
  const ids = (
    await db
      .select({ id: productSpecification.id })
      .from(productSpecification)
      .where(eq(productSpecification.productId, productId))
  ).map((r) => r.id);
  const own = new Set(ids);
  const named = new Set(prices.map((p) => p.specificationId));
  if (named.size !== prices.length || [...named].some((id) => !own.has(id)))
    throw failure(CATALOGUE_MSG.specMissing);
  if (all && named.size !== own.size) throw failure(CATALOGUE_MSG.pricesIncomplete);
}

/** Writes the specification prices and the product's list price (their lowest). */
export async function writePrices(
  tx: Db,
  siteId: number,
  productId: number,
  prices: { specificationId: number; price: number }[],
) {
  await tx
    .insert(sitePrice)
    .values(prices.map((p) => ({ siteId, productId, ...p })))
    .onConflictDoUpdate({
      target: [sitePrice.siteId, sitePrice.specificationId],
      set: { price: sql`excluded.price` },
    });
  const [lowest] = await tx
    .select({ price: min(sitePrice.price) })
    .from(sitePrice)
    .where(and(eq(sitePrice.siteId, siteId), eq(sitePrice.productId, productId)));
  await tx
    .update(siteProduct)
    .set({ price: lowest?.price ?? 0 })
    .where(and(eq(siteProduct.siteId, siteId), eq(siteProduct.productId, productId)));
}

const priceMap = (p: AdminSiteProduct | undefined) =>
  p ? Object.fromEntries(p.specs.map((s) => [s.id, s.price])) : null;

/** Puts a product of the shared catalogue on the site at a price per specification. */
export async function listProduct(ctx: OperatorCtx, body: ListProductBody): Promise<AdminSiteProduct> {
  requireSiteAccess(ctx, 'catalogue:manage', body.siteId);
  const [found] = await ctx.db.select({ id: product.id }).from(product).where(eq(product.id, body.productId));
  if (!found) throw new AppError(404, CATALOGUE_MSG.productMissing);
  await categoryOfSite(ctx.db, body.siteId, body.categoryId);
  await checkSpecs(ctx.db, body.productId, body.prices, true);
  await audited(ctx, async (tx, record) => {
    // The primary key (site, product) decides between parallel listings: one row, one winner.
    const [listed] = await tx
      .insert(siteProduct)
      .values({
        siteId: body.siteId,
        productId: body.productId,
        categoryId: body.categoryId,
        price: Math.min(...body.prices.map((p) => p.price)),
        limitNum: body.limitNum ?? 0,
        isOnSale: body.isOnSale ?? true,
      })
      .onConflictDoNothing()
      .returning({ productId: siteProduct.productId });
    if (!listed) throw failure(CATALOGUE_MSG.alreadyListed);
    await writePrices(tx, body.siteId, body.productId, body.prices);
    await record({
      siteId: body.siteId,
      action: 'catalogue.list',
      entity: 'site_product',
      entityId: body.productId,
      before: null,
      after: {
        categoryId: body.categoryId,
        prices: Object.fromEntries(body.prices.map((p) => [p.specificationId, p.price])),
        limitNum: body.limitNum ?? 0,
        isOnSale: body.isOnSale ?? true,
      },
      reason: body.reason?.trim() ?? '',
    });
    await announceCatalogChange(tx, body.siteId);
  });
  return (await siteProductOf(ctx.db, body.siteId, body.productId)) as AdminSiteProduct;
}

/**
 * A change of a listed product (prices, sale state, limit): the row locked, the change and its
 * audit row with before and after in one transaction.
 */
async function changeListed(
  ctx: OperatorCtx,
  input: { siteId: number; productId: number; reason?: string },
  action: string,
  change: (tx: Db, before: AdminSiteProduct) => Promise<{ before: unknown; after: unknown }>,
): Promise<AdminSiteProduct> {
  requireSiteAccess(ctx, 'catalogue:manage', input.siteId);
  await audited(ctx, async (tx, record) => {
    const [locked] = await tx
      .select({ productId: siteProduct.productId })
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, input.siteId), eq(siteProduct.productId, input.productId)))
      .for('update');
    if (!locked) throw notListed();
    const before = (await siteProductOf(tx, input.siteId, input.productId)) as AdminSiteProduct;
    const diff = await change(tx, before);
    await record({
      siteId: input.siteId,
      action,
      entity: 'site_product',
      entityId: input.productId,
      ...diff,
      reason: input.reason?.trim() ?? '',
    });
    await announceCatalogChange(tx, input.siteId);
  });
  return (await siteProductOf(ctx.db, input.siteId, input.productId)) as AdminSiteProduct;
}

export async function setPrices(ctx: OperatorCtx, body: SetPricesBody) {
  await checkSpecs(ctx.db, body.productId, body.prices, false);
  return changeListed(ctx, body, 'catalogue.price', async (tx, before) => {
    await writePrices(tx, body.siteId, body.productId, body.prices);
    return {
      before: priceMap(before),
      after: priceMap(await siteProductOf(tx, body.siteId, body.productId)),
    };
  });
}

export async function setSale(
  ctx: OperatorCtx,
  body: { siteId: number; productId: number; isOnSale: boolean; reason?: string },
) {
  return changeListed(ctx, body, 'catalogue.sale', async (tx, before) => {
    await tx
      .update(siteProduct)
      .set({ isOnSale: body.isOnSale })
      .where(and(eq(siteProduct.siteId, body.siteId), eq(siteProduct.productId, body.productId)));
    return { before: { isOnSale: before.isOnSale }, after: { isOnSale: body.isOnSale } };
  });
}

export async function setLimit(
  ctx: OperatorCtx,
  body: { siteId: number; productId: number; limitNum: number; reason?: string },
) {
  return changeListed(ctx, body, 'catalogue.limit', async (tx, before) => {
    await tx
      .update(siteProduct)
      .set({ limitNum: body.limitNum })
      .where(and(eq(siteProduct.siteId, body.siteId), eq(siteProduct.productId, body.productId)));
    return { before: { limitNum: before.limitNum }, after: { limitNum: body.limitNum } };
  });
}

/** The shops that supply the shared catalogue, for a new product. */
export async function shopChoices(db: Db) {
  return db.select({ id: shop.id, shopName: shop.shopName }).from(shop).orderBy(asc(shop.id));
}

/**
 * A new product of the shared catalogue (physical goods of a shop, one or more specifications
 * with their opening stock in the stock ledger), listed on the site at its prices: all in one
 * transaction with its audit row.
 */
export async function createProduct(ctx: OperatorCtx, body: CreateProductBody): Promise<AdminSiteProduct> {
  requireSiteAccess(ctx, 'catalogue:manage', body.siteId);
  const name = body.name.trim();
  const brand = body.brand?.trim() ?? '';
  const specs = body.specs.map((s) => ({ ...s, specificationValue: s.specificationValue.trim() }));
  if (!name) throw failure('商品名称不能为空');
  if (specs.some((s) => !s.specificationValue)) throw failure('规格名称不能为空');
  if (new Set(specs.map((s) => s.specificationValue)).size !== specs.length)
    throw failure(CATALOGUE_MSG.specsDuplicate);
  if (!SOURCE_TYPES.some((t) => t.source === body.source && t.hasAddressTab))
    throw failure(CATALOGUE_MSG.sourceInvalid);
  const [owner] = await ctx.db.select({ id: shop.id }).from(shop).where(eq(shop.id, body.shopId));
  if (!owner) throw failure(CATALOGUE_MSG.shopMissing);
  await categoryOfSite(ctx.db, body.siteId, body.categoryId);
  const terms = indexTerms(`${brand} ${name}`);
  const productId = await audited(ctx, async (tx, record) => {
    const [created] = await tx
      .insert(product)
      .values({
        shopId: body.shopId,
        kind: 'operator',
        brand,
        name,
        source: body.source,
        marketPrice: Math.max(...specs.map((s) => s.price)),
        nameTerms: terms.words,
        charTerms: terms.chars,
      })
      .returning({ id: product.id });
    const id = created?.id as number;
    const specIds = await openSpecifications(tx, id, specs, {
      siteId: body.siteId,
      operatorId: ctx.operator.id,
      reason: '新建商品期初库存',
    });
    const prices = specIds.map((specificationId, i) => ({
      specificationId,
      price: specs[i]?.price as number,
    }));
    await tx.insert(siteProduct).values({
      siteId: body.siteId,
      productId: id,
      categoryId: body.categoryId,
      price: Math.min(...prices.map((p) => p.price)),
      limitNum: body.limitNum ?? 0,
      isOnSale: body.isOnSale ?? true,
    });
    await writePrices(tx, body.siteId, id, prices);
    await record({
      siteId: body.siteId,
      action: 'catalogue.create',
      entity: 'product',
      entityId: id,
      before: null,
      after: { name, brand, shopId: body.shopId, source: body.source, categoryId: body.categoryId, specs },
    });
    await announceCatalogChange(tx, body.siteId);
    return id;
  });
  return (await siteProductOf(ctx.db, body.siteId, productId)) as AdminSiteProduct;
}

/** Products one export holds (a working sheet, not an archive). */
const EXPORT_MAX = 10_000;

/** The site's product list as xlsx, one row per specification, with the screen's filters. */
export async function exportProducts(ctx: OperatorCtx, query: ProductSearchBody): Promise<Buffer> {
  const rows = await productQuery(ctx.db)
    .where(searchWhere(query))
    .orderBy(...listOrder)
    .limit(EXPORT_MAX);
  const products = await withSpecs(ctx.db, query.siteId, rows);
  const workbook = new (await excel()).Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet('站点商品');
  sheet.columns = [
    { header: '商品编号', key: 'productId', width: 10 },
    { header: '商品名称', key: 'name', width: 40 },
    { header: '品牌', key: 'brand', width: 14 },
    { header: '分类', key: 'categoryName', width: 14 },
    { header: '规格编号', key: 'specId', width: 10 },
    { header: '规格', key: 'spec', width: 24 },
    { header: '站点价（元）', key: 'price', width: 12 },
    { header: '库存', key: 'stock', width: 10 },
    { header: '状态', key: 'state', width: 8 },
    { header: '限购', key: 'limitNum', width: 8 },
    { header: '销量', key: 'sales', width: 10 },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  sheet.getColumn('price').numFmt = '0.00';
  for (const p of products)
    for (const s of p.specs)
      sheet.addRow({
        productId: p.productId,
        name: p.name,
        brand: p.brand,
        categoryName: p.categoryName,
        specId: s.id,
        spec: s.specificationValue,
        price: s.price === null ? '' : s.price / 100,
        stock: s.stock,
        state: p.isOnSale ? '在售' : '已下架',
        limitNum: p.limitNum || '不限',
        sales: p.sales,
      });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
