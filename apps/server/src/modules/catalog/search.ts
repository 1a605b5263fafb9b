import { PAGE_SIZE, type SearchHit, type SearchResult } from '@sitemall/contract';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { offsetOf } from '../../lib/paging';
import type { Site } from '../site/site.service';
import {
  type CardRow,
  cardFields,
  onSaleAt,
  orderOf,
  type SortField,
  type SortKey,
  sortKey,
  toCard,
} from './cards';
import { type CatalogCache, type SiteCatalog, siteOf } from './catalog.service';
import { product, siteProduct } from './catalog.tables';
import { catalogueAnswer } from './catalogue-answers';
import { buildSearchQuery, highlightRanges, normalise, withoutMarkup } from './search-terms';

/**
 * Search queries are not prepared: a prepared statement soon runs a generic plan, and for a
 * text search that plan walks every product of the site (measured: 265 ms against 16 ms on the
 * 100,000-product catalogue). Parameters are still bound; only the plan is made per call.
 */
interface Params {
  siteId: number;
  cateId: number | null;
  minPrice: number | null;
  maxPrice: number | null;
  offset: number;
  q?: string;
  rank?: string;
  phrase?: string;
  text?: string;
}

export interface SearchInput {
  itemName: string;
  cateId?: number;
  minPrice?: number;
  maxPrice?: number;
  sortField?: SortField;
  sortType?: 'asc' | 'desc';
  pageNum?: number;
}

/** The filters every search takes; a null parameter switches its filter off. */
const filters = (p: Params) =>
  and(
    onSaleAt(p.siteId),
    sql`(${p.cateId}::int is null or ${siteProduct.categoryId} = ${p.cateId}::int)`,
    sql`(${p.minPrice}::int is null or ${siteProduct.price} >= ${p.minPrice}::int)`,
    sql`(${p.maxPrice}::int is null or ${siteProduct.price} <= ${p.maxPrice}::int)`,
  ) as SQL;

/**
 * Relevance: the text-search rank (name terms weigh most: SearchQuery.rank), a bonus when the
 * name holds the query as typed, then sales; the product id keeps pages stable.
 */
const relevance = (p: Params) =>
  sql`ts_rank(${product.searchVector}, ${p.rank}::tsquery) + case when lower(${product.name}) like ${p.phrase} then 1 else 0 end`;

function textQuery(db: Db, key: SortKey, p: Params) {
  return db
    .select({ ...cardFields, total: sql<number>`(count(*) over ())::int` })
    .from(siteProduct)
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .where(and(filters(p), sql`${product.searchVector} @@ ${p.q}::tsquery`))
    .orderBy(
      ...(key === 'relevance_desc'
        ? [desc(relevance(p)), desc(siteProduct.sales), desc(siteProduct.productId)]
        : orderOf(key)),
    )
    .limit(PAGE_SIZE)
    .offset(p.offset);
}

/** Partial or misspelt words: trigram word similarity on the name (GIN trigram index). */
function trigramQuery(db: Db, key: SortKey, p: Params) {
  return db
    .select({ ...cardFields, total: sql<number>`(count(*) over ())::int` })
    .from(siteProduct)
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .where(and(filters(p), sql`${p.text}::text <% ${product.name}`))
    .orderBy(
      ...(key === 'relevance_desc'
        ? [desc(sql`word_similarity(${p.text}::text, ${product.name})`), desc(siteProduct.sales)]
        : orderOf(key)),
    )
    .limit(PAGE_SIZE)
    .offset(p.offset);
}

/** Nearest names when nothing matched (similarity over the GIN trigram index). */
function nearestQuery(db: Db, p: { siteId: number; text: string }) {
  return db
    .select(cardFields)
    .from(siteProduct)
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .where(and(onSaleAt(p.siteId), sql`${p.text}::text % ${product.name}`))
    .orderBy(desc(sql`similarity(${p.text}::text, ${product.name})`), desc(siteProduct.sales))
    .limit(5);
}

function bestSellersQuery(db: Db, p: { siteId: number }) {
  return db
    .select(cardFields)
    .from(siteProduct)
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .where(onSaleAt(p.siteId))
    .orderBy(desc(siteProduct.sales), desc(siteProduct.productId))
    .limit(5);
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const hits = (site: Site, rows: CardRow[], keywords: string[]): SearchHit[] =>
  rows.map((row) => ({ ...toCard(site, row), highlights: highlightRanges(row.name, keywords) }));

/**
 * Search (spec section 2, /searchList): every word must match (or a synonym of it); if none
 * does, any word may; if still none, trigram similarity finds partial and misspelt words; an
 * empty answer carries popular words and the nearest products.
 */
export async function searchProducts(
  ctx: RequestContext,
  catalogs: CatalogCache,
  input: SearchInput,
): Promise<SearchResult> {
  const site = siteOf(ctx);
  const catalog = await catalogs.get(site.row.id);
  const itemName = withoutMarkup(input.itemName);
  const key = JSON.stringify([
    'search',
    normalise(itemName).trim(),
    input.cateId,
    input.minPrice,
    input.maxPrice,
    input.sortField,
    input.sortType,
    input.pageNum ?? 1,
  ]);
  return catalogueAnswer(catalog, site, key, () => searchUncached(ctx, site, catalog, itemName, input));
}

async function searchUncached(
  ctx: RequestContext,
  site: Site,
  catalog: SiteCatalog,
  itemName: string,
  input: SearchInput,
): Promise<SearchResult> {
  const pageNum = input.pageNum ?? 1;
  const offset = offsetOf(pageNum);
  const query = buildSearchQuery(itemName);
  const empty: SearchResult = {
    list: [],
    total: 0,
    pageNum,
    pageSize: PAGE_SIZE,
    keywords: query?.keywords ?? [],
    suggestions: { words: catalog.hotWords, products: [] },
  };
  const key = sortKey(input.sortField ?? 'relevance', input.sortType);
  const base = {
    siteId: site.row.id,
    cateId: input.cateId ?? null,
    minPrice: input.minPrice ?? null,
    maxPrice: input.maxPrice ?? null,
    offset,
  };
  const withSuggestions = async (): Promise<SearchResult> => {
    const text = query?.text ?? '';
    const near = text ? ((await nearestQuery(ctx.db, { siteId: site.row.id, text })) as CardRow[]) : [];
    const products = near.length
      ? near
      : ((await bestSellersQuery(ctx.db, { siteId: site.row.id })) as CardRow[]);
    return {
      ...empty,
      suggestions: { words: catalog.hotWords, products: products.map((r) => toCard(site, r)) },
    };
  };
  if (!query) return withSuggestions();

  const phrase = likePattern(normalise(itemName).trim());
  const run = async (stage: 'all' | 'any' | 'trigram', at: number) => {
    const rows = (
      stage === 'trigram'
        ? await trigramQuery(ctx.db, key, { ...base, offset: at, text: query.text })
        : await textQuery(ctx.db, key, { ...base, offset: at, q: query[stage], rank: query.rank, phrase })
    ) as (CardRow & { total: number })[];
    return rows;
  };
  for (const stage of ['all', 'any', 'trigram'] as const) {
    if (stage === 'any' && query.all === query.any) continue;
    let rows = await run(stage, offset);
    // Past the last page: the count still tells the shopper how many there are.
    const total = rows[0]?.total ?? (offset > 0 ? ((await run(stage, 0))[0]?.total ?? 0) : 0);
    if (total === 0) continue;
    if (offset >= total) rows = [];
    return { ...empty, list: hits(site, rows, query.keywords), total };
  }
  return withSuggestions();
}
