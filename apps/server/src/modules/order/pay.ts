import {
  ORDER_MSG,
  ORDER_STATUS,
  PAY_WAY,
  PAY_WAY_NAME,
  PAY_WAYS,
  type PayOrderInfo,
  type PayResult,
} from '@sitemall/contract';
import { and, eq, gt } from 'drizzle-orm';
import { failure } from '../../lib/errors';
import type { MemberCtx } from '../cart/cart.service';
import { getBalance, postEntry } from '../points/points.service';
import { findOrder, moveOrders, type OrderRow, statusName } from './order.service';
import { mallOrder } from './order.tables';

/** The pay ways this site offers (spec section 9: wx_pc and ye, filtered by paywayConf). */
export const payWaysOf = (ctx: MemberCtx) =>
  PAY_WAYS.filter((w) => ctx.site.row.paywayConf.includes(w)).map((code) => ({
    code,
    name: PAY_WAY_NAME[code] ?? code,
  }));

const memberRef = (ctx: MemberCtx) => ({ siteId: ctx.site.row.id, memberId: ctx.member.id });

async function resultOf(ctx: MemberCtx, order: OrderRow): Promise<PayResult> {
  return {
    orderNo: order.orderNo,
    isPaid: order.paidAt !== null,
    status: order.status,
    statusName: statusName(order.status),
    payWay: order.payWay,
    payAmount: order.payAmount,
    balance: await getBalance(ctx.db, memberRef(ctx)),
  };
}

/**
 * Pays an order with points (pay way ye). In one transaction the order leaves "pending
 * payment" by a conditional UPDATE (only one of parallel payments can win it) and the ledger
 * is debited with the request key pay:<orderNo>; a short balance rolls both back. Physical
 * goods then wait for the supplier (24 确认中; shipping moves them to 22, fulfilment.ts);
 * virtual-only orders are completed (23). Paying an order
 * already paid answers its paid state and changes nothing.
 */
export async function payOrder(
  ctx: MemberCtx,
  input: { orderNo: string; payWay: string },
): Promise<{ result: PayResult; hasPaidNow: boolean }> {
  const order = await findOrder(ctx, input.orderNo);
  if (order.paidAt) return { result: await resultOf(ctx, order), hasPaidNow: false };
  if (
    !ctx.site.row.paywayConf.includes(input.payWay) ||
    !(PAY_WAYS as readonly string[]).includes(input.payWay)
  )
    throw failure(ORDER_MSG.payWayOff);
  if (input.payWay === PAY_WAY.wechatPc) throw failure(ORDER_MSG.wechatLater);
  if (order.status !== ORDER_STATUS.pendingPayment) throw failure(ORDER_MSG.notPending);
  if (order.expireAt.getTime() <= Date.now()) throw failure(ORDER_MSG.expired);

  const next = order.isVirtual ? ORDER_STATUS.completed : ORDER_STATUS.confirming;
  const paid = await ctx.db.transaction(async (tx) => {
    const [won] = await tx
      .update(mallOrder)
      .set({ payWay: input.payWay, paidAt: new Date() })
      .where(
        and(
          eq(mallOrder.id, order.id),
          eq(mallOrder.status, ORDER_STATUS.pendingPayment),
          gt(mallOrder.expireAt, new Date()),
        ),
      )
      .returning({ id: mallOrder.id });
    if (!won) return false;
    if (order.payAmount > 0) {
      await postEntry(tx, {
        ...memberRef(ctx),
        amount: -order.payAmount,
        type: 'pay',
        orderNo: order.orderNo,
        note: `订单支付 ${order.orderNo}`,
        requestKey: `pay:${order.orderNo}`,
      });
    }
    await moveOrders(tx, [order.id], {
      from: ORDER_STATUS.pendingPayment,
      to: next,
      note: `${PAY_WAY_NAME[input.payWay]}成功`,
    });
    return true;
  });
  const now = await findOrder(ctx, input.orderNo);
  if (!paid && !now.paidAt)
    throw failure(now.status === ORDER_STATUS.pendingPayment ? ORDER_MSG.expired : ORDER_MSG.notPending);
  return { result: await resultOf(ctx, now), hasPaidNow: paid };
}

/** What the pay page (/selectPayWay) shows: amount, balance, pay ways, expiry. */
export async function payOrderInfo(ctx: MemberCtx, orderNo: string): Promise<PayOrderInfo> {
  const order = await findOrder(ctx, orderNo);
  return {
    orderNo: order.orderNo,
    status: order.status,
    statusName: statusName(order.status),
    orderType: order.orderType,
    payAmount: order.payAmount,
    balance: await getBalance(ctx.db, memberRef(ctx)),
    payWays: payWaysOf(ctx),
    expireTime: order.expireAt.toISOString(),
    createTime: order.createdAt.toISOString(),
  };
}

/** The paid state of an order (confirm payment): reads only, so asking twice is harmless. */
export async function confirmPay(ctx: MemberCtx, orderNo: string): Promise<PayResult> {
  return resultOf(ctx, await findOrder(ctx, orderNo));
}
