import { fenToYuan, ORDER_STATUS, PROVIDER_ISSUED_SOURCES, type ProviderGoods } from '@sitemall/contract';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { prepared } from '../../lib/prepared';
import type { MemberCtx } from '../cart/cart.service';
import { moveOrders, type OrderRow } from './order.service';
import { childOrder, mallOrder, orderLine, orderStatusLog } from './order.tables';
import { payBack } from './pay-back';
import { newOrderNo } from './submit';

/**
 * What the order module does for goods a provider issues (modules/provider): it makes their
 * orders, tells the provider module when one is paid (in the payment's transaction, so the
 * issue outbox row exists exactly when the payment does), completes them once issued and
 * fails and refunds them when the provider cannot issue.
 *
 * The provider module registers its hooks (app.ts) rather than the order module importing it:
 * the provider module calls the order module, not the other way round.
 */

/** A paid order's child orders and lines, as the provider module needs them. */
export interface PaidOrder {
  id: number;
  orderNo: string;
  siteId: number;
  memberId: number;
  children: {
    childOrderNo: string;
    source: number;
    lines: { specificationId: number; num: number; name: string }[];
  }[];
}

export interface ProviderGoodsHooks {
  /** In the payment's transaction: the order's provider goods are paid. */
  paid(tx: Db, order: PaidOrder): Promise<void>;
  /** What order detail shows of the order's provider goods (codes masked). */
  goodsOf(db: Db, orderId: number): Promise<ProviderGoods[]>;
}

let hooks: ProviderGoodsHooks | undefined;

/** The provider module's hooks (app.ts); one set per process, the same for every app. */
export function useProviderGoods(given: ProviderGoodsHooks): void {
  hooks = given;
}

/** True for an order with goods a provider issues: what `providerGoodsPaid` acts on (pay.ts asks first). */
export const hasProviderGoods = (orderId: SQL) =>
  sql<boolean>`exists (select 1 from ${childOrder} c where c.order_id = ${orderId}
    and c.source in (${sql.join(
      PROVIDER_ISSUED_SOURCES.map((s) => sql.raw(String(s))),
      sql`, `,
    )}))`;

/** Called by the pay paths in the payment's transaction, once the order has moved to paid. */
export async function providerGoodsPaid(tx: Db, order: OrderRow): Promise<void> {
  if (!hooks) return;
  const children = await prepared(tx, 'order_children', (name) =>
    tx
      .select()
      .from(childOrder)
      .where(eq(childOrder.orderId, sql.placeholder('orderId')))
      .prepare(name),
  ).execute({ orderId: order.id });
  // Most orders have no provider goods: one read tells, and nothing more is asked.
  if (!children.some((c) => PROVIDER_ISSUED_SOURCES.includes(c.source))) return;
  const lines = await tx.select().from(orderLine).where(eq(orderLine.orderId, order.id));
  await hooks.paid(tx, {
    id: order.id,
    orderNo: order.orderNo,
    siteId: order.siteId,
    memberId: order.memberId,
    children: children.map((c) => ({
      childOrderNo: c.childOrderNo,
      source: c.source,
      lines: lines
        .filter((l) => l.childOrderId === c.id)
        .map((l) => ({ specificationId: l.specificationId, num: l.num, name: l.name })),
    })),
  });
}

export const providerGoodsOf = (db: Db, orderId: number) =>
  hooks?.goodsOf(db, orderId) ?? Promise.resolve([]);

export interface ProviderOrderInput {
  source: number;
  sourceName: string;
  /** What the member buys: no catalogue product (product and specification id 0). */
  line: { name: string; image: string; specificationValue: string; price: number; num: number };
  expireAt: Date;
  requestKey?: string;
}

export interface ProviderOrderMade {
  orderId: number;
  orderNo: string;
  childOrderNo: string;
  payAmount: number;
  expireAt: Date;
}

/**
 * Makes the order of provider goods in the caller's transaction (the provider row joins it):
 * pending payment, one child order with no delivery address, one line priced by the provider.
 * It is not virtual in the order's sense: paying moves it to 24 (确认中) until the provider has
 * issued. A request key seen before answers the order it made.
 */
