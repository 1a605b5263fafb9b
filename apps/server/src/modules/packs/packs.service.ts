import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  type CardLedgerEntry,
  PACK_MSG,
  PAGE_SIZE,
  type PackCard,
  type PackProduct,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import { offsetOf } from '../../lib/paging';
import type { MemberCtx } from '../cart/cart.service';
import { packBatch, packCard, packLedger, packProduct } from './packs.tables';

/**
 * Prepaid packs = gift cards (issue 13; design section 2): issue with a second approver, codes
 * and PINs kept only as keyed hashes, bind by code + PIN (bounded attempts, one answer for
 * every failure), pay orders from cards with guarded decrements and a ledger keyed by card,
 * kind and order.
 */

const STATUS_NAME: Record<string, string> = {
  unsold: '未售出',
  sold: '已售出',
  bound: '可用',
  frozen: '已冻结',
  exhausted: '已用完',
  expired: '已过期',
  void: '已作废',
};
const LEDGER_NAME: Record<string, string> = {
  issue: '发卡',
  bind: '绑定',
  pay: '订单支付',
  refund: '退款退回',
  adjust: '调整',
  expire: '过期清零',
};

/** The key of a site's card hashes, derived from the master key (no second secret to keep). */
export const cardPepper = (masterKey: Buffer, siteId: number) =>
  createHmac('sha256', masterKey).update(`pack-card:${siteId}`).digest();

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** 16 characters of base32 from 80 random bits. */
export function newCardCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** A code as typed (any case, spaces or dashes between groups) → its 16 characters, or null. */
export function normalizeCode(code: string): string | null {
  const text = code.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z2-7]{16}$/.test(text) ? text : null;
}

const hashCode = (pepper: Buffer, code: string) => createHmac('sha256', pepper).update(code).digest('hex');
const hashPin = (pepper: Buffer, codeHash: string, pin: string) =>
  createHmac('sha256', pepper).update(`${codeHash}:${pin}`).digest('hex');

const cardOf = (c: typeof packCard.$inferSelect): PackCard => ({
  id: c.id,
  name: c.name,
  codeMasked: `**** **** **** ${c.codeLast4}`,
  faceValue: c.faceValue,
  balance: c.balance,
  status: c.status,
  statusName: STATUS_NAME[c.status] ?? c.status,
  boundTime: c.boundAt?.toISOString() ?? null,
  expireTime: c.expiresAt.toISOString(),
});

const productOf = (p: typeof packProduct.$inferSelect): PackProduct => ({
  id: p.id,
  name: p.name,
  faceValue: p.faceValue,
  salePrice: p.salePrice,
  validityDays: p.validityDays,
});

export async function packProducts(db: Db, siteId: number): Promise<PackProduct[]> {
  const rows = await db
    .select()
    .from(packProduct)
    .where(and(eq(packProduct.siteId, siteId), eq(packProduct.status, 'active')))
    .orderBy(asc(packProduct.id));
  return rows.map(productOf);
}

export async function packProductInfo(db: Db, siteId: number, id: number): Promise<PackProduct> {
  const [row] = await db
    .select()
    .from(packProduct)
    .where(and(eq(packProduct.siteId, siteId), eq(packProduct.id, id)));
  if (!row) throw failure(PACK_MSG.productNotFound);
  return productOf(row);
}

/**
 * Issues a batch of cards (operator, with a second approver): answers the codes and PINs once;
 * only their hashes are stored.
 */
