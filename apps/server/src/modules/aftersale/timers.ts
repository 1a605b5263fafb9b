import { RETURN_SHIP_DAYS } from '@sitemall/contract';
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Job, startJob } from '../../lib/job';
import { autoConfirmOrders } from '../order/auto-confirm';
import { lockChildOrder } from '../order/lines';
import { afterSale } from './aftersale.tables';
import { moveCase } from './machine';
import { settleRefunds } from './operator';

const DAY_MS = 86_400_000;
const BATCH = 100;

/**
 * Closes cases whose member has not shipped the return within RETURN_SHIP_DAYS of approval.
 * Safe with several processes: each case is re-read under FOR UPDATE SKIP LOCKED (after its
 * child order's lock, the order every case move takes) and moved only if still due.
 */
export async function expireUnshippedReturns(db: Db, now = new Date()): Promise<number> {
  const due = and(
    eq(afterSale.status, 'awaiting_return'),
    isNull(afterSale.returnParcel),
    lte(afterSale.statusAt, new Date(now.getTime() - RETURN_SHIP_DAYS * DAY_MS)),
  );
  const candidates = await db
    .select({ id: afterSale.id, childOrderId: afterSale.childOrderId })
    .from(afterSale)
    .where(due)
    .limit(BATCH);
  let closed = 0;
  for (const { id, childOrderId } of candidates) {
    const moved = await db.transaction(async (tx) => {
      await lockChildOrder(tx, childOrderId);
      const [row] = await tx
        .select()
        .from(afterSale)
        .where(and(eq(afterSale.id, id), due))
        .for('update', {
          skipLocked: true,
        });
      if (!row) return false;
      await moveCase(tx, row, {
        event: 'expire',
        actor: 'system',
        note: `超过 ${RETURN_SHIP_DAYS} 天未寄回商品，售后申请已关闭`,
      });
      return true;
    });
    if (moved) closed += 1;
  }
  return closed;
}

/** One round of every after-sales timer (and the automatic receipt they start from). */
export async function runAfterSaleTimers(db: Db, now = new Date()) {
  return {
    confirmed: await autoConfirmOrders(db, now),
    expired: await expireUnshippedReturns(db, now),
    settled: await settleRefunds(db),
  };
}

/** Runs the timers on an interval (60 s by default). */
export const startAfterSaleTimers = (
  db: Db,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): Job =>
  startJob(() => runAfterSaleTimers(db), {
    intervalMs: options.intervalMs ?? 60_000,
    onError: options.onError,
  });
