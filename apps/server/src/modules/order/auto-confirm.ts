import { ORDER_STATUS } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { autoConfirmDaysOf } from '../site/site.service';
import { moveOrders } from './order.service';

const BATCH = 100;

/**
 * Confirms receipt of shipped orders (22 → 23) the member has not confirmed within the site's
 * configJson.autoConfirmDays (DEFAULT_AUTO_CONFIRM_DAYS when unset) of shipping; the return and
 * exchange windows start then. Safe with several processes: each batch locks its orders with
 * FOR UPDATE SKIP LOCKED and moves only those still awaiting receipt. Answers how many moved.
 */
export async function autoConfirmOrders(db: Db, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const round = await db.transaction(async (tx) => {
      const result = await tx.execute(sql`
        select o.id from mall_order o
        where o.status = ${ORDER_STATUS.awaitingReceipt}
          and o.updated_at <= ${now.toISOString()}::timestamptz - make_interval(days => ${autoConfirmDaysOf(sql`o.site_id`)})
        order by o.updated_at, o.id
        limit ${BATCH}
        for update of o skip locked`);
      const ids = (result as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id));
      if (ids.length === 0) return { picked: 0, moved: 0 };
      const moved = await moveOrders(tx, ids, {
        from: ORDER_STATUS.awaitingReceipt,
        to: ORDER_STATUS.completed,
        note: '超时未确认，系统自动确认收货',
        at: now,
      });
      return { picked: ids.length, moved: moved.length };
    });
    total += round.moved;
    if (round.picked < BATCH) return total;
  }
}
