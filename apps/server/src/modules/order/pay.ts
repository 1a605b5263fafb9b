import {
  ORDER_MSG,
  ORDER_STATUS,
  PAY_WAY,
  PAY_WAY_NAME,
  PAY_WAYS,
  type PayOrderInfo,
  type PayResult,
  WECHAT_CODE_STATE,
  type WechatCode,
} from '@sitemall/contract';
import { eq, getTableColumns } from 'drizzle-orm';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { qualified } from '../../lib/columns';
import { failure } from '../../lib/errors';
import { prepared } from '../../lib/prepared';
import { groupPaid, groupPlaceReserved } from '../activity/group';
import type { MemberCtx } from '../cart/cart.service';
import { spendCards } from '../packs/packs.service';
import { type OrderPaidByWechat, openCodeExists, type WechatPay } from '../payment/wechat-pay';
import { getBalance, insufficientPoints } from '../points/points.service';
import { useOrderVouchers } from '../voucher/voucher.service';
import {
  findOrder,
  memberOrderKey,
  memberOrderWhere,
  moveOrders,
  type OrderRow,
  orderNotFound,
  statusName,
} from './order.service';
import { mallOrder } from './order.tables';
import { hasProviderGoods, providerGoodsPaid } from './provider-goods';

/** The pay ways this site offers (spec section 9: wx_pc and ye, filtered by paywayConf). */
export const payWaysOf = (ctx: MemberCtx) =>
  PAY_WAYS.filter((w) => ctx.site.row.paywayConf.includes(w)).map((code) => ({
    code,
    name: PAY_WAY_NAME[code] ?? code,
  }));

/** Orders that wait for payment: submitted (0) or approved (15, modules/approval). */
export const isPayable = (status: number) =>
  status === ORDER_STATUS.pendingPayment || status === ORDER_STATUS.approvedPendingPayment;

/**
 * A WeChat code of the order was paid (payment/wechat-pay.ts calls this in the code's
 * transaction): the order leaves pending payment; false when it no longer waits for payment.
 */
export const orderPaidByWechat: OrderPaidByWechat = async (tx, payment) => {
  const [order] = await tx
    .select({ isVirtual: mallOrder.isVirtual, status: mallOrder.status })
    .from(mallOrder)
    .where(eq(mallOrder.id, payment.orderId));
  if (!order || !isPayable(order.status)) return false;
  const moved = await moveOrders(tx, [payment.orderId], {
    from: order.status,
    to: order.isVirtual ? ORDER_STATUS.completed : ORDER_STATUS.confirming,
    note: payment.pointsAmount > 0 ? '积分+微信支付成功' : '微信支付成功',
    set: { payWay: PAY_WAY.wechatPc, paidAt: payment.paidAt },
  });
  for (const o of moved) {
    await useOrderVouchers(tx, o);
    await providerGoodsPaid(tx, o);
  }
  await groupPaid(
    tx,
    moved.map((o) => o.orderNo),
  );
  return moved.length > 0;
};

const memberRef = (ctx: MemberCtx) => ({ siteId: ctx.site.row.id, memberId: ctx.member.id });

async function resultOf(
  ctx: MemberCtx,
  order: OrderRow,
  wechat?: WechatCode,
  db: Db = ctx.db,
  /** The balance the payment's own ledger entry left, when it made one (no read then). */
  balance?: number,
): Promise<PayResult> {
  return {
    ...(wechat ? { wechat } : {}),
    orderNo: order.orderNo,
    isPaid: order.paidAt !== null,
    status: order.status,
    statusName: statusName(order.status),
    payWay: order.payWay,
    payAmount: order.payAmount,
    balance: balance ?? (await getBalance({ db }, memberRef(ctx))),
  };
}

/**
 * The member's order to pay, and in the same read what paying it involves beyond the move and
 * the ledger: an open WeChat code to close, a group-buy place to mark paid, goods a provider
 * issues. Most orders have none of them, and each one they lack is a round trip not made.
 */
async function orderToPay(ctx: MemberCtx, orderNo: string) {
  const [row] = await prepared(ctx.db, 'order_to_pay', (name) =>
    ctx.db
      .select({
        ...getTableColumns(mallOrder),
        hasOpenCode: openCodeExists(qualified(mallOrder.id)).mapWith(Boolean),
        hasGroupPlace: groupPlaceReserved(qualified(mallOrder.orderNo)).mapWith(Boolean),
        hasProviderGoods: hasProviderGoods(qualified(mallOrder.id)).mapWith(Boolean),
      })
      .from(mallOrder)
      .where(memberOrderWhere())
      .prepare(name),
  ).execute(memberOrderKey(ctx, orderNo));
  if (!row) throw orderNotFound();
  return row;
}

/**
 * Pays an order. wx_pc answers the WeChat code to scan (payment arrives later, by notify);
 * ye pays with points, after closing any open WeChat code of the order.
 *
 * Points (pay way ye): In one transaction the order leaves "pending
 * payment" by a conditional UPDATE (only one of parallel payments can win it) and the ledger
 * is debited with the request key pay:<orderNo>; a short balance rolls both back. Physical
 * goods then wait for the supplier (24 确认中; shipping moves them to 22, fulfilment.ts);
 * virtual-only orders are completed (23). Paying an order
 * already paid answers its paid state and changes nothing.
 */
