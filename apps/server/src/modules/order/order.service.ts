import {
  type ChildOrder,
  canMove,
  ORDER_MSG,
  ORDER_STATUS,
  ORDER_STATUS_LABEL,
  ORDER_TABS,
  type OrderCount,
  type OrderDetail,
  type OrderPage,
  type OrderState,
  type OrderStatus,
  type OrderSummary,
  type OrderTabKey,
  type TrackDetail,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { idsMatch, prepared } from '../../lib/prepared';
import { releaseBargains } from '../activity/bargain';
import { releaseGroup } from '../activity/group';
import { releaseSeckill } from '../activity/seckill';
import type { MemberCtx } from '../cart/cart.service';
import { returnStock } from '../catalog/inventory';
import type { WechatPay } from '../payment/wechat-pay';
import { type PaymentDebit, paymentDebit, paymentDebitParams } from '../points/points.service';
import { releaseOrderVouchers } from '../voucher/voucher.service';
import { childOrder, mallOrder, orderLine, orderShipment, orderStatusLog } from './order.tables';
import { providerGoodsOf } from './provider-goods';

export type OrderRow = typeof mallOrder.$inferSelect;

const ph = sql.placeholder;

export const statusName = (status: number) => ORDER_STATUS_LABEL[status] ?? '未知状态';
export const orderNotFound = () => failure(ORDER_MSG.notFound);

const owner = (ctx: MemberCtx) =>
  and(eq(mallOrder.siteId, ctx.site.row.id), eq(mallOrder.memberId, ctx.member.id));

/** A prepared statement's condition for one of the member's orders; its values are `memberOrderKey`'s. */
export const memberOrderWhere = () =>
  and(
    eq(mallOrder.siteId, ph('siteId')),
    eq(mallOrder.memberId, ph('memberId')),
    eq(mallOrder.orderNo, ph('orderNo')),
  );
export const memberOrderKey = (ctx: MemberCtx, orderNo: string) => ({
  siteId: ctx.site.row.id,
  memberId: ctx.member.id,
  orderNo,
});

/** One of the member's orders; another member's or site's order number is "not found". */
export async function findOrder(ctx: MemberCtx, orderNo: string, db: Db = ctx.db): Promise<OrderRow> {
  const [row] = await prepared(db, 'order_of_member', (name) =>
    db.select().from(mallOrder).where(memberOrderWhere()).prepare(name),
  ).execute(memberOrderKey(ctx, orderNo));
  if (!row) throw orderNotFound();
  return row;
}

export const orderState = (row: Pick<OrderRow, 'orderNo' | 'status'>): OrderState => ({
  orderNo: row.orderNo,
  status: row.status,
  statusName: statusName(row.status),
});

export type ChildOrderRow = typeof childOrder.$inferSelect;

/** One status move; `from` → `to` must be an edge of ORDER_TRANSITIONS (the contract). */
export interface OrderMove {
  from: number;
  to: number;
  /** The status log line of each moved order. */
  note: string;
  /** Other columns written with the move (pay way, payment time). */
  set?: Partial<typeof mallOrder.$inferInsert>;
  /** Only orders that expire after this time move (a payment: not expired yet). */
  unexpiredAt?: Date;
  /** When it happened, for the log line; the database clock when absent. */
  at?: Date;
  /**
   * Whether the orders' child orders move with them (the default). Shipping moves child
   * orders one by one (moveOrders with `childOrders`) and then the order alone, so that a
   * virtual child order of a mixed order keeps its status as before.
   */
  withChildren?: boolean;
  /**
   * A payment with points (or the points part of a pack payment): the debit is made by the
   * move's own statement, and only orders the balance covers move (points.service paymentDebit).
   */
  debit?: PaymentDebit;
}

/** An order a move answered; `balanceAfter` is the balance its debit left (moves with `debit`). */
export type MovedOrder = OrderRow & { balanceAfter?: number };

/** A move of child orders alone: no log line, the order's status has not changed. */
export interface ChildOrderMove {
  childOrders: true;
  from: number;
  to: number;
}

/** The refusal of a move the state machine does not have: a bug in the caller, said plainly. */
function refuseUnlisted(from: number, to: number): void {
  if (canMove(from, to)) return;
  throw failure(`订单状态不能从「${statusName(from)}」(${from}) 变为「${statusName(to)}」(${to})`);
}

/**
 * The only writer of the status of orders and child orders (a test scans the sources for
 * others). Refuses, before writing anything, a move that is not in the contract's
 * ORDER_TRANSITIONS. Moves only the rows still in `from` (a conditional UPDATE: parallel
 * movers of one order cannot both win) and answers those that moved; orders get a status log
 * line each. One statement: run it inside the caller's transaction when it writes anything else.
 *
 * With `childOrders`, `ids` are child order ids and only those child orders move (shipping,
 * one parcel per child order).
 */
export async function moveOrders(tx: Db, ids: readonly number[], move: OrderMove): Promise<MovedOrder[]>;
export async function moveOrders(
  tx: Db,
  ids: readonly number[],
  move: ChildOrderMove,
): Promise<ChildOrderRow[]>;
export async function moveOrders(
  tx: Db,
  ids: readonly number[],
  move: OrderMove | ChildOrderMove,
): Promise<MovedOrder[] | ChildOrderRow[]> {
  refuseUnlisted(move.from, move.to);
  if (ids.length === 0) return [];
  // One ledger entry pays one order.
  if ('debit' in move && move.debit && ids.length > 1) throw new Error('a debit pays one order');
  if ('childOrders' in move)
    return tx
      .update(childOrder)
      .set({ status: move.to })
      .where(and(inArray(childOrder.id, [...ids]), eq(childOrder.status, move.from)))
      .returning();
  // The statement is built once per shape (the columns it sets, whether it checks the expiry,
  // dates the log line, moves the child orders): lib/prepared.ts. Null sets are part of the shape.
  const set = Object.entries(move.set ?? {}).sort(([a], [b]) => a.localeCompare(b));
  // One order (a payment, a cancel, a receipt) is named by `id = $1` (idsMatch): one generic plan.
  const byId = idsMatch(mallOrder.id, 'ids', 'bigint', ids);
  const shape = [
    byId.shape,
    ...set.map(([key, value]) => (value === null ? `${key}0` : key)),
    move.unexpiredAt ? 'u' : '',
    move.at ? 'a' : '',
    move.withChildren === false ? 'o' : 'c',
    move.debit ? 'd' : '',
  ].join('_');
  const statement = prepared(tx, `order_move_${shape}`, (name) => {
    const debit = move.debit && paymentDebit(sql`moved`);
    // One statement (one round trip): the conditional update is the CTE the child orders and
    // the log lines follow, so under concurrency they move exactly with the orders the update
    // won (a data-modifying CTE runs once, to completion, whether or not it is read).
    const moved = tx.$with('moved', getTableColumns(mallOrder)).as(
      tx
        .update(mallOrder)
        .set({
          ...Object.fromEntries(
            set.map(([key, value]) => [key, value === null ? sql`null` : ph(`set_${key}`)]),
          ),
          status: sql`${ph('to')}`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            byId.where,
            eq(mallOrder.status, ph('from')),
            move.unexpiredAt ? gt(mallOrder.expireAt, ph('unexpiredAt')) : undefined,
            debit?.covers,
          ),
        )
        .returning()
        .getSQL(),
    );
    // Child orders follow their order whatever their own status (a virtual child order of a
    // mixed order stays 24 while its physical siblings ship, and completes with the order).
    const children = tx.$with('children', {}).as(
      sql`update ${childOrder} set ${sql.identifier(childOrder.status.name)} = ${ph('to')}::smallint
        where ${childOrder.orderId} in (select id from moved)`,
    );
    // Parameters in a select list have no type of their own: each is cast to its column's.
    const logged = tx.$with('logged', {}).as(
      sql`insert into ${orderStatusLog} (order_id, site_id, from_status, status, note, created_at)
        select id, site_id, ${ph('from')}::smallint, ${ph('to')}::smallint, ${ph('note')}::text,
          ${move.at ? sql`${ph('at')}::timestamptz` : sql`now()`}
        from moved`,
    );
    const followers = move.withChildren === false ? [logged] : [children, logged];
    if (!debit)
      return tx
        .with(moved, ...followers)
        .select()
        .from(moved)
        .prepare(name);
    const debited = Object.entries(debit.ctes).map(([cte, query]) => tx.$with(cte, {}).as(query));
    const columns = Object.fromEntries(
      Object.keys(getTableColumns(mallOrder)).map((key) => [key, moved[key as keyof OrderRow]]),
    ) as { [K in keyof OrderRow]: (typeof moved)[K] };
    return tx
      .with(moved, ...followers, ...debited)
      .select({ ...columns, balanceAfter: debit.balanceAfter })
      .from(moved)
      .prepare(name);
  });
  return statement.execute({
    ...Object.fromEntries(set.map(([key, value]) => [`set_${key}`, value])),
    ...byId.params,
    from: move.from,
    to: move.to,
    note: move.note,
    at: move.at?.toISOString(),
    unexpiredAt: move.unexpiredAt?.toISOString(),
    ...(move.debit ? paymentDebitParams(move.debit) : {}),
  });
}

/**
 * Ends unpaid orders (cancel, expiry) and gives their stock and locked vouchers back, in the
 * caller's transaction.
 */
export async function endUnpaidOrders(
  tx: Db,
  ids: readonly number[],
  to: OrderStatus,
  note: string,
  /** Orders waiting for approval (11, 12) or approved (15) end the same way (modules/approval). */
  from: OrderStatus = ORDER_STATUS.pendingPayment,
): Promise<OrderRow[]> {
  const moved = await moveOrders(tx, ids, { from, to, note });
  if (moved.length === 0) return moved;
  const lines = await tx
    .select({ specificationId: orderLine.specificationId, num: orderLine.num })
    .from(orderLine)
    .where(
      inArray(
        orderLine.orderId,
        moved.map((o) => o.id),
      ),
    );
  await returnStock(tx, lines);
  const orderNos = moved.map((o) => o.orderNo);
  await releaseOrderVouchers(tx, orderNos, note);
  await releaseSeckill(tx, orderNos);
  await releaseGroup(tx, orderNos);
  await releaseBargains(tx, orderNos);
  return moved;
}

const WITHDRAWABLE: readonly number[] = [
  ORDER_STATUS.pendingPayment,
  ORDER_STATUS.pendingApproval,
  ORDER_STATUS.pendingFinalApproval,
  ORDER_STATUS.approvedPendingPayment,
];

/** Cancels a pending-payment order of the member (status 4, order withdrawn); stock returns. */
export async function cancelOrder(
  ctx: MemberCtx,
  wechat: Pick<WechatPay, 'closeOpenCode'>,
  orderNo: string,
  reason = '',
): Promise<OrderState> {
  // Its WeChat code is closed first, so the member cannot pay an order being cancelled.
  await wechat.closeOpenCode(ctx.db, await findOrder(ctx, orderNo), '会员取消订单');
  const order = await findOrder(ctx, orderNo);
  const note = reason ? `会员取消：${reason}` : '会员取消';
  // Orders waiting for approval (11, 12) or approved and unpaid (15) are withdrawn alike.
  const from = WITHDRAWABLE.includes(order.status)
    ? (order.status as OrderStatus)
    : ORDER_STATUS.pendingPayment;
  const moved = await transaction(ctx, ({ db: tx }) =>
    endUnpaidOrders(tx, [order.id], ORDER_STATUS.withdrawn, note, from),
  );
  if (moved.length === 0) throw failure(ORDER_MSG.notCancellable);
  return orderState(moved[0] as OrderRow);
}

/** Confirms receipt: awaiting receipt (22) becomes completed (23). */
export async function confirmOrder(ctx: MemberCtx, orderNo: string): Promise<OrderState> {
  const order = await findOrder(ctx, orderNo);
  const moved = await transaction(ctx, ({ db: tx }) =>
    moveOrders(tx, [order.id], {
      from: ORDER_STATUS.awaitingReceipt,
      to: ORDER_STATUS.completed,
      note: '会员确认收货',
    }),
  );
  if (moved.length === 0) throw failure(ORDER_MSG.notConfirmable);
  return orderState(moved[0] as OrderRow);
}

/** Child orders with their lines, for the given orders. */
async function childrenOf(db: Db, orderIds: readonly number[]): Promise<Map<number, ChildOrder[]>> {
  const byOrder = new Map<number, ChildOrder[]>();
  if (orderIds.length === 0) return byOrder;
  const [children, lines] = await Promise.all([
    db
      .select()
      .from(childOrder)
      .where(inArray(childOrder.orderId, [...orderIds]))
      .orderBy(asc(childOrder.id)),
    db
      .select()
      .from(orderLine)
      .where(inArray(orderLine.orderId, [...orderIds]))
      .orderBy(asc(orderLine.id)),
  ]);
  for (const c of children) {
    const list = byOrder.get(c.orderId) ?? [];
    list.push({
      childOrderNo: c.childOrderNo,
      source: c.source,
      sourceName: c.sourceName,
      hasAddress: c.hasAddress,
      status: c.status,
      statusName: statusName(c.status),
      goodsAmount: c.goodsAmount,
      freightAmount: c.freightAmount,
      lines: lines
        .filter((l) => l.childOrderId === c.id)
        .map((l) => ({
          productId: l.productId,
          specificationId: l.specificationId,
          name: l.name,
          image: l.image,
          specificationValue: l.specificationValue,
          price: l.price,
          num: l.num,
          amount: l.amount,
        })),
    });
    byOrder.set(c.orderId, list);
  }
  return byOrder;
}

const summaryOf = (o: OrderRow, children: ChildOrder[]): OrderSummary => ({
  orderNo: o.orderNo,
  status: o.status,
  statusName: statusName(o.status),
  orderType: o.orderType,
  goodsAmount: o.goodsAmount,
  freightAmount: o.freightAmount,
  payAmount: o.payAmount,
  createTime: o.createdAt.toISOString(),
  expireTime: o.expireAt.toISOString(),
  payTime: o.paidAt?.toISOString() ?? null,
  childOrders: children,
});

/** One status, or the statuses of one tab, or every order. */
export function statusFilter(status?: number, tab?: OrderTabKey) {
  if (status !== undefined) return eq(mallOrder.status, status);
  const statuses = ORDER_TABS.find((t) => t.key === tab)?.statuses ?? [];
  return statuses.length > 0 ? inArray(mallOrder.status, [...statuses]) : undefined;
}

/** The member's orders, newest first, 10 a page, optionally one status or one tab. */
export async function myOrderList(
  ctx: MemberCtx,
  query: { status?: number; tab?: OrderTabKey; pageNum?: number },
): Promise<OrderPage> {
  const where = and(owner(ctx), statusFilter(query.status, query.tab));
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db.select().from(mallOrder).where(where).orderBy(desc(mallOrder.createdAt), desc(mallOrder.id)),
    total: ctx.db.select({ n: count() }).from(mallOrder).where(where),
    present: async (rows) => {
      const children = await childrenOf(
        ctx.db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => summaryOf(r, children.get(r.id) ?? []));
    },
  });
}