export async function createProviderOrder(
  tx: Db,
  ctx: MemberCtx,
  input: ProviderOrderInput,
): Promise<ProviderOrderMade> {
  const orderNo = newOrderNo();
  const childOrderNo = `${orderNo}01`;
  const amount = input.line.price * input.line.num;
  const [order] = await tx
    .insert(mallOrder)
    .values({
      orderNo,
      siteId: ctx.site.row.id,
      memberId: ctx.member.id,
      status: ORDER_STATUS.pendingPayment,
      orderType: 1,
      goodsAmount: amount,
      freightAmount: 0,
      payAmount: amount,
      isVirtual: false,
      address: null,
      requestKey: input.requestKey ?? null,
      expireAt: input.expireAt,
    })
    .returning({ id: mallOrder.id });
  if (!order) throw new Error('order not created');
  const [child] = await tx
    .insert(childOrder)
    .values({
      orderId: order.id,
      childOrderNo,
      siteId: ctx.site.row.id,
      source: input.source,
      sourceType: 1,
      sourceName: input.sourceName,
      hasAddress: false,
      status: ORDER_STATUS.pendingPayment,
      goodsAmount: amount,
      freightAmount: 0,
    })
    .returning({ id: childOrder.id });
  if (!child) throw new Error('child order not created');
  await tx.insert(orderLine).values({
    orderId: order.id,
    childOrderId: child.id,
    siteId: ctx.site.row.id,
    productId: 0,
    specificationId: 0,
    ...input.line,
    amount,
  });
  await tx.insert(orderStatusLog).values({
    orderId: order.id,
    siteId: ctx.site.row.id,
    status: ORDER_STATUS.pendingPayment,
    note: '提交订单',
  });
  return { orderId: order.id, orderNo, childOrderNo, payAmount: amount, expireAt: input.expireAt };
}

/** Statuses of orders by id (the provider sweeper: which held seats belong to ended orders). */
export async function orderStatusesOf(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: mallOrder.id, status: mallOrder.status })
    .from(mallOrder)
    .where(inArray(mallOrder.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** Paid amount (fen) and status of orders by id (the provider console and its reconciliation). */
export async function orderAmountsOf(
  ctx: RequestContext,
  ids: readonly number[],
): Promise<Map<number, { payAmount: number; status: number }>> {
  const { db } = ctx;
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: mallOrder.id, payAmount: mallOrder.payAmount, status: mallOrder.status })
    .from(mallOrder)
    .where(inArray(mallOrder.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { payAmount: r.payAmount, status: r.status }]));
}

/**
 * The provider issued a child order's goods: the child order completes (24 → 23), and the order
 * with it once none of its child orders waits any more (a physical sibling still ships as usual).
 */
export async function completeIssuedOrder(
  tx: Db,
  orderId: number,
  childOrderNo: string,
  note: string,
): Promise<boolean> {
  const children = await tx.select().from(childOrder).where(eq(childOrder.orderId, orderId));
  const child = children.find((c) => c.childOrderNo === childOrderNo);
  if (!child) return false;
  await moveOrders(tx, [child.id], {
    childOrders: true,
    from: ORDER_STATUS.confirming,
    to: ORDER_STATUS.completed,
  });
  if (children.some((c) => c.id !== child.id && c.status !== ORDER_STATUS.completed)) return true;
  const moved = await moveOrders(tx, [orderId], {
    from: ORDER_STATUS.confirming,
    to: ORDER_STATUS.completed,
    note,
    withChildren: false,
  });
  return moved.length > 0;
}

/**
 * The provider could not issue: in one transaction the order fails (24 → 51) and its payment
 * goes back the way it came: the WeChat part through the refund outbox (one refund number per
 * order, payment/refunds.ts), the rest as points through the ledger (request key
 * refund:<orderNo>, so exactly once). False when the order was no longer waiting (nothing done).
 */
export async function failAndRefundOrder(tx: Db, orderId: number, reason: string): Promise<boolean> {
  await tx.execute(sql`select id from mall_order where id = ${orderId} for update`);
  const [order] = await tx.select().from(mallOrder).where(eq(mallOrder.id, orderId));
  if (!order) return false;
  const [moved] = await moveOrders(tx, [orderId], {
    from: ORDER_STATUS.confirming,
    to: ORDER_STATUS.failed,
    note: `${reason}，订单已自动退款 ${fenToYuan(order.payAmount)}`,
  });
  if (!moved) return false;
  await payBack(tx, order, { outRefundNo: `F${order.orderNo}`, reason });
  return true;
}
