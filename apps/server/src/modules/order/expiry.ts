import { ORDER_STATUS } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Job, startJob } from '../../lib/job';
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
          -- An open WeChat code is closed at WeChat first (payment reconciliation), then the order expires.
          and not exists (select 1 from wechat_code c where c.order_id = mall_order.id and c.state = 'open')
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

/** Runs expireOrders on an interval (30 s by default). */
export const startOrderExpiry = (
  db: Db,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): Job =>
  startJob(() => expireOrders(db), { intervalMs: options.intervalMs ?? 30_000, onError: options.onError });
