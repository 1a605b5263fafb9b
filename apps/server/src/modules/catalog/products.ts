import { Value } from '@sinclair/typebox/value';
import {
  type CombinedStock,
  isRowId,
  type LimitCheck,
  listFrom,
  MAX_LIST_ITEMS,
  PAGE_SIZE,
  type ProductDetail,
  ProductLine,
  type ProductStock,
  readIntegers,
} from '@sitemall/contract';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { qualified } from '../../lib/columns';
import { badRequest } from '../../lib/errors';
import { offsetOf } from '../../lib/paging';
import { idsMatch, prepared } from '../../lib/prepared';
import type { Site } from '../site/site.service';
import { onSaleAt } from './cards';
import { type CatalogCache, productNotFound, siteOf, sourceOf } from './catalog.service';
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
import { catalogueAnswer } from './catalogue-answers';
import { purchaseProblem } from './purchasable';

/**
 * Products and their specifications as a site sells them: detail, stock and purchase-limit
 * reads, and what other modules (cart, order, voucher, activity, media) need to know of them.
 * Cards and lists are in cards.ts, stock moves in inventory.ts.
 */

const ph = sql.placeholder;

/**
 * A product page is two reads, and the page they make is kept a second (MOVING_TTL_MS), which
 * is what a product that many shoppers open at once (a flash sale, a campaign's landing page)
 * costs the database. What changes only when an operator edits the product or the site's menus
 * (names, pictures, text, shop, category) is kept with the site's other catalogue answers
 * (catalogue-answers.ts): reading it took longer than the rest of the page together, six tables
 * for one row. What moves (price, sales, sale state, limit, each specification's stock and
 * price) is read in one primary-key statement when the kept page has expired. An operator's
 * change of price, sale state or limit announces the site's catalogue, which drops both at
 * once; stock and sales, which orders move and nobody announces, can be a second old. The
 * storefront shows the stock from productStock, read every time, and an order checks its own.
 */
const MOVING_TTL_MS = 1_000;

const pageStatement = (db: Db) =>
  prepared(db, 'catalog_detail_page', (name) =>
    db
      .select({
        id: product.id,
        name: product.name,
        subtitle: product.subtitle,
        brand: product.brand,
        images: product.images,
        detail: product.detail,
        marketPrice: product.marketPrice,
        orderType: product.orderType,
        source: product.source,
        sourceType: product.sourceType,
        shopId: shop.id,
        shopName: shop.shopName,
        shopLogo: shop.logo,
        lableId: categoryLabel.id,
        lableName: categoryLabel.lableName,
        levelId: categoryGroup.id,
        levelName: categoryGroup.levelName,
        catId: category.id,
        catName: category.catName,
      })
      .from(siteProduct)
      .innerJoin(product, eq(product.id, siteProduct.productId))
      .innerJoin(shop, eq(shop.id, product.shopId))
      .innerJoin(category, eq(category.id, siteProduct.categoryId))
      .innerJoin(categoryGroup, eq(categoryGroup.id, category.groupId))
      .innerJoin(categoryLabel, eq(categoryLabel.id, categoryGroup.labelId))
      .where(and(eq(siteProduct.siteId, ph('siteId')), eq(siteProduct.productId, ph('productId'))))
      .prepare(name),
  );

const liveStatement = (db: Db) =>
  prepared(db, 'catalog_detail_live', (name) =>
    db
      .select({
        price: siteProduct.price,
        sales: siteProduct.sales,
        limitNum: siteProduct.limitNum,
        isOnSale: siteProduct.isOnSale,
        // Those with a price on the site, in their display order.
        specifications: sql<{ id: number; specificationValue: string; stock: number; price: number }[]>`(
          select coalesce(json_agg(json_build_object(
            'id', s.id, 'specificationValue', s.specification_value, 'stock', s.stock, 'price', p.price
          ) order by s.sort, s.id), '[]'::json)
          from ${productSpecification} s
          join ${sitePrice} p on p.specification_id = s.id and p.site_id = ${qualified(siteProduct.siteId)}
            and p.product_id = s.product_id
          where s.product_id = ${qualified(siteProduct.productId)})`,
      })
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, ph('siteId')), eq(siteProduct.productId, ph('productId'))))
      .prepare(name),
  );

