import { ORDER_STATUS } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { endUnpaidOrders } from './order.service';

const BATCH = 100;

/**
 * Expires unpaid orders whose time is up (status 41) and returns their stock. Safe with
 * several processes: each batch locks its orders with FOR UPDATE SKIP LOCKED, so parallel
 * runs take different orders, and the conditional move (status still 0) makes an order that
 * was paid or cancelled meanwhile stay as it is. Answers how many orders expired.
 */
export async function expireOrders(db: Db, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      const result = await tx.execute(sql`
        select id from mall_order
        where status = ${ORDER_STATUS.pendingPayment} and expire_at <= ${now.toISOString()}::timestamptz
        order by expire_at, id
        limit ${BATCH}
        for update skip locked`);
      const ids = (result as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id));
      if (ids.length === 0) return { picked: 0, moved: 0 };
      const ended = await endUnpaidOrders(tx, ids, ORDER_STATUS.expired, '超时未支付，订单已过期取消');
      return { picked: ids.length, moved: ended.length };
    });
    total += moved.moved;
    if (moved.picked < BATCH) return total;
  }
}

export interface ExpiryJob {
  stop(): Promise<void>;
}

/** Runs expireOrders on an interval; stop() waits for a run in progress. */
export function startOrderExpiry(
  db: Db,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): ExpiryJob {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = expireOrders(db)
      .catch((error) => options.onError?.(error))
      .finally(() => {
        running = undefined;
      });
  }, options.intervalMs ?? 30_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