export async function issueCards(
  db: Db,
  masterKey: Buffer,
  input: {
    siteId: number;
    productId: number;
    quantity: number;
    issuedBy: string;
    approvedBy: string;
    /** Given codes and PINs instead of random ones: only the demo cards (demoCards). */
    given?: { code: string; pin: string }[];
  },
  now = new Date(),
): Promise<{ batchId: number; cards: { id: number; code: string; pin: string }[] }> {
  if (input.issuedBy === input.approvedBy) throw failure('发卡须由另一名操作员审批');
  const product = await packProductInfo(db, input.siteId, input.productId);
  const pepper = cardPepper(masterKey, input.siteId);
  return db.transaction(async (tx) => {
    const { given, ...row } = input;
    const [batch] = await tx
      .insert(packBatch)
      .values({ ...row, packProductId: input.productId })
      .returning({ id: packBatch.id });
    if (!batch) throw new Error('batch not created');
    const plain =
      given ??
      Array.from({ length: input.quantity }, () => ({
        code: newCardCode(),
        pin: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      }));
    const rows = await tx
      .insert(packCard)
      .values(
        plain.map(({ code, pin }) => {
          const codeHash = hashCode(pepper, code);
          return {
            siteId: input.siteId,
            batchId: batch.id,
            name: product.name,
            codeHash,
            codeLast4: code.slice(-4),
            pinHash: hashPin(pepper, codeHash, pin),
            faceValue: product.faceValue,
            balance: product.faceValue,
            status: 'unsold',
            expiresAt: new Date(now.getTime() + product.validityDays * 86_400_000),
          };
        }),
      )
      .returning({ id: packCard.id, balance: packCard.balance });
    await tx.insert(packLedger).values(
      rows.map((r) => ({
        siteId: input.siteId,
        cardId: r.id,
        delta: r.balance,
        balanceAfter: r.balance,
        bizType: 'issue',
        bizId: String(batch.id),
        actor: input.issuedBy,
      })),
    );
    return {
      batchId: batch.id,
      cards: rows.map((r, i) => ({ id: r.id, ...(plain[i] as { code: string; pin: string }) })),
    };
  });
}

/**
 * Binds a card to the member by code and PIN. An unknown code, a wrong PIN, a card bound to
 * someone else or expired all answer the same words; the guarded update binds a card once.
 */
export async function bindCard(
  ctx: MemberCtx,
  masterKey: Buffer,
  code: string,
  pin: string,
): Promise<PackCard> {
  const normal = normalizeCode(code);
  if (!normal) throw failure(PACK_MSG.badCode);
  const pepper = cardPepper(masterKey, ctx.site.row.id);
  const codeHash = hashCode(pepper, normal);
  const [card] = await ctx.db
    .select()
    .from(packCard)
    .where(and(eq(packCard.siteId, ctx.site.row.id), eq(packCard.codeHash, codeHash)));
  const given = Buffer.from(hashPin(pepper, codeHash, pin), 'hex');
  const pinOk = !!card && timingSafeEqual(given, Buffer.from(card.pinHash, 'hex'));
  if (!card || !pinOk) throw failure(PACK_MSG.badCode);
  if (card.memberId === ctx.member.id) throw failure(PACK_MSG.alreadyMine);
  return ctx.db.transaction(async (tx) => {
    const [bound] = await tx
      .update(packCard)
      .set({ status: 'bound', memberId: ctx.member.id, boundAt: new Date() })
      .where(
        and(
          eq(packCard.id, card.id),
          sql`${packCard.status} in ('unsold', 'sold')`,
          gt(packCard.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!bound) throw failure(PACK_MSG.badCode);
    await tx.insert(packLedger).values({
      siteId: bound.siteId,
      cardId: bound.id,
      delta: 0,
      balanceAfter: bound.balance,
      bizType: 'bind',
      bizId: String(ctx.member.id),
      actor: `member:${ctx.member.id}`,
    });
    return cardOf(bound);
  });
}

const mine = (ctx: MemberCtx) =>
  and(eq(packCard.siteId, ctx.site.row.id), eq(packCard.memberId, ctx.member.id));
/** Cards that can pay now: bound to the member, not expired, with a balance. */
const usable = (now: Date) =>
  and(eq(packCard.status, 'bound'), gt(packCard.expiresAt, now), gt(packCard.balance, 0));

export async function myCards(ctx: MemberCtx, pageNum = 1) {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(packCard)
      .where(mine(ctx))
      .orderBy(desc(packCard.boundAt), desc(packCard.id))
      .limit(PAGE_SIZE)
      .offset(offsetOf(pageNum)),
    ctx.db.select({ n: count() }).from(packCard).where(mine(ctx)),
  ]);
  return { list: rows.map(cardOf), total: total?.n ?? 0, pageNum, pageSize: PAGE_SIZE };
}

