import { ORDER_STATUS, type OrderStatus } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type Job, startJob } from '../../lib/job';
import { openCodeExists } from '../payment/wechat-pay';
import { endUnpaidOrders } from './order.service';

/** Orders one expiry transaction takes at most. */
export const EXPIRY_BATCH = 100;

/**
 * Locks up to EXPIRY_BATCH orders in `status` whose time is up (FOR UPDATE SKIP LOCKED: parallel runs
 * take different orders), oldest first, and answers their ids. An order with an open WeChat code
 * is left alone: the payment reconciliation closes the code at WeChat first, then the order
 * expires. Used by this job and by the approval module's.
 */
export async function lockExpiredOrders(tx: Db, status: OrderStatus, now: Date): Promise<number[]> {
  const result = await tx.execute(sql`
    select id from mall_order
    where status = ${status} and expire_at <= ${now.toISOString()}::timestamptz
      and not ${openCodeExists(sql`mall_order.id`)}
    order by expire_at, id
    limit ${EXPIRY_BATCH}
    for update skip locked`);
  return (result as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id));
}

/**
 * Expires unpaid orders whose time is up (status 41) and returns their stock. Safe with
 * several processes: each batch locks its orders (lockExpiredOrders), and the conditional move
 * (status still 0) makes an order that was paid or cancelled meanwhile stay as it is. Answers
 * how many orders expired.
 */
export async function expireOrders(db: Db, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      const ids = await lockExpiredOrders(tx, ORDER_STATUS.pendingPayment, now);
      if (ids.length === 0) return { picked: 0, moved: 0 };
      const ended = await endUnpaidOrders(tx, ids, ORDER_STATUS.expired, '超时未支付，订单已过期取消');
      return { picked: ids.length, moved: ended.length };
    });
    total += moved.moved;
    if (moved.picked < EXPIRY_BATCH) return total;
  }
}

/** Runs expireOrders on an interval (30 s by default). */
export const startOrderExpiry = (
  db: Db,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): Job =>
  startJob(() => expireOrders(db), { intervalMs: options.intervalMs ?? 30_000, onError: options.onError });