/** The still part of a product page, as the answer shows it. */
async function productPage(db: Db, site: Site, productId: number) {
  const [row] = await pageStatement(db).execute({ siteId: site.row.id, productId });
  if (!row) throw productNotFound();
  const {
    source,
    sourceType,
    shopId,
    shopName,
    shopLogo,
    lableId,
    lableName,
    levelId,
    levelName,
    catId,
    catName,
    ...rest
  } = row;
  return {
    ...rest,
    source: sourceOf(site, source, sourceType),
    shop: { id: shopId, shopName, logo: shopLogo },
    category: { lableId, lableName, levelId, levelName, id: catId, catName },
  };
}

/** The specifications of a product with their prices on the site; none when the site does not sell it. */
const specificationsStatement = (db: Db) =>
  prepared(db, 'catalog_specifications', (name) =>
    db
      .select({
        id: productSpecification.id,
        specificationValue: productSpecification.specificationValue,
        stock: productSpecification.stock,
        price: sitePrice.price,
      })
      .from(productSpecification)
      .innerJoin(
        sitePrice,
        and(eq(sitePrice.specificationId, productSpecification.id), eq(sitePrice.siteId, ph('siteId'))),
      )
      .where(eq(productSpecification.productId, ph('productId')))
      .orderBy(asc(productSpecification.sort), asc(productSpecification.id))
      .prepare(name),
  );

export async function productDetail(
  ctx: RequestContext,
  catalogs: CatalogCache,
  productId: number,
): Promise<ProductDetail> {
  const site = siteOf(ctx);
  const catalog = await catalogs.get(site.row.id);
  return catalogueAnswer(
    catalog,
    site,
    JSON.stringify(['detail', productId]),
    async () => {
      const [[live], page] = await Promise.all([
        liveStatement(ctx.db).execute({ siteId: site.row.id, productId }),
        catalogueAnswer(catalog, site, JSON.stringify(['detail-still', productId]), () =>
          productPage(ctx.db, site, productId),
        ),
      ]);
      if (!live) throw productNotFound();
      const { specifications, ...moving } = live;
      return {
        ...page,
        ...moving,
        productSpecifications: specifications.map((s) => ({ ...s, hasStock: s.stock > 0 })),
      };
    },
    MOVING_TTL_MS,
  );
}

export async function productStock(ctx: RequestContext, productId: number): Promise<ProductStock> {
  const site = siteOf(ctx);
  const [[row], specs] = await Promise.all([
    ctx.db
      .select({ isOnSale: siteProduct.isOnSale })
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, site.row.id), eq(siteProduct.productId, productId))),
    specificationsStatement(ctx.db).execute({ siteId: site.row.id, productId }),
  ]);
  if (!row) throw productNotFound();
  return {
    productId,
    isOnSale: row.isOnSale,
    productSpecifications: specs.map((s) => ({ id: s.id, stock: s.stock, hasStock: s.stock > 0 })),
  };
}

/** Product lines arrive as a list or, from form data, as its JSON text. */
export function parseLines(value: unknown): ProductLine[] {
  const list = listFrom(value, false);
  if (list === undefined) throw badRequest('参数 productInfos 格式不正确');
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_LIST_ITEMS)
    throw badRequest(`参数 productInfos 须为 1-${MAX_LIST_ITEMS} 条商品`);
  return list.map((item) => {
    const line = readIntegers(ProductLine, Value.Default(ProductLine, structuredClone(item)));
    if (!Value.Check(ProductLine, line)) throw badRequest('参数 productInfos 格式不正确');
    return line;
  });
}

