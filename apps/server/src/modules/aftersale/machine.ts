import {
  AFTER_SALE_MSG,
  AFTER_SALE_STATUS_LABEL,
  type AfterSaleActor,
  type AfterSaleEvent,
  caseTransition,
  isCaseOpen,
  ORDER_STATUS,
} from '@sitemall/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { lockChildOrder } from '../order/lines';
import { moveOrders } from '../order/order.service';
import { afterSale, afterSaleLog } from './aftersale.tables';

export type CaseRow = typeof afterSale.$inferSelect;

const OPEN = sql`${afterSale.status} not in ('refunded', 'completed', 'cancelled', 'rejected', 'return_refused')`;

/**
 * The one writer of a case's status: refuses any move AFTER_SALE_TRANSITIONS does not have
 * for this kind, event and actor; moves the case only if it is still in the status the caller
 * read (a conditional UPDATE: of two parallel operators, one wins and the other is told the
 * case changed); writes the progress line. A case that closes gives its child order back from
 * 31 (after-sales) to 23 when no other case of that child order is open. Run in a transaction.
 *
 * Lock order is child order, then case (as in apply), so openers and closers of one child
 * order queue instead of deadlocking.
 */
export async function moveCase(
  tx: Db,
  row: CaseRow,
  move: { event: AfterSaleEvent; actor: AfterSaleActor; note?: string; set?: Partial<CaseRow> },
): Promise<CaseRow> {
  const t = caseTransition(row.kind, row.status, move.event);
  if (!t || t.actor !== move.actor)
    throw failure(`售后单当前状态为「${AFTER_SALE_STATUS_LABEL[row.status]}」，不能进行此操作`);
  const closes = !isCaseOpen(t.to);
  await lockChildOrder(tx, row.childOrderId);
  const [moved] = await tx
    .update(afterSale)
    .set({ ...move.set, status: t.to, statusAt: sql`now()` })
    .where(and(eq(afterSale.id, row.id), eq(afterSale.status, row.status)))
    .returning();
  if (!moved) throw failure(AFTER_SALE_MSG.stateChanged);
  await tx.insert(afterSaleLog).values({
    afterSaleId: row.id,
    fromStatus: row.status,
    toStatus: t.to,
    actor: move.actor,
    note: move.note ?? '',
  });
  if (closes) {
    const [open] = await tx
      .select({ n: count() })
      .from(afterSale)
      .where(and(eq(afterSale.childOrderId, row.childOrderId), OPEN));
    if ((open?.n ?? 0) === 0)
      await moveOrders(tx, [row.childOrderId], {
        childOrders: true,
        from: ORDER_STATUS.afterSales,
        to: ORDER_STATUS.completed,
      });
  }
  return moved;
}

/** A case by its number on a site, optionally only the member's own. */
export async function findCase(
  db: Db,
  where: { siteId: number; afterSaleNo: string; memberId?: number },
): Promise<CaseRow> {
  const [row] = await db
    .select()
    .from(afterSale)
    .where(
      and(
        eq(afterSale.siteId, where.siteId),
        eq(afterSale.afterSaleNo, where.afterSaleNo),
        where.memberId === undefined ? undefined : eq(afterSale.memberId, where.memberId),
      ),
    );
  if (!row) throw failure(AFTER_SALE_MSG.notFound);
  return row;
}
