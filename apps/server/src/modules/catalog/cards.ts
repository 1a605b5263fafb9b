import {
  type HomeProductList,
  idOf,
  isRowId,
  listFrom,
  MAX_LIST_ITEMS,
  PAGE_SIZE,
  type ProductCard,
  type ProductPage,
  type SORT_FIELDS,
} from '@sitemall/contract';
import { and, asc, desc, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { keepTotal, keptTotal, offsetOf } from '../../lib/paging';
import { prepared } from '../../lib/prepared';
import type { Site } from '../site/site.service';
import { type CatalogCache, notFound, siteOf, sourceOf } from './catalog.service';
import { product, siteProduct } from './catalog.tables';
import { catalogueAnswer } from './catalogue-answers';

/**
 * Product cards: the tile every list shows (category lists, home floors, search, shops,
 * specials, "guess you like"), with the sort orders and the prepared list statements.
 */

const ph = sql.placeholder;

/** The columns of a product card; the subqueries run for the ten rows of a page only. */
export const cardFields = {
  id: product.id,
  name: product.name,
  brand: product.brand,
  image: sql<string>`coalesce(${product.images}->>0, '')`.as('image'),
  price: siteProduct.price,
  marketPrice: product.marketPrice,
  sales: siteProduct.sales,
  orderType: product.orderType,
  source: product.source,
  sourceType: product.sourceType,
  // A scalar aggregate, not EXISTS: PostgreSQL may turn an EXISTS into a hashed scan of every
  // specification, where this runs per row of the page through the index.
  hasStock:
    sql<boolean>`coalesce((select bool_or(s.stock > 0) from product_specification s where s.product_id = ${product.id}), false)`.as(
      'has_stock',
    ),
  specificationId:
    sql<number>`coalesce((select x.specification_id from site_price x where x.site_id = ${siteProduct.siteId} and x.product_id = ${product.id} order by x.price, x.specification_id limit 1), 0)`.as(
      'specification_id',
    ),
};
export type CardRow = {
  id: number;
  name: string;
  brand: string;
  image: string;
  price: number;
  marketPrice: number;
  sales: number;
  orderType: number;
  source: number;
  sourceType: number;
  hasStock: boolean;
  specificationId: number;
};

/** Presenter: a database row into the card the contract promises. */
export const toCard = (site: Site, { sourceType, source, ...row }: CardRow): ProductCard => ({
  ...row,
  hasStock: Boolean(row.hasStock),
  specificationId: Number(row.specificationId),
  source: sourceOf(site, source, sourceType),
});

export type SortField = (typeof SORT_FIELDS)[number] | 'relevance';
export type SortKey = `${SortField}_${'asc' | 'desc'}`;

export function sortKey(field: SortField = 'default', type: 'asc' | 'desc' = 'desc'): SortKey {
  return `${field}_${field === 'default' || field === 'relevance' ? 'desc' : type}`;
}

/** ORDER BY of a list; the product id breaks ties so pages never overlap. */
export function orderOf(key: SortKey): SQL[] {
  const [field, type] = key.split('_') as [SortField, 'asc' | 'desc'];
  const dir = type === 'asc' ? asc : desc;
  switch (field) {
    case 'sales':
      return [dir(siteProduct.sales), dir(siteProduct.productId)];
    case 'price':
      return [dir(siteProduct.price), dir(siteProduct.productId)];
    case 'new':
      return [dir(siteProduct.listedAt), dir(siteProduct.productId)];
    default:
      return [desc(siteProduct.sales), desc(siteProduct.productId)];
  }
}

const scopeParams = (categories: number[] = []) => ({ categories, category: categories[0] ?? 0 });
type ScopeParams = ReturnType<typeof scopeParams> & { siteId: number };
type PageParams = { offset: number; limit: number };

/** The listings a shopper of the site sees: the condition of every card list. */
export const onSaleAt = (siteId: number | Placeholder) =>
  and(eq(siteProduct.siteId, siteId), eq(siteProduct.isOnSale, true)) as SQL;
const onSaleHere = () => onSaleAt(ph('siteId'));

/**
 * One category filters by equality, so the (site, category, sort column, product) indexes give
 * the order and the page without sorting; a whole label filters by a list of categories.
 */
type Scope = 'all' | 'category' | 'categories';
const scopeOf = (categories?: number[]): Scope =>
  categories === undefined ? 'all' : categories.length === 1 ? 'category' : 'categories';
const scopeFilter = (scope: Scope) =>
  scope === 'all'
    ? onSaleHere()
    : scope === 'category'
      ? (and(onSaleHere(), eq(siteProduct.categoryId, ph('category'))) as SQL)
      : (and(onSaleHere(), sql`${siteProduct.categoryId} = any(${ph('categories')}::int[])`) as SQL);

/**
 * A page of cards. The page's listings are found first (the sort index and the offset, nothing
 * else), and only its ten rows are joined to their products and given their card columns: a
 * select list is computed for every row an OFFSET skips, so page 5 would otherwise run the
 * stock and cheapest-price subqueries for fifty products to show ten.
 */
function listQuery(db: Db, key: SortKey, scope: Scope) {
  const keys = db
    .select({ siteId: siteProduct.siteId, productId: siteProduct.productId })
    .from(siteProduct)
    .where(scopeFilter(scope))
    .orderBy(...orderOf(key))
    .limit(ph('limit'))
    .offset(ph('offset'))
    .as('keys');
  return db
    .select(cardFields)
    .from(keys)
    .innerJoin(
      siteProduct,
      and(eq(siteProduct.siteId, keys.siteId), eq(siteProduct.productId, keys.productId)),
    )
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .orderBy(...orderOf(key));
}

function listStatement(db: Db, key: SortKey, scope: Scope) {
  return prepared(db, `catalog_list_${key}_${scope}`, (name) => listQuery(db, key, scope).prepare(name));
}

/**
 * A page and its list's total in one round trip: the count (from the index alone) is the one row
 * of `totals`, and the page is a lateral subquery left-joined to it, so a page past the end
 * still answers the total (one row without a card). For that single row PostgreSQL runs the
 * page as the inner side of a nested loop, which keeps the page's order.
 */
function pageAndTotalStatement(db: Db, key: SortKey, scope: Scope) {
  return prepared(db, `catalog_page_total_${key}_${scope}`, (name) => {
    const totals = db
      .select({ total: sql<number>`count(*)::int`.as('total') })
      .from(siteProduct)
      .where(scopeFilter(scope))
      .as('totals');
    const page = listQuery(db, key, scope).as('page');
    const card = Object.fromEntries(
      Object.keys(cardFields).map((k) => [k, page[k as keyof typeof cardFields]]),
    );
    return db
      .select({ total: totals.total, card })
      .from(totals)
      .leftJoinLateral(page, sql`true`)
      .prepare(name);
  });
}

/**
 * The page and its total: one statement, or the page alone while the list's total is kept.
 * A big total is kept from the statement that counted it (lib/paging.ts).
 */
async function pageOf(db: Db, key: SortKey, scope: Scope, params: ScopeParams & PageParams) {
  const totalKey = `cards:${params.siteId}:${scope}:${params.categories.join(',')}`;
  const kept = keptTotal(totalKey);
  if (kept !== undefined) {
    const rows = (await listStatement(db, key, scope).execute(params)) as CardRow[];
    return { rows, total: kept };
  }
  const joined = await pageAndTotalStatement(db, key, scope).execute(params);
  const total = joined[0]?.total ?? 0;
  keepTotal(totalKey, total);
  const rows = joined.flatMap(({ card }) => (card?.id == null ? [] : [card as CardRow]));
  return { rows, total };
}

/** Product list of a category or of a whole label (or of the site), sorted and paged by 10. */
export async function listProducts(
  ctx: RequestContext,
  catalogs: CatalogCache,
  input: {
    cateId?: number;
    lableId?: number;
    sortField?: SortField;
    sortType?: 'asc' | 'desc';
    pageNum?: number;
  },
): Promise<ProductPage> {
  const site = siteOf(ctx);
  const pageNum = input.pageNum ?? 1;
  const offset = offsetOf(pageNum);
  const catalog = await catalogs.get(site.row.id);
  let categories: number[] | undefined;
  if (input.cateId !== undefined) {
    if (!catalog.categoryIds.has(input.cateId)) throw notFound('分类');
    categories = [input.cateId];
  } else if (input.lableId !== undefined) {
    categories = catalog.categoriesOfLabel.get(input.lableId);
    if (!categories) throw notFound('分类标签');
  }
  const scope = scopeOf(categories);
  const key = sortKey(input.sortField, input.sortType);
  const params = { siteId: site.row.id, ...scopeParams(categories), offset, limit: PAGE_SIZE };
  return catalogueAnswer(
    catalog,
    site,
    JSON.stringify(['list', scope, params.categories, key, pageNum]),
    async () => {
      const { rows, total } = await pageOf(ctx.db, key, scope, params);
      return { list: rows.map((r) => toCard(site, r)), total, pageNum, pageSize: PAGE_SIZE };
    },
  );
}

/** Cards of the given products that the site sells, in the order asked. */
export async function cardsByIds(ctx: RequestContext, ids: readonly number[]): Promise<ProductCard[]> {
  const site = siteOf(ctx);
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select(cardFields)
    .from(siteProduct)
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .where(and(onSaleAt(site.row.id), inArray(siteProduct.productId, [...ids])));
  const byId = new Map(rows.map((r) => [r.id, r as CardRow]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toCard(site, row)] : [];
  });
}