/** Specifications of the given ids that the site sells, with stock and purchase limit. */
async function linesState(db: Db, siteId: number, lines: ProductLine[]) {
  const ids = [...new Set(lines.map((l) => l.specificationId))];
  const rows = await db
    .select({
      id: productSpecification.id,
      productId: productSpecification.productId,
      stock: productSpecification.stock,
      isOnSale: siteProduct.isOnSale,
      limitNum: siteProduct.limitNum,
    })
    .from(productSpecification)
    .innerJoin(
      siteProduct,
      and(eq(siteProduct.productId, productSpecification.productId), eq(siteProduct.siteId, siteId)),
    )
    .where(inArray(productSpecification.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return (line: ProductLine) => {
    const row = byId.get(line.specificationId);
    return row && row.productId === line.productId ? row : undefined;
  };
}

export async function combinedStock(ctx: RequestContext, productInfos: unknown): Promise<CombinedStock> {
  const site = siteOf(ctx);
  const lines = parseLines(productInfos);
  const state = await linesState(ctx.db, site.row.id, lines);
  const list = lines.map((line) => {
    const row = state(line);
    const isOnSale = row?.isOnSale ?? false;
    const stock = isOnSale ? (row?.stock ?? 0) : 0;
    return { ...line, stock, isOnSale, isEnough: isOnSale && stock >= line.num };
  });
  return { isEnough: list.every((l) => l.isEnough), list };
}

/** Purchase limits: on sale here, enough stock, and no more per order than the product's limit. */
export async function limitCheck(ctx: RequestContext, productInfos: unknown): Promise<LimitCheck> {
  const site = siteOf(ctx);
  const lines = parseLines(productInfos);
  const state = await linesState(ctx.db, site.row.id, lines);
  const perProduct = new Map<number, number>();
  for (const l of lines) perProduct.set(l.productId, (perProduct.get(l.productId) ?? 0) + l.num);
  const list = lines.map((line) => {
    const row = state(line);
    const msg = purchaseProblem(row, { ...line, perOrder: perProduct.get(line.productId) });
    return { ...line, limitNum: row?.limitNum ?? 0, stock: row?.stock ?? 0, isPassed: msg === '', msg };
  });
  return { isPassed: list.every((l) => l.isPassed), list };
}

/** What a product tile is drawn from (media module); images are public like any shop's. */
export async function productTileSource(db: Db, id: number) {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .select({ id: product.id, name: product.name, brand: product.brand, kind: product.kind })
    .from(product)
    .where(eq(product.id, id));
  return row;
}

export async function shopTileSource(db: Db, id: number) {
  if (!isRowId(id)) return undefined;
  const [row] = await db.select({ id: shop.id, shopName: shop.shopName }).from(shop).where(eq(shop.id, id));
  return row;
}

/**
 * What the cart and the order need of specifications on a site, read live: the product, its
 * current price here (site_price), stock, on-sale state and purchase limit. A specification
 * not sold on the site is absent from the answer.
 */
export interface SpecificationOnSite {
  specificationId: number;
  productId: number;
  specificationValue: string;
  name: string;
  image: string;
  orderType: number;
  source: number;
  sourceType: number;
  price: number;
  stock: number;
  isOnSale: boolean;
  limitNum: number;
  /** The site's category of the product (voucher scopes). */
  categoryId: number;
}

export async function specificationsOnSite(
  ctx: RequestContext,
  siteId: number,
  specificationIds: readonly number[],
): Promise<Map<number, SpecificationOnSite>> {
  return (await specificationsOnSiteWith(ctx, siteId, specificationIds)).specs;
}

/**
 * Values another module reads in the same statement as the specifications (a checkout's facts
 * of the member and the site: order/checkout-facts.ts): SQL columns with `sql.placeholder`s
 * for `params` (`siteId` is the specifications' own), under a name of their own for the
 * prepared statement.
 */
export interface AlsoRead<A> {
  name: string;
  columns: { [K in keyof A]: SQL<A[K]> };
  params: Record<string, unknown>;
}

/**
 * specificationsOnSite, answering in the same round trip the values `also` reads (undefined
 * when no specification is on the site: there is then no row to carry them).
 */
export async function specificationsOnSiteWith<A extends Record<string, unknown> = Record<string, never>>(
  ctx: RequestContext,
  siteId: number,
  specificationIds: readonly number[],
  also?: AlsoRead<A>,
): Promise<{ specs: Map<number, SpecificationOnSite>; also: A | undefined }> {
  const { db } = ctx;
  if (specificationIds.length === 0) return { specs: new Map(), also: undefined };
  // A buy-now of one specification reads it by `id = $1` (idsMatch): four primary-key probes.
  const byId = idsMatch(productSpecification.id, 'ids', 'int', [...new Set(specificationIds)]);
  const name = `catalog_specifications_on_site_${byId.shape}${also ? `_${also.name}` : ''}`;
  const rows = await prepared(db, name, (name) =>
    db
      .select({
        specificationId: productSpecification.id,
        productId: productSpecification.productId,
        specificationValue: productSpecification.specificationValue,
        name: product.name,
        image: sql<string>`coalesce(${product.images}->>0, '')`,
        orderType: product.orderType,
        source: product.source,
        sourceType: product.sourceType,
        price: sitePrice.price,
        stock: productSpecification.stock,
        isOnSale: siteProduct.isOnSale,
        limitNum: siteProduct.limitNum,
        categoryId: siteProduct.categoryId,
        // The subqueries do not refer to these rows: PostgreSQL runs each once a statement.
        ...(also && {
          also: sql<unknown[]>`json_build_array(${sql.join(Object.values(also.columns), sql`, `)})`,
        }),
      })
      .from(productSpecification)
      .innerJoin(product, eq(product.id, productSpecification.productId))
      .innerJoin(
        siteProduct,
        and(eq(siteProduct.productId, productSpecification.productId), eq(siteProduct.siteId, ph('siteId'))),
      )
      .innerJoin(
        sitePrice,
        and(eq(sitePrice.specificationId, productSpecification.id), eq(sitePrice.siteId, ph('siteId'))),
      )
      .where(byId.where)
      .prepare(name),
  ).execute({ siteId, ...byId.params, ...also?.params });
  const first = rows[0]?.also;
  const keys = Object.keys(also?.columns ?? {});
  return {
    specs: new Map(rows.map(({ also: _also, ...r }) => [r.specificationId, r])),
    also: first && (Object.fromEntries(keys.map((key, i) => [key, first[i]])) as A),
  };
}

/** The specifications (id, specificationValue) of products, for the cart's specification picker. */
export async function specificationOptions(db: Db, productIds: readonly number[]) {
  const byProduct = new Map<number, { id: number; specificationValue: string }[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select({
      id: productSpecification.id,
      productId: productSpecification.productId,
      specificationValue: productSpecification.specificationValue,
    })
    .from(productSpecification)
    .where(inArray(productSpecification.productId, [...new Set(productIds)]))
    .orderBy(asc(productSpecification.sort), asc(productSpecification.id));
  for (const { productId, ...option } of rows) {
    byProduct.set(productId, [...(byProduct.get(productId) ?? []), option]);
  }
  return byProduct;
}

export interface ProductOnSite {
  productId: number;
  name: string;
  specifications: { id: number; specificationValue: string }[];
}

/**
 * Products the site sells, found by id or by exact name (batch ordering, where a sheet may name
 * a product either way). Products of other sites are simply not found.
 */
export async function productsOnSite(
  db: Db,
  siteId: number,
  refs: { ids: readonly number[]; names: readonly string[] },
): Promise<ProductOnSite[]> {
  const ids = [...new Set(refs.ids)];
  const names = [...new Set(refs.names)];
  if (ids.length === 0 && names.length === 0) return [];
  const match = [
    ...(ids.length > 0 ? [inArray(product.id, ids)] : []),
    ...(names.length > 0 ? [inArray(product.name, names)] : []),
  ];
  const rows = await db
    .select({
      productId: product.id,
      name: product.name,
      specificationId: productSpecification.id,
      specificationValue: productSpecification.specificationValue,
    })
    .from(product)
    .innerJoin(siteProduct, and(eq(siteProduct.productId, product.id), eq(siteProduct.siteId, siteId)))
    .innerJoin(productSpecification, eq(productSpecification.productId, product.id))
    .where(match.length === 1 ? match[0] : sql`(${match[0]} or ${match[1]})`)
    .orderBy(asc(product.id), asc(productSpecification.sort), asc(productSpecification.id));
  const byId = new Map<number, ProductOnSite>();
  for (const r of rows) {
    const p = byId.get(r.productId) ?? { productId: r.productId, name: r.name, specifications: [] };
    p.specifications.push({ id: r.specificationId, specificationValue: r.specificationValue });
    byId.set(r.productId, p);
  }
  return [...byId.values()];
}

/** Which products a promotion covers: every product of the site, or some categories, products or sources. */
export interface ProductScope {
  type: 'all' | 'categories' | 'products' | 'sources';
  ids: readonly number[];
}

/** A page of the products on sale on the site within a scope (a voucher's "available products"). */
export async function productsInScope(db: Db, siteId: number, scope: ProductScope, pageNum = 1) {
  const ids = [...scope.ids];
  const within =
    scope.type === 'all'
      ? undefined
      : ids.length === 0
        ? sql`false`
        : scope.type === 'categories'
          ? inArray(siteProduct.categoryId, ids)
          : scope.type === 'products'
            ? inArray(siteProduct.productId, ids)
            : inArray(product.source, ids);
  const where = and(onSaleAt(siteId), within);
  const [rows, [count]] = await Promise.all([
    db
      .select({
        productId: product.id,
        name: product.name,
        image: sql<string>`coalesce(${product.images}->>0, '')`,
        price: siteProduct.price,
      })
      .from(siteProduct)
      .innerJoin(product, eq(product.id, siteProduct.productId))
      .where(where)
      .orderBy(asc(product.id))
      .limit(PAGE_SIZE)
      .offset(offsetOf(pageNum)),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(siteProduct)
      .innerJoin(product, eq(product.id, siteProduct.productId))
      .where(where),
  ]);
  return { list: rows, total: count?.total ?? 0, pageNum, pageSize: PAGE_SIZE };
}
