import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  CARD_STATUS,
  CARD_TRANSITIONS,
  type CardEvent,
  type CardLedgerEntry,
  type CardStatus,
  movableFrom,
  PACK_MSG,
  type PackCard,
  type PackProduct,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, gt, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
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

export const hashCode = (pepper: Buffer, code: string) =>
  createHmac('sha256', pepper).update(code).digest('hex');
const hashPin = (pepper: Buffer, codeHash: string, pin: string) =>
  createHmac('sha256', pepper).update(`${codeHash}:${pin}`).digest('hex');

export const cardOf = (c: typeof packCard.$inferSelect): PackCard => ({
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

export const productOf = (p: typeof packProduct.$inferSelect): PackProduct => ({
  id: p.id,
  name: p.name,
  faceValue: p.faceValue,
  salePrice: p.salePrice,
  validityDays: p.validityDays,
});

export async function packProducts(ctx: RequestContext, siteId: number): Promise<PackProduct[]> {
  const { db } = ctx;
  const rows = await db
    .select()
    .from(packProduct)
    .where(and(eq(packProduct.siteId, siteId), eq(packProduct.status, 'active')))
    .orderBy(asc(packProduct.id));
  return rows.map(productOf);
}

export async function packProductInfo(ctx: RequestContext, siteId: number, id: number): Promise<PackProduct> {
  const { db } = ctx;
  const [row] = await db
    .select()
    .from(packProduct)
    .where(and(eq(packProduct.siteId, siteId), eq(packProduct.id, id)));
  if (!row) throw failure(PACK_MSG.productNotFound);
  return productOf(row);
}

/** The status a new card starts in, by the event that makes it (CARD_TRANSITIONS). */
function createdAs(event: CardEvent): CardStatus {
  const made = CARD_TRANSITIONS.find((t) => t.from === null && t.event === event);
  if (!made) throw new Error(`no card is created by ${event}`);
  return made.to;
}

/**
 * The one writer of card statuses after issue: moves the cards matching `where` by `event` to
 * `to` from the statuses CARD_TRANSITIONS allows for that move, as one conditional UPDATE (of
 * parallel moves of a card, one wins). A move not in the table throws before anything is
 * written. Balances move elsewhere, always with their ledger entry.
 */
export async function moveCards(
  tx: Db,
  move: {
    event: CardEvent;
    to: CardStatus;
    where: SQL | undefined;
    set?: Partial<Pick<typeof packCard.$inferInsert, 'memberId' | 'boundAt' | 'balance'>>;
  },
): Promise<(typeof packCard.$inferSelect)[]> {
  const from = movableFrom(CARD_TRANSITIONS, move.event, move.to);
  if (from.length === 0) throw new Error(`card move ${move.event} to ${move.to} is not in CARD_TRANSITIONS`);
  return tx
    .update(packCard)
    .set({ ...move.set, status: move.to })
    .where(and(inArray(packCard.status, from), move.where))
    .returning();
}

export const newCardPin = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Writes new cards of a product with their issue entries, in the caller's transaction: only
 * the hashes of codes and PINs are kept. A batch (operator) or a purchase (pack order) issues.
 */
export async function insertCards(
  tx: Db,
  pepper: Buffer,
  product: PackProduct,
  plain: readonly { code: string; pin: string }[],
  input: {
    siteId: number;
    batchId: number | null;
    /** issue (operator batch, unsold), buy (bound to the buyer) or buyAsGift (sold). */
    event: 'issue' | 'buy' | 'buyAsGift';
    memberId: number | null;
    bizId: string;
    actor: string;
    now: Date;
  },
): Promise<(typeof packCard.$inferSelect)[]> {
  const status = createdAs(input.event);
  const rows = await tx
    .insert(packCard)
    .values(
      plain.map(({ code, pin }) => {
        const codeHash = hashCode(pepper, code);
        return {
          siteId: input.siteId,
          batchId: input.batchId,
          name: product.name,
          codeHash,
          codeLast4: code.slice(-4),
          pinHash: hashPin(pepper, codeHash, pin),
          faceValue: product.faceValue,
          balance: product.faceValue,
          status,
          memberId: input.memberId,
          boundAt: status === CARD_STATUS.bound ? input.now : null,
          expiresAt: new Date(input.now.getTime() + product.validityDays * 86_400_000),
        };
      }),
    )
    .returning();
  await tx.insert(packLedger).values(
    rows.map((r) => ({
      siteId: input.siteId,
      cardId: r.id,
      delta: r.balance,
      balanceAfter: r.balance,
      bizType: 'issue',
      bizId: input.bizId,
      actor: input.actor,
    })),
  );
  return rows;
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
  const product = await packProductInfo({ db }, input.siteId, input.productId);
  const pepper = cardPepper(masterKey, input.siteId);
  return db.transaction(async (tx) => {
    const { given, ...row } = input;
    const [batch] = await tx
      .insert(packBatch)
      .values({ ...row, packProductId: input.productId })
      .returning({ id: packBatch.id });
    if (!batch) throw new Error('batch not created');
    const plain =
      given ?? Array.from({ length: input.quantity }, () => ({ code: newCardCode(), pin: newCardPin() }));
    const rows = await insertCards(tx, pepper, product, plain, {
      siteId: input.siteId,
      batchId: batch.id,
      event: 'issue',
      memberId: null,
      bizId: String(batch.id),
      actor: input.issuedBy,
      now,
    });
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
  return transaction(ctx, async ({ db: tx }) => {
    const [bound] = await moveCards(tx, {
      event: 'bind',
      to: CARD_STATUS.bound,
      where: and(eq(packCard.id, card.id), gt(packCard.expiresAt, new Date())),
      set: { memberId: ctx.member.id, boundAt: new Date() },
    });
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
  return listPage({
    pageNum,
    rows: ctx.db.select().from(packCard).where(mine(ctx)).orderBy(desc(packCard.boundAt), desc(packCard.id)),
    total: ctx.db.select({ n: count() }).from(packCard).where(mine(ctx)),
    present: (rows) => rows.map(cardOf),
  });
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
  return listPage({
    pageNum,
    rows: ctx.db.select().from(packLedger).where(where).orderBy(desc(packLedger.id)),
    total: ctx.db.select({ n: count() }).from(packLedger).where(where),
    present: (rows) =>
      rows.map(
        (r): CardLedgerEntry => ({
          id: r.id,
          delta: r.delta,
          balanceAfter: r.balanceAfter,
          type: r.bizType,
          typeName: LEDGER_NAME[r.bizType] ?? r.bizType,
          orderNo: r.bizType === 'pay' || r.bizType === 'refund' ? r.bizId : null,
          time: r.at.toISOString(),
        }),
      ),
  });
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
      orderNo: input.orderNo,
      actor: input.actor,
    });
    left -= take;
  }
  return input.amount - left;
}

/** What a refund (its id) gave back to cards so far: 0 when it has not run. */
export async function cardRefundOf(tx: Db, input: { orderNo: string; refundId: string }): Promise<number> {
  const [row] = await tx
    .select({ sum: sql<number>`coalesce(sum(${packLedger.delta}), 0)::int` })
    .from(packLedger)
    .where(
      and(
        eq(packLedger.orderNo, input.orderNo),
        eq(packLedger.bizType, 'refund'),
        eq(packLedger.bizId, input.refundId),
      ),
    );
  return Number(row?.sum ?? 0);
}

/** Per card, what it paid for an order and what refunds gave back to it so far. */
const cardAccountsOf = (tx: Db, orderNo: string) =>
  tx
    .select({
      cardId: packLedger.cardId,
      paid: sql<number>`coalesce(-sum(${packLedger.delta}) filter (where ${packLedger.bizType} = 'pay'), 0)::int`,
      refunded: sql<number>`coalesce(sum(${packLedger.delta}) filter (where ${packLedger.bizType} = 'refund'), 0)::int`,
    })
    .from(packLedger)
    .where(eq(packLedger.orderNo, orderNo))
    .groupBy(packLedger.cardId)
    .orderBy(asc(packLedger.cardId));

/**
 * A refund of an order paid partly with cards (issue 13): gives back up to `amount` to the
 * cards that paid it, each at most what it paid for the order less what earlier refunds gave
 * it, in the refund's transaction. The cards are locked (id order) before their accounts are
 * read, so parallel refunds of one order queue and never give a card back more than it paid;
 * the refund id keys the ledger entries, so running a refund again gives nothing twice (it
 * answers what it gave). Answers the fen given to cards; the caller refunds the rest in points.
 * An expired card gets its share too (the expiry job clears it again).
 */
export async function refundToCards(
  tx: Db,
  input: { orderNo: string; amount: number; refundId: string; actor: string },
): Promise<number> {
  if (input.amount <= 0) return 0;
  const first = await cardAccountsOf(tx, input.orderNo);
  if (first.length === 0) return 0;
  await tx
    .select({ id: packCard.id })
    .from(packCard)
    .where(
      inArray(
        packCard.id,
        first.map((a) => a.cardId),
      ),
    )
    .orderBy(asc(packCard.id))
    .for('update');
  const before = await cardRefundOf(tx, input);
  if (before > 0) return before;
  let left = input.amount;
  for (const account of await cardAccountsOf(tx, input.orderNo)) {
    const give = Math.min(Number(account.paid) - Number(account.refunded), left);
    if (give <= 0) continue;
    const [after] = await tx
      .update(packCard)
      .set({ balance: sql`${packCard.balance} + ${give}` })
      .where(
        and(eq(packCard.id, account.cardId), sql`${packCard.balance} + ${give} <= ${packCard.faceValue}`),
      )
      .returning({ balance: packCard.balance, siteId: packCard.siteId });
    if (!after) throw new Error(`card ${account.cardId} cannot take back ${give}`);
    await tx.insert(packLedger).values({
      siteId: after.siteId,
      cardId: account.cardId,
      delta: give,
      balanceAfter: after.balance,
      bizType: 'refund',
      bizId: input.refundId,
      orderNo: input.orderNo,
      actor: input.actor,
    });
    left -= give;
    if (left === 0) break;
  }
  return input.amount - left;
}

/**
 * The card expiry job (design section 2): cards past their end lose their balance with an
 * `expire` ledger entry and move to expired. Batches lock due cards with FOR UPDATE SKIP
 * LOCKED, so several processes share the work and never take one card twice; the entry is
 * keyed by the last ledger entry it follows, so a rerun writes nothing and a refund that later
 * reaches an expired card is cleared by the next run. Answers the cards cleared or moved.
 */
export async function expireCards(db: Db, now = new Date(), batch = 100): Promise<number> {
  const movable = movableFrom(CARD_TRANSITIONS, 'expire', CARD_STATUS.expired);
  let done = 0;
  for (;;) {
    const moved = await db.transaction(async (tx) => {
      const due = await tx
        .select({ id: packCard.id, siteId: packCard.siteId, balance: packCard.balance })
        .from(packCard)
        .where(
          and(lte(packCard.expiresAt, now), or(gt(packCard.balance, 0), inArray(packCard.status, movable))),
        )
        .orderBy(asc(packCard.id))
        .limit(batch)
        .for('update', { skipLocked: true });
      for (const card of due) {
        if (card.balance > 0) {
          const [last] = await tx
            .select({ id: sql<number>`max(${packLedger.id})` })
            .from(packLedger)
            .where(eq(packLedger.cardId, card.id));
          await tx.update(packCard).set({ balance: 0 }).where(eq(packCard.id, card.id));
          await tx.insert(packLedger).values({
            siteId: card.siteId,
            cardId: card.id,
            delta: -card.balance,
            balanceAfter: 0,
            bizType: 'expire',
            bizId: `after:${last?.id ?? 0}`,
            actor: 'system',
          });
        }
        await moveCards(tx, { event: 'expire', to: CARD_STATUS.expired, where: eq(packCard.id, card.id) });
      }
      return due.length;
    });
    done += moved;
    if (moved < batch) return done;
  }
}

/**
 * The liability report of a site (for the console): what its cards still owe — the sum of
 * balances of cards not expired or void, by status, at this moment.
 */
export async function cardLiability(
  db: Db,
  siteId: number,
): Promise<{ status: string; cards: number; balance: number }[]> {
  const rows = await db
    .select({
      status: packCard.status,
      cards: count(),
      balance: sql<number>`coalesce(sum(${packCard.balance}), 0)::bigint`,
    })
    .from(packCard)
    .where(and(eq(packCard.siteId, siteId), inArray(packCard.status, ['unsold', 'sold', 'bound', 'frozen'])))
    .groupBy(packCard.status)
    .orderBy(asc(packCard.status));
  return rows.map((r) => ({ status: r.status, cards: Number(r.cards), balance: Number(r.balance) }));
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