/** How many orders the member has per status and per tab. */
export async function orderCount(ctx: MemberCtx): Promise<OrderCount> {
  const rows = await ctx.db
    .select({ status: mallOrder.status, n: count() })
    .from(mallOrder)
    .where(owner(ctx))
    .groupBy(mallOrder.status)
    .orderBy(asc(mallOrder.status));
  const of = (statuses: readonly number[]) =>
    rows.filter((r) => statuses.length === 0 || statuses.includes(r.status)).reduce((s, r) => s + r.n, 0);
  return {
    total: of([]),
    byStatus: rows.map((r) => ({ status: r.status, statusName: statusName(r.status), count: r.n })),
    byTab: ORDER_TABS.map((t) => ({ key: t.key, name: t.name, count: of(t.statuses) })),
  };
}

export async function orderDetail(ctx: MemberCtx, orderNo: string): Promise<OrderDetail> {
  const order = await findOrder(ctx, orderNo);
  const [children, logs, providerGoods] = await Promise.all([
    childrenOf(ctx.db, [order.id]),
    ctx.db
      .select()
      .from(orderStatusLog)
      .where(eq(orderStatusLog.orderId, order.id))
      .orderBy(asc(orderStatusLog.id)),
    providerGoodsOf(ctx.db, order.id),
  ]);
  return {
    ...(providerGoods.length > 0 ? { providerGoods } : {}),
    ...summaryOf(order, children.get(order.id) ?? []),
    address: order.address ?? null,
    payWay: order.payWay,
    remark: order.remark,
    logs: logs.map((l) => ({
      status: l.status,
      statusName: statusName(l.status),
      note: l.note,
      createTime: l.createdAt.toISOString(),
    })),
  };
}

/** Logistics per child order; a child order not shipped yet has no events. */
export async function trackDetail(ctx: MemberCtx, orderNo: string): Promise<TrackDetail> {
  const order = await findOrder(ctx, orderNo);
  const rows = await ctx.db
    .select({
      childOrderNo: childOrder.childOrderNo,
      company: orderShipment.company,
      trackingNo: orderShipment.trackingNo,
      events: orderShipment.events,
    })
    .from(orderShipment)
    .innerJoin(childOrder, eq(childOrder.id, orderShipment.childOrderId))
    .where(eq(childOrder.orderId, order.id))
    .orderBy(asc(orderShipment.id));
  return { list: rows };
}
