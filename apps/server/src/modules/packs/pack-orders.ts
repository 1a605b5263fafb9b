import { createHmac, randomInt } from 'node:crypto';
import { PACK_MSG, PAY_WAY, type PackOrder, VIRTUAL_CODE_HOURS, type VirtualCode } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { openText, sealText } from '../../lib/aes';
import { chinaTime } from '../../lib/china-time';
import { failure } from '../../lib/errors';
import type { MemberCtx } from '../cart/cart.service';
import { postEntry } from '../points/points.service';
import { cardOf, cardPepper, insertCards, newCardCode, newCardPin, productOf } from './packs.service';
import { packCard, packOrder, packProduct } from './packs.tables';

/**
 * Members buying packs (issue 13; design section 2): one transaction debits the points, writes
 * the pack order and issues a new card (bound to the buyer, or kept sold for the buyer to give
 * away). The request id is unique per member, so a retried purchase answers the first one and
 * parallel retries buy once. The card keeps only hashes; its code and PIN are sealed on the
 * order so the buyer can read them again for VIRTUAL_CODE_HOURS.
 */

type OrderRow = typeof packOrder.$inferSelect;

const ORDER_STATUS_NAME: Record<string, string> = { paid: '已支付' };

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

/**
 * Buys a pack with points. Refused before anything is written: another pay way, a product not
 * sold here. A short balance rolls the whole purchase back (积分余额不足).
 */
export async function buyPack(
  ctx: MemberCtx,
  masterKey: Buffer,
  input: { packId: number; payWay: string; requestId: string; asGift?: boolean },
  now = new Date(),
): Promise<{ order: PackOrder; isNew: boolean }> {
  const earlier = await orderByRequest(ctx, input.requestId);
  if (earlier) return { order: await viewOf(ctx.db, earlier), isNew: false };
  // WeChat codes belong to mall orders (payment module); packs are bought with points for now.
  if (input.payWay !== PAY_WAY.points || !ctx.site.row.paywayConf.includes(PAY_WAY.points))
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
  const asGift = input.asGift === true;
  const actor = `member:${ctx.member.id}`;

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
        status: 'paid',
        createdAt: now,
        paidAt: now,
      })
      .onConflictDoNothing()
      .returning();
    // A parallel request with the same id committed first: answer its order (below).
    if (!order) return undefined;
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
    const plain = { code: newCardCode(), pin: newCardPin() };
    const [card] = await insertCards(tx, cardPepper(masterKey, siteId), product, [plain], {
      siteId,
      batchId: null,
      event: asGift ? 'buyAsGift' : 'buy',
      memberId: asGift ? null : ctx.member.id,
      bizId: orderNo,
      actor,
      now,
    });
    if (!card) throw new Error('card not issued');
    const [paid] = await tx
      .update(packOrder)
      .set({ cardId: card.id, codeSealed: sealText(sealKey(masterKey, siteId), JSON.stringify(plain)) })
      .where(eq(packOrder.id, order.id))
      .returning();
    return viewOf(tx, paid as OrderRow);
  });
  if (made) return { order: made, isNew: true };
  const first = await orderByRequest(ctx, input.requestId);
  if (!first) throw new Error('pack order neither made nor found');
  return { order: await viewOf(ctx.db, first), isNew: false };
}

export async function queryPackOrder(ctx: MemberCtx, orderNo: string): Promise<PackOrder> {
  return viewOf(ctx.db, await findPackOrder(ctx, orderNo));
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
