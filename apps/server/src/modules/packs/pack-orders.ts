import { createHmac, randomInt } from 'node:crypto';
import {
  movableFrom,
  PACK_MSG,
  PACK_ORDER_STATUS,
  PACK_ORDER_TRANSITIONS,
  PAY_WAY,
  type PackOrder,
  type PackOrderEvent,
  type PackOrderStatus,
  VIRTUAL_CODE_HOURS,
  type VirtualCode,
} from '@sitemall/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { openText, sealText } from '../../lib/aes';
import { chinaTime } from '../../lib/china-time';
import { failure } from '../../lib/errors';
import type { MemberCtx } from '../cart/cart.service';
import { type OrderPaidByWechat, openCodeExists, type WechatPay } from '../payment/wechat-pay';
import { postEntry } from '../points/points.service';
import { cardOf, cardPepper, insertCards, newCardCode, newCardPin, productOf } from './packs.service';
import { packCard, packOrder, packProduct } from './packs.tables';

/**
 * Members buying packs (issue 13; design section 2). With points, one transaction debits the
 * points, writes the pack order and issues a new card (bound to the buyer, or kept sold for
 * the buyer to give away). With WeChat (wx_pc) the order waits unpaid behind a Native code of
 * the payment module (payee 'pack'); the payment module reports the paid code through
 * packPaidByWechat, which pays the order once and issues the card in that transaction, or the
 * order closes at its expiry. The request id is unique per member, so a retried purchase
 * answers the first one and parallel retries buy once. The card keeps only hashes; its code
 * and PIN are sealed on the order so the buyer can read them again for VIRTUAL_CODE_HOURS.
 */

type OrderRow = typeof packOrder.$inferSelect;

/** What buying packs needs beyond the member: the master key and, for wx_pc, the payment module. */
export interface PackPayDeps {
  masterKey: Buffer;
  wechat: WechatPay;
  /** How long a WeChat purchase waits for its scan. */
  expireMinutes: number;
}

const ORDER_STATUS_NAME: Record<PackOrderStatus, string> = {
  unpaid: '待支付',
  paid: '已支付',
  closed: '已关闭',
  refunded: '已退款',
};

/** The status a new pack order starts in, by the event that makes it (PACK_ORDER_TRANSITIONS). */
function createdAs(event: PackOrderEvent): PackOrderStatus {
  const made = PACK_ORDER_TRANSITIONS.find((t) => t.from === null && t.event === event);
  if (!made) throw new Error(`no pack order is created by ${event}`);
  return made.to;
}

/**
 * The one writer of pack order statuses after creation: moves the orders matching `where` by
 * `event` to `to` from the statuses PACK_ORDER_TRANSITIONS allows, as one conditional UPDATE
 * (of parallel moves of an order, one wins; the others get nothing back).
 */
export async function movePackOrder(
  tx: Db,
  move: {
    event: PackOrderEvent;
    to: PackOrderStatus;
    where: SQL | undefined;
    set?: Partial<Pick<typeof packOrder.$inferInsert, 'paidAt' | 'cardId' | 'codeSealed'>>;
  },
): Promise<OrderRow[]> {
  const from = movableFrom(PACK_ORDER_TRANSITIONS, move.event, move.to);
  if (from.length === 0)
    throw new Error(`pack order move ${move.event} to ${move.to} is not in PACK_ORDER_TRANSITIONS`);
  return tx
    .update(packOrder)
    .set({ ...move.set, status: move.to })
    .where(and(inArray(packOrder.status, from), move.where))
    .returning();
}

/** The key that seals bought codes, derived from the master key (no second secret to keep). */
const sealKey = (masterKey: Buffer, siteId: number) =>
  createHmac('sha256', masterKey).update(`pack-code-seal:${siteId}`).digest();