/** The ids of a look-up; ids that are not ids are left out (a page of cards, not a checkout). */
export function parseIds(ids: number[] | string): number[] {
  const list = listFrom(ids);
  const found = Array.isArray(list) ? list.map(idOf).filter(isRowId) : [];
  return [...new Set(found)].slice(0, MAX_LIST_ITEMS);
}

/** "Guess you like": best sellers of the product's category, then of the site. */
export async function guessLike(ctx: RequestContext, productId?: number): Promise<ProductCard[]> {
  const site = siteOf(ctx);
  const siteId = site.row.id;
  let categoryId: number | undefined;
  if (productId) {
    const [row] = await ctx.db
      .select({ categoryId: siteProduct.categoryId })
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, siteId), eq(siteProduct.productId, productId)));
    categoryId = row?.categoryId;
  }
  const base = { siteId, offset: 0, limit: PAGE_SIZE + 1 };
  const near = categoryId
    ? await listStatement(ctx.db, 'default_desc', 'category').execute({
        ...base,
        ...scopeParams([categoryId]),
      })
    : [];
  const rows = (near as CardRow[]).filter((r) => r.id !== productId);
  if (rows.length < PAGE_SIZE) {
    const best = (await listStatement(ctx.db, 'default_desc', 'all').execute({
      ...base,
      ...scopeParams(),
      limit: PAGE_SIZE * 2,
    })) as CardRow[];
    for (const r of best) if (r.id !== productId && !rows.some((x) => x.id === r.id)) rows.push(r);
  }
  return rows.slice(0, PAGE_SIZE).map((r) => toCard(site, r));
}

/** Home page floors: the best sellers of each label. */
export async function homeProductList(ctx: RequestContext, catalogs: CatalogCache): Promise<HomeProductList> {
  const site = siteOf(ctx);
  const catalog = await catalogs.get(site.row.id);
  const floors = await Promise.all(
    catalog.labels.map(async (label) => {
      const categories = catalog.categoriesOfLabel.get(label.id) ?? [];
      const rows = await listStatement(ctx.db, 'default_desc', scopeOf(categories)).execute({
        siteId: site.row.id,
        ...scopeParams(categories),
        offset: 0,
        limit: 8,
      });
      return {
        lableId: label.id,
        lableName: label.lableName,
        list: rows.map((r) => toCard(site, r as CardRow)),
      };
    }),
  );
  return { floors: floors.filter((f) => f.list.length > 0) };
}
