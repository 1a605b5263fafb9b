import { ORDER_STATUS } from '@sitemall/contract';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { MemberCtx } from '../cart/cart.service';
import { type ChildOrderRow, findOrder, type OrderRow } from './order.service';
import { childOrder, mallOrder, orderLine, orderStatusLog } from './order.tables';

/** What after-sales reads of an order (modules/aftersale): its child orders, lines and receipt. */

export type OrderLineRow = typeof orderLine.$inferSelect;

export interface OrderFacts {
  order: OrderRow;
  children: ChildOrderRow[];
  lines: OrderLineRow[];
  /** When the order was last completed (receipt confirmed by the member or automatically). */
  receivedAt: Date | null;
}

/** One of the member's orders with its child orders and lines; "not found" for anyone else's. */
export async function orderFacts(ctx: MemberCtx, orderNo: string, db: Db = ctx.db): Promise<OrderFacts> {
  const order = await findOrder(ctx, orderNo, db);
  const [children, lines, [received]] = await Promise.all([
    db.select().from(childOrder).where(eq(childOrder.orderId, order.id)).orderBy(asc(childOrder.id)),
    db.select().from(orderLine).where(eq(orderLine.orderId, order.id)).orderBy(asc(orderLine.id)),
    db
      .select({ at: orderStatusLog.createdAt })
      .from(orderStatusLog)
      .where(and(eq(orderStatusLog.orderId, order.id), eq(orderStatusLog.status, ORDER_STATUS.completed)))
      .orderBy(desc(orderStatusLog.id))
      .limit(1),
  ]);
  return { order, children, lines, receivedAt: received?.at ?? null };
}

/**
 * Locks a child order (SELECT ... FOR UPDATE) and answers it: after-sales cases of one child
 * order open and close under this lock, so the last one to close is the one that sees no
 * other open case and moves the child order back.
 */
export async function lockChildOrder(tx: Db, id: number): Promise<ChildOrderRow> {
  await tx.execute(sql`select id from child_order where id = ${id} for update`);
  const [row] = await tx.select().from(childOrder).where(eq(childOrder.id, id));
  if (!row) throw new Error(`child order ${id} not found`);
  return row;
}

/** Order lines by id (the names and pictures a case shows). */
export async function orderLinesById(db: Db, ids: readonly number[]): Promise<Map<number, OrderLineRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(orderLine)
    .where(inArray(orderLine.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** An order of a site by its number (operators: approval, after-sales). */
export async function siteOrder(db: Db, siteId: number, orderNo: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(mallOrder)
    .where(and(eq(mallOrder.siteId, siteId), eq(mallOrder.orderNo, orderNo)));
  return row;
}

/** The lines of an order with their quantities (after-sales: is the whole order refunded?). */
export async function orderLineNums(db: Db, orderId: number): Promise<{ id: number; num: number }[]> {
  return db
    .select({ id: orderLine.id, num: orderLine.num })
    .from(orderLine)
    .where(eq(orderLine.orderId, orderId));
}
