import { MAX_PAGE, PAGE_SIZE, pageLimitMessage } from '@sitemall/contract';
import { badRequest } from './errors';
import { ttlCache } from './ttl-cache';

/** The OFFSET of a page; pages past MAX_PAGE get a clear msg instead of a slow scan. */
export function offsetOf(pageNum = 1): number {
  if (pageNum > MAX_PAGE) throw badRequest(pageLimitMessage);
  return (pageNum - 1) * PAGE_SIZE;
}

/** A page of a list as list endpoints answer it. */
export interface ListPage<Item> {
  list: Item[];
  total: number;
  pageNum: number;
  pageSize: number;
}

/** The answer of a list with nothing to show (an operator without a site to read). */
export const emptyPage = <Item>(pageNum: number): ListPage<Item> => ({
  list: [],
  total: 0,
  pageNum,
  pageSize: PAGE_SIZE,
});

/**
 * A query that still takes its LIMIT and OFFSET: a drizzle select, filtered and ordered but not
 * yet limited (the builder is a thenable, so nothing runs until the page is applied and awaited).
 */
export interface Pageable<Row> {
  limit(limit: number): { offset(offset: number): PromiseLike<Row[]> };
}

/**
 * Totals of big lists are kept a while per process: counting 1,000,000 listings of a site took
 * 0.2 s a page (`seed --scale`), 100,000 orders of a site 15-90 ms, and nobody pages past
 * MAX_PAGE of such a list. A total under COUNT_CACHED_FROM is counted on every request, exact
 * right after any change; a bigger one can be COUNT_TTL_MS old (the rows never are).
 */
export const COUNT_CACHED_FROM = 10_000;
const COUNT_TTL_MS = 10_000;
const bigTotals = ttlCache<string, number>({ ttlMs: COUNT_TTL_MS, max: 10_000 });

/** The total of the list `key` (everything that filters it), kept when it was last counted big. */
export const keptTotal = (key: string): number | undefined => bigTotals.get(key);

/** Keeps the total of the list `key` if it is big enough to be worth not counting again. */
export function keepTotal(key: string, total: number): void {
  if (total >= COUNT_CACHED_FROM) bigTotals.set(key, total);
}

/**
 * A page of a list: the page's rows and the whole list's total, read at once. `rows` is the
 * ordered query before its LIMIT (or a function given limit and offset, for queries that are not
 * one drizzle select); `total` is a `select({ n: count() })` with the same filter. The page
 * number defaults to 1 and passes through offsetOf, so pages past MAX_PAGE are refused before any
 * query runs; `present` turns the rows into what the endpoint shows. With `totalKey` (the list
 * and all its filters, the page number aside) a big total is kept (keepTotal) and `total`, a lazy
 * drizzle query, is not run while it is.
 */
export async function listPage<Row, Item = Row>(page: {
  pageNum: number | undefined;
  rows: Pageable<Row> | ((limit: number, offset: number) => PromiseLike<Row[]>);
  total: PromiseLike<{ n: number }[]>;
  totalKey?: string;
  present?: (rows: Row[]) => Item[] | Promise<Item[]>;
}): Promise<ListPage<Item>> {
  const pageNum = page.pageNum ?? 1;
  const offset = offsetOf(pageNum);
  const rows =
    typeof page.rows === 'function'
      ? page.rows(PAGE_SIZE, offset)
      : page.rows.limit(PAGE_SIZE).offset(offset);
  const kept = page.totalKey === undefined ? undefined : keptTotal(page.totalKey);
  const counting = kept === undefined ? Promise.resolve(page.total).then(([c]) => c?.n ?? 0) : kept;
  const [found, total] = await Promise.all([rows, counting]);
  if (page.totalKey !== undefined && kept === undefined) keepTotal(page.totalKey, total);
  // Without `present` the rows are the items (Item defaults to Row).
  const list = page.present ? await page.present(found) : (found as unknown as Item[]);
  return { list, total, pageNum, pageSize: PAGE_SIZE };
}