const newPackOrderNo = (now: Date) =>
  `PK${chinaTime(now, 'YYYYMMDDHHmmss')}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** A code in groups of four, as printed on a card. */
const grouped = (code: string) => code.replace(/(.{4})(?=.)/g, '$1 ');

async function viewOf(db: Db, order: OrderRow): Promise<PackOrder> {
  const [product] = await db.select().from(packProduct).where(eq(packProduct.id, order.packProductId));
  const [card] = order.cardId ? await db.select().from(packCard).where(eq(packCard.id, order.cardId)) : [];
  if (!product) throw new Error(`pack product ${order.packProductId} missing`);
  return {
    orderNo: order.orderNo,
    packId: product.id,
    name: product.name,
    faceValue: product.faceValue,
    payAmount: order.payAmount,
    payWay: order.payWay,
    status: order.status,
    statusName: ORDER_STATUS_NAME[order.status] ?? order.status,
    asGift: order.asGift,
    card: card ? cardOf(card) : null,
    createTime: order.createdAt.toISOString(),
    payTime: order.paidAt?.toISOString() ?? null,
    expireTime: order.expireAt?.toISOString() ?? null,
  };
}

const myOrder = (ctx: MemberCtx) =>
  and(eq(packOrder.siteId, ctx.site.row.id), eq(packOrder.memberId, ctx.member.id));

async function orderByRequest(ctx: MemberCtx, requestId: string) {
  const [row] = await ctx.db
    .select()
    .from(packOrder)
    .where(and(myOrder(ctx), eq(packOrder.requestId, requestId)));
  return row;
}

async function findPackOrder(ctx: MemberCtx, orderNo: string): Promise<OrderRow> {
  const [row] = await ctx.db
    .select()
    .from(packOrder)
    .where(and(myOrder(ctx), eq(packOrder.orderNo, orderNo)));
  if (!row) throw failure(PACK_MSG.orderNotFound);
  return row;
}

/** Issues the card of a paid pack order and seals its code on the order, in the caller's transaction. */
async function issueCard(tx: Db, masterKey: Buffer, order: OrderRow, now: Date): Promise<OrderRow> {
  const [row] = await tx.select().from(packProduct).where(eq(packProduct.id, order.packProductId));
  if (!row) throw new Error(`pack product ${order.packProductId} missing`);
  const plain = { code: newCardCode(), pin: newCardPin() };
  const [card] = await insertCards(tx, cardPepper(masterKey, order.siteId), productOf(row), [plain], {
    siteId: order.siteId,
    batchId: null,
    event: order.asGift ? 'buyAsGift' : 'buy',
    memberId: order.asGift ? null : order.memberId,
    bizId: order.orderNo,
    actor: `member:${order.memberId}`,
    now,
  });
  if (!card) throw new Error('card not issued');
  const [issued] = await tx
    .update(packOrder)
    .set({ cardId: card.id, codeSealed: sealText(sealKey(masterKey, order.siteId), JSON.stringify(plain)) })
    .where(eq(packOrder.id, order.id))
    .returning();
  return issued as OrderRow;
}

const payableOf = (order: OrderRow) => ({
  payee: 'pack' as const,
  id: order.id,
  orderNo: order.orderNo,
  siteId: order.siteId,
  memberId: order.memberId,
  payAmount: order.payAmount,
  expireAt: order.expireAt as Date,
});

/** The WeChat code of an unpaid purchase still in time: the open one, or a new one. */
async function codeFor(ctx: MemberCtx, deps: PackPayDeps, order: OrderRow, now: Date): Promise<PackOrder> {
  const view = await viewOf(ctx.db, order);
  if (order.status !== PACK_ORDER_STATUS.unpaid || !order.expireAt || order.expireAt <= now) return view;
  const code = await deps.wechat.startCode(ctx, payableOf(order));
  return { ...view, wechat: deps.wechat.view(code) };
}

/**
 * Buys a pack with points (paid at once) or WeChat (wx_pc: unpaid, answers the code to scan).
 * Refused before anything is written: a pay way the site does not name, a product not sold
 * here. A short balance rolls the whole points purchase back (积分余额不足). The amount is the
 * product's sale price, read here; nothing the member sends sets it.
 */
export async function buyPack(
  ctx: MemberCtx,
  deps: PackPayDeps,
  input: { packId: number; payWay: string; requestId: string; asGift?: boolean },
  now = new Date(),
): Promise<{ order: PackOrder; isNew: boolean }> {
  const earlier = await orderByRequest(ctx, input.requestId);
  if (earlier) return { order: await codeFor(ctx, deps, earlier, now), isNew: false };
  const byWechat = input.payWay === PAY_WAY.wechatPc;
  if (!(input.payWay === PAY_WAY.points || byWechat) || !ctx.site.row.paywayConf.includes(input.payWay))
    throw failure(PACK_MSG.payWayOff);
  const siteId = ctx.site.row.id;
  const [row] = await ctx.db
    .select()
    .from(packProduct)
    .where(
      and(eq(packProduct.siteId, siteId), eq(packProduct.id, input.packId), eq(packProduct.status, 'active')),
    );
  if (!row) throw failure(PACK_MSG.productNotFound);
  const product = productOf(row);
  // WeChat cannot take 0 yuan: a free pack is "bought" with points.
  if (byWechat && product.salePrice < 1) throw failure(PACK_MSG.payWayOff);
  const asGift = input.asGift === true;

  const made = await transaction(ctx, async ({ db: tx }) => {
    const orderNo = newPackOrderNo(now);
    const [order] = await tx
      .insert(packOrder)
      .values({
        siteId,
        orderNo,
        memberId: ctx.member.id,
        packProductId: product.id,
        requestId: input.requestId,
        payWay: input.payWay,
        payAmount: product.salePrice,
        asGift,
        status: createdAs(byWechat ? 'submit' : 'buyWithPoints'),
        createdAt: now,
        paidAt: byWechat ? null : now,
        expireAt: byWechat ? new Date(now.getTime() + deps.expireMinutes * 60_000) : null,
      })
      .onConflictDoNothing()
      .returning();
    // A parallel request with the same id committed first: answer its order (below).
    if (!order) return undefined;
    if (byWechat) return order;
    if (product.salePrice > 0)
      await postEntry(tx, {
        siteId,
        memberId: ctx.member.id,
        amount: -product.salePrice,
        type: 'pay',
        orderNo,
        note: `购买卡包 ${product.name}`,
        requestKey: `packs:${orderNo}`,
      });
    return issueCard(tx, deps.masterKey, order, now);
  });
  if (!made) {
    const first = await orderByRequest(ctx, input.requestId);
    if (!first) throw new Error('pack order neither made nor found');
    return { order: await codeFor(ctx, deps, first, now), isNew: false };
  }
  if (!byWechat) return { order: await viewOf(ctx.db, made), isNew: true };
  try {
    return { order: await codeFor(ctx, deps, made, now), isNew: true };
  } catch (error) {
    // No code could be had (no merchant, WeChat refused): the purchase ends here, unpaid.
    if (!(await deps.wechat.latestCode(ctx.db, made.id, 'pack')))
      await movePackOrder(ctx.db, {
        event: 'expire',
        to: PACK_ORDER_STATUS.closed,
        where: eq(packOrder.id, made.id),
      });
    throw error;
  }
}

/**
 * The payment module's report of a paid pack code (registered as payee 'pack'), in the code's
 * transaction: the order moves unpaid → paid by one guarded UPDATE and its card is issued, so a
 * replayed or parallel report finds it paid and does nothing. False (the money goes back) when
 * the order no longer waits or the amount is not the order's.
 */
export const packPaidByWechat =
  (masterKey: Buffer): OrderPaidByWechat =>
  async (tx, payment) => {
    const [order] = await tx.select().from(packOrder).where(eq(packOrder.id, payment.orderId));
    if (!order || order.orderNo !== payment.orderNo) return false;
    if (payment.pointsAmount !== 0 || payment.cashAmount !== order.payAmount) return false;
    const [paid] = await movePackOrder(tx, {
      event: 'pay',
      to: PACK_ORDER_STATUS.paid,
      where: eq(packOrder.id, order.id),
      set: { paidAt: payment.paidAt },
    });
    if (!paid) return false;
    await issueCard(tx, masterKey, paid, payment.paidAt);
    return true;
  };

/**
 * Closes unpaid WeChat purchases past their time. One left with an open code waits: the
 * payment reconciliation closes the code at WeChat first (or finds it paid, and the order is
 * paid instead). Answers how many closed.
 */
export async function expirePackOrders(db: Db, now = new Date()): Promise<number> {
  const closed = await movePackOrder(db, {
    event: 'expire',
    to: PACK_ORDER_STATUS.closed,
    where: and(
      sql`${packOrder.expireAt} <= ${now.toISOString()}::timestamptz`,
      sql`not ${openCodeExists(sql`pack_order.id`, 'pack')}`,
    ),
  });
  return closed.length;
}

/**
 * A pack order as its buyer sees it; an unpaid one with its latest WeChat code, after asking
 * WeChat when no notify came yet (the pay page polls this; rate-limited per code).
 */
export async function queryPackOrder(ctx: MemberCtx, wechat: WechatPay, orderNo: string): Promise<PackOrder> {
  let order = await findPackOrder(ctx, orderNo);
  if (order.payWay !== PAY_WAY.wechatPc) return viewOf(ctx.db, order);
  let code = await wechat.latestCode(ctx.db, order.id, 'pack');
  if (order.status === PACK_ORDER_STATUS.unpaid && (await wechat.refreshIfDue(ctx.db, code))) {
    order = await findPackOrder(ctx, orderNo);
    code = await wechat.latestCode(ctx.db, order.id, 'pack');
  }
  const view = await viewOf(ctx.db, order);
  return code ? { ...view, wechat: wechat.view(code) } : view;
}

/**
 * The code of a pack order's card. In full, with its PIN, only to its buyer within
 * VIRTUAL_CODE_HOURS of the purchase and while the card is not someone else's; masked after
 * (only the last four characters are ever shown again).
 */
export async function virtualCode(
  ctx: MemberCtx,
  masterKey: Buffer,
  orderNo: string,
  now = new Date(),
): Promise<VirtualCode> {
  const order = await findPackOrder(ctx, orderNo);
  const [card] = order.cardId
    ? await ctx.db.select().from(packCard).where(eq(packCard.id, order.cardId))
    : [];
  if (!card) throw failure(PACK_MSG.orderNotFound);
  const fresh = !!order.paidAt && now.getTime() - order.paidAt.getTime() < VIRTUAL_CODE_HOURS * 3_600_000;
  const stillMine = card.memberId === null || card.memberId === ctx.member.id;
  if (fresh && stillMine && order.codeSealed) {
    const plain = JSON.parse(openText(sealKey(masterKey, order.siteId), order.codeSealed)) as {
      code: string;
      pin: string;
    };
    return { orderNo, code: grouped(plain.code), pin: plain.pin, masked: false };
  }
  return { orderNo, code: cardOf(card).codeMasked, pin: null, masked: true };
}
