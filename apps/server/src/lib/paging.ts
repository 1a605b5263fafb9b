import { MAX_PAGE, PAGE_SIZE, pageLimitMessage } from '@sitemall/contract';
import { badRequest } from './errors';

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
 * A page of a list: the page's rows and the whole list's total, read at once. `rows` is the
 * ordered query before its LIMIT (or a function given limit and offset, for queries that are not
 * one drizzle select); `total` is a `select({ n: count() })` with the same filter. The page
 * number defaults to 1 and passes through offsetOf, so pages past MAX_PAGE are refused before any
 * query runs; `present` turns the rows into what the endpoint shows.
 */
export async function listPage<Row, Item = Row>(page: {
  pageNum: number | undefined;
  rows: Pageable<Row> | ((limit: number, offset: number) => PromiseLike<Row[]>);
  total: PromiseLike<{ n: number }[]>;
  present?: (rows: Row[]) => Item[] | Promise<Item[]>;
}): Promise<ListPage<Item>> {
  const pageNum = page.pageNum ?? 1;
  const offset = offsetOf(pageNum);
  const rows =
    typeof page.rows === 'function'
      ? page.rows(PAGE_SIZE, offset)
      : page.rows.limit(PAGE_SIZE).offset(offset);
  const [found, [counted]] = await Promise.all([rows, page.total]);
  // Without `present` the rows are the items (Item defaults to Row).
  const list = page.present ? await page.present(found) : (found as unknown as Item[]);
  return { list, total: counted?.n ?? 0, pageNum, pageSize: PAGE_SIZE };
}
