import type { BooksReport } from '@sitemall/contract';
import type { RequestContext } from '../../context';
import { runBooks } from '../../lib/books';
import { CARD_BOOKS } from '../packs/books';
import { WECHAT_BOOKS } from '../payment/books';
import { POINTS_BOOKS } from '../points/books';
import type { SiteScope } from './admin.service';

/**
 * 账务核对 over every ledger: points, cards and WeChat money (each module states its own rules),
 * on the sites of the scope.
 */
export const checkBooks = (ctx: RequestContext, scope: SiteScope): Promise<BooksReport> =>
  runBooks(ctx.db, scope, [...POINTS_BOOKS, ...CARD_BOOKS, ...WECHAT_BOOKS]);
