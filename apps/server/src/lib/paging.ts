import { MAX_PAGE, PAGE_SIZE, pageLimitMessage } from '@sitemall/contract';
import { badRequest } from './errors';

/** The OFFSET of a page; pages past MAX_PAGE get a clear msg instead of a slow scan. */
export function offsetOf(pageNum = 1): number {
  if (pageNum > MAX_PAGE) throw badRequest(pageLimitMessage);
  return (pageNum - 1) * PAGE_SIZE;
}