/** How many cards the member holds and the balance they can pay with now. */
export async function cardCount(ctx: MemberCtx): Promise<{ count: number; balance: number }> {
  const [all] = await ctx.db.select({ n: count() }).from(packCard).where(mine(ctx));
  const [open] = await ctx.db
    .select({ balance: sql<number>`coalesce(sum(${packCard.balance}), 0)::int` })
    .from(packCard)
    .where(and(mine(ctx), usable(new Date())));
  return { count: all?.n ?? 0, balance: Number(open?.balance ?? 0) };
}

/** One card's ledger, newest first (the member's cards only). */
export async function cashList(ctx: MemberCtx, cardId: number, pageNum = 1) {
  const [card] = await ctx.db
    .select({ id: packCard.id })
    .from(packCard)
    .where(and(mine(ctx), eq(packCard.id, cardId)));
  if (!card) throw failure(PACK_MSG.notFound);
  const where = eq(packLedger.cardId, card.id);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(packLedger)
      .where(where)
      .orderBy(desc(packLedger.id))
      .limit(PAGE_SIZE)
      .offset(offsetOf(pageNum)),
    ctx.db.select({ n: count() }).from(packLedger).where(where),
  ]);
  const list: CardLedgerEntry[] = rows.map((r) => ({
    id: r.id,
    delta: r.delta,
    balanceAfter: r.balanceAfter,
    type: r.bizType,
    typeName: LEDGER_NAME[r.bizType] ?? r.bizType,
    orderNo: r.bizType === 'pay' || r.bizType === 'refund' ? r.bizId : null,
    time: r.at.toISOString(),
  }));
  return { list, total: total?.n ?? 0, pageNum, pageSize: PAGE_SIZE };
}

/**
 * Pays up to `amount` of an order from the member's cards, in the payment's transaction:
 * cards locked in id order, spent smallest balance first, never more than the order; each
 * decrement guarded (`balance >= x`) with its ledger entry keyed by card and order. Answers
 * the fen taken; the caller takes the rest in points.
 */
export async function spendCards(
  tx: Db,
  input: { siteId: number; memberId: number; orderNo: string; amount: number; actor: string },
): Promise<number> {
  const now = new Date();
  const cards = await tx
    .select({ id: packCard.id, balance: packCard.balance })
    .from(packCard)
    .where(and(eq(packCard.siteId, input.siteId), eq(packCard.memberId, input.memberId), usable(now)))
    .orderBy(asc(packCard.id))
    .for('update');
  cards.sort((a, b) => a.balance - b.balance || a.id - b.id);
  let left = input.amount;
  for (const card of cards) {
    if (left === 0) break;
    const take = Math.min(card.balance, left);
    const [after] = await tx
      .update(packCard)
      .set({ balance: sql`${packCard.balance} - ${take}` })
      .where(and(eq(packCard.id, card.id), eq(packCard.status, 'bound'), sql`${packCard.balance} >= ${take}`))
      .returning({ balance: packCard.balance });
    if (!after) continue;
    await tx.insert(packLedger).values({
      siteId: input.siteId,
      cardId: card.id,
      delta: -take,
      balanceAfter: after.balance,
      bizType: 'pay',
      bizId: input.orderNo,
      actor: input.actor,
    });
    left -= take;
  }
  return input.amount - left;
}

/** The demo's gift cards (documented like the demo passwords; demo mode only). */
export const DEMO_CARDS = [
  { code: 'DEMOGIFTCARD2345', pin: '719719' },
  { code: 'DEMOGIFTCARD2346', pin: '719719' },
];

/** Issues the demo cards on 719 once (the seed has no keys; the app does). */
export async function ensureDemoCards(db: Db, masterKey: Buffer): Promise<void> {
  const [product] = await db
    .select({ id: packProduct.id })
    .from(packProduct)
    .where(and(eq(packProduct.siteId, 719), eq(packProduct.faceValue, 10_000)));
  if (!product) return;
  const [any] = await db.select({ id: packCard.id }).from(packCard).where(eq(packCard.siteId, 719)).limit(1);
  if (any) return;
  try {
    await issueCards(db, masterKey, {
      siteId: 719,
      productId: product.id,
      quantity: DEMO_CARDS.length,
      issuedBy: 'demo',
      approvedBy: 'demo-approver',
      given: DEMO_CARDS,
    });
  } catch (error) {
    // Another process of the cluster issued them first (unique code hash): nothing to do.
    if (!isUniqueViolation(error)) throw error;
  }
}
