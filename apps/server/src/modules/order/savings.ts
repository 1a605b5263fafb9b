import { ORDER_STATUS } from '@sitemall/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import { mallOrder, orderLine } from './order.tables';

/** Orders paid and not refunded (after-sales 31 and ended orders are out). */
const PAID = [ORDER_STATUS.confirming, ORDER_STATUS.awaitingReceipt, ORDER_STATUS.completed];

/** Fen a member saved by member prices: the savings frozen on the lines of paid orders. */
export async function vipSavingTotal(ctx: RequestContext, siteId: number, memberId: number): Promise<number> {
  const { db } = ctx;
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${orderLine.vipSaving}), 0)::int` })
    .from(orderLine)
    .innerJoin(mallOrder, eq(mallOrder.id, orderLine.orderId))
    .where(
      and(eq(mallOrder.siteId, siteId), eq(mallOrder.memberId, memberId), inArray(mallOrder.status, PAID)),
    );
  return Number(row?.total ?? 0);
}