export async function payOrder(
  ctx: MemberCtx,
  input: { orderNo: string; payWay: string; pointsAmount?: number },
  wechat: WechatPay,
): Promise<{ result: PayResult; hasPaidNow: boolean }> {
  const toPay = await orderToPay(ctx, input.orderNo);
  let order: OrderRow = toPay;
  if (order.paidAt) return { result: await resultOf(ctx, order), hasPaidNow: false };
  if (
    !ctx.site.row.paywayConf.includes(input.payWay) ||
    !(PAY_WAYS as readonly string[]).includes(input.payWay)
  )
    throw failure(ORDER_MSG.payWayOff);
  if (!isPayable(order.status)) throw failure(ORDER_MSG.notPending);
  if (order.expireAt.getTime() <= Date.now()) throw failure(ORDER_MSG.expired);
  if (input.payWay === PAY_WAY.wechatPc) {
    const code = await wechat.startCode(ctx, order, input.pointsAmount ?? 0);
    return { result: await resultOf(ctx, order, wechat.view(code)), hasPaidNow: false };
  }
  if (toPay.hasOpenCode && (await wechat.closeOpenCode(ctx.db, order, '改用积分支付'))) {
    // Closing the code may have found it paid meanwhile.
    order = await findOrder(ctx, input.orderNo);
    if (order.paidAt) return { result: await resultOf(ctx, order), hasPaidNow: false };
  }

  const next = order.isVirtual ? ORDER_STATUS.completed : ORDER_STATUS.confirming;
  const pack = input.payWay === PAY_WAY.pack;
  // Most payments are the move with its debit alone: one statement, no `begin` and `commit`.
  // Cards, vouchers, a group-buy place and provider goods are written with it in a transaction.
  const alone =
    !pack &&
    order.payAmount > 0 &&
    order.voucherAmount === 0 &&
    !toPay.hasGroupPlace &&
    !toPay.hasProviderGoods;
  // The answer is built inside the transaction: once it commits, a read that fails (a lost
  // connection) must not turn a payment that went through into an error.
  const pay = async ({ db: tx }: MemberCtx): Promise<PayResult> => {
    // Pay way pack (issue 13): gift cards first, the rest in points, in this transaction.
    const byCards = pack
      ? await spendCards(tx, {
          ...memberRef(ctx),
          orderNo: order.orderNo,
          amount: order.payAmount,
          actor: `member:${ctx.member.id}`,
        })
      : 0;
    const points = order.payAmount - byCards;
    // The conditional move is the race: of parallel payments (or a payment and the expiry) one
    // moves the order, and only if the balance covers its points.
    const at = new Date();
    const [moved] = await moveOrders(tx, [order.id], {
      from: order.status,
      to: next,
      note: `${PAY_WAY_NAME[input.payWay]}成功`,
      set: { payWay: input.payWay, paidAt: at },
      unexpiredAt: at,
      debit:
        points > 0
          ? { ...memberRef(ctx), amount: points, orderNo: order.orderNo, note: `订单支付 ${order.orderNo}` }
          : undefined,
    });
    // Nothing moved: the cards spent above are rolled back with the transaction.
    if (!moved) throw NOT_MOVED;
    await useOrderVouchers(tx, moved);
    if (toPay.hasGroupPlace) await groupPaid(tx, [order.orderNo]);
    if (toPay.hasProviderGoods) await providerGoodsPaid(tx, moved);
    return resultOf(ctx, moved, undefined, tx, moved.balanceAfter);
  };
  const paid = await (alone ? pay(ctx) : transaction(ctx, pay)).catch((error: unknown) => {
    if (error !== NOT_MOVED) throw error;
  });
  if (paid) return { result: paid, hasPaidNow: true };
  // Nothing was written: a parallel payment or the expiry won, or the balance was short.
  // Reading now is safe to fail.
  const now = await findOrder(ctx, input.orderNo);
  if (now.paidAt) return { result: await resultOf(ctx, now), hasPaidNow: false };
  if (!isPayable(now.status)) throw failure(ORDER_MSG.notPending);
  if (now.expireAt.getTime() <= Date.now()) throw failure(ORDER_MSG.expired);
  throw insufficientPoints();
}

/** The refusal that rolls back a payment whose order did not move (it wrote nothing else). */
const NOT_MOVED = new Error('the order did not move');

/** What the pay page (/selectPayWay) shows: amount, balance, pay ways, expiry, the open code. */
export async function payOrderInfo(
  ctx: MemberCtx,
  orderNo: string,
  wechat: WechatPay,
): Promise<PayOrderInfo> {
  const order = await findOrder(ctx, orderNo);
  const code = await wechat.latestCode(ctx.db, order.id);
  return {
    mixedPay: ctx.site.row.configJson.mixedPay === 'Y',
    ...(code?.state === WECHAT_CODE_STATE.open && code.codeUrl ? { wechat: wechat.view(code) } : {}),
    orderNo: order.orderNo,
    status: order.status,
    statusName: statusName(order.status),
    orderType: order.orderType,
    payAmount: order.payAmount,
    balance: await getBalance(ctx, memberRef(ctx)),
    payWays: payWaysOf(ctx),
    expireTime: order.expireAt.toISOString(),
    createTime: order.createdAt.toISOString(),
  };
}

/** The paid state of an order (confirm payment): reads only, so asking twice is harmless. */
export async function confirmPay(ctx: MemberCtx, orderNo: string): Promise<PayResult> {
  return resultOf(ctx, await findOrder(ctx, orderNo));
}

/**
 * The pay result query the pay page polls while a WeChat code is shown: the order's paid
 * state and its latest code; when no notify has come, WeChat is asked (rate-limited per code).
 */
export async function payResultQuery(ctx: MemberCtx, orderNo: string, wechat: WechatPay): Promise<PayResult> {
  let order = await findOrder(ctx, orderNo);
  let code = await wechat.latestCode(ctx.db, order.id);
  if (!order.paidAt && (await wechat.refreshIfDue(ctx.db, code))) {
    order = await findOrder(ctx, orderNo);
    code = await wechat.latestCode(ctx.db, order.id);
  }
  return resultOf(ctx, order, code && wechat.view(code));
}
