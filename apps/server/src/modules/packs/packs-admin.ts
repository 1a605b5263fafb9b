import { createHmac } from 'node:crypto';
import {
  ADMIN_MSG,
  type AdminCard,
  type AdminPackProduct,
  CARD_BATCH_TRANSITIONS,
  CARD_STATUS,
  CARD_TRANSITIONS,
  type CardBatch,
  type CardBatchStatus,
  type CardStatus,
  movableFrom,
  PROMO_MSG,
} from '@sitemall/contract';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { openText, sealText } from '../../lib/aes';
import { failure } from '../../lib/errors';
import { emptyPage, type ListPage, listPage } from '../../lib/paging';
import { type OperatorCtx, sitesToRead } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import {
  createAudited,
  editAudited,
  inSites,
  isoOrNull,
  listInScope,
  noSites,
  rowOnSite,
} from '../admin/console-kit';
import { fourEyes } from '../admin/four-eyes';
import { operatorNames } from '../admin/operators';
import { memberIdsByPhone, memberLabels } from '../identity/member-admin';
import { siteNamesIn } from '../site/site-admin';
import { cardFreeze, cardIssue } from './card-issue.tables';
import { cardPepper, hashCode, issueCards, moveCards, normalizeCode } from './packs.service';
import { packBatch, packCard, packProduct } from './packs.tables';

/**
 * The console's pack screens (issue 13 item 5): pack products, card batches with four eyes
 * (submitted by a maker, approved by another operator with the finance permission, the cards
 * generated in the approval's transaction; a guarded status move makes two approvals execute
 * once), the codes and PINs downloadable once (sealed until then, emptied by the download),
 * card search by the last four characters, the whole code or the member, freeze and unfreeze.
 */

/** Statuses whose balance the site still owes. */
const OWED = ['unsold', 'sold', 'bound', 'frozen'] as const;

/** The key sealing a batch's codes until their one download, derived from the master key. */
const exportKey = (masterKey: Buffer) => createHmac('sha256', masterKey).update('card-export').digest();

// ---- pack products --------------------------------------------------------------------------

async function productsWhere(
  db: Db,
  where: SQL | undefined,
  pageNum: number,
): Promise<ListPage<AdminPackProduct>> {
  const owed = inArray(packCard.status, [...OWED]);
  const page = await listPage({
    pageNum: pageNum,
    rows: db
      .select({
        p: packProduct,
        cards: sql<number>`count(${packCard.id})::int`,
        liability: sql<number>`coalesce(sum(${packCard.balance}) filter (where ${owed}), 0)::int`,
      })
      .from(packProduct)
      .leftJoin(packBatch, eq(packBatch.packProductId, packProduct.id))
      .leftJoin(packCard, eq(packCard.batchId, packBatch.id))
      .where(where)
      .groupBy(packProduct.id)
      .orderBy(desc(packProduct.id))
      .$dynamic(),
    total: db.select({ n: count() }).from(packProduct).where(where),
  });
  return { ...page, list: page.list.map(({ p, cards, liability }) => ({ ...p, cards, liability })) };
}

export const listPackProducts = (ctx: OperatorCtx, query: { siteId?: number; pageNum?: number }) =>
  listInScope(ctx, 'promotions:view', query, packProduct.siteId, (inScope, pageNum) =>
    productsWhere(ctx.db, inScope, pageNum),
  );

const productOf = async (db: Db, id: number) =>
  (await productsWhere(db, eq(packProduct.id, id), 1)).list[0] as AdminPackProduct;

export async function createPackProduct(
  ctx: OperatorCtx,
  input: {
    siteId: number;
    name: string;
    faceValue: number;
    salePrice: number;
    validityDays: number;
    reason?: string;
  },
) {
  const { reason, ...fields } = input;
  const id = await createAudited(
    ctx,
    packProduct,
    { ...fields, name: fields.name.trim() },
    { action: 'promotion.pack.create', entity: 'pack_product', after: fields, reason: reason?.trim() ?? '' },
  );
  return productOf(ctx.db, id);
}

/** Name, price, validity (for cards issued from now on) and status; the face value stays. */
export async function updatePackProduct(
  ctx: OperatorCtx,
  input: {
    siteId: number;
    productId: number;
    name?: string;
    salePrice?: number;
    validityDays?: number;
    status?: string;
    reason: string;
  },
) {
  const reason = requireReason(input.reason);
  const { siteId, productId, reason: _, ...change } = input;
  await editAudited(ctx, packProduct, { siteId, id: productId }, change, {
    action: 'promotion.pack.update',
    entity: 'pack_product',
    reason,
  });
  return productOf(ctx.db, productId);
}

// ---- card batches (four eyes) ---------------------------------------------------------------

type IssueRow = typeof cardIssue.$inferSelect;

async function present(db: Db, rows: IssueRow[]): Promise<CardBatch[]> {
  const productIds = [...new Set(rows.map((r) => r.packProductId))];
  const [products, names] = await Promise.all([
    productIds.length
      ? db.select().from(packProduct).where(inArray(packProduct.id, productIds))
      : Promise.resolve([]),
    operatorNames(
      db,
      rows.flatMap((r) => [r.makerId, r.approverId, r.exportedBy].filter((id): id is number => id !== null)),
    ),
  ]);
  const product = new Map(products.map((p) => [p.id, p]));
  return rows.map((r) => ({
    id: r.id,
    siteId: r.siteId,
    productId: r.packProductId,
    productName: product.get(r.packProductId)?.name ?? '',
    faceValue: product.get(r.packProductId)?.faceValue ?? 0,
    quantity: r.quantity,
    status: r.status as CardBatchStatus,
    makerId: r.makerId,
    makerName: names.get(r.makerId) ?? '',
    approverId: r.approverId,
    approverName: r.approverId ? (names.get(r.approverId) ?? '') : '',
    reason: r.reason,
    packBatchId: r.packBatchId,
    exportable: r.sealedCodes !== null,
    exportedAt: isoOrNull(r.exportedAt),
    exportedBy: r.exportedBy ? (names.get(r.exportedBy) ?? '') : '',
    createdAt: r.createdAt.toISOString(),
  }));
}
const presentOne = async (db: Db, row: IssueRow) => (await present(db, [row]))[0] as CardBatch;

export async function listCardBatches(
  ctx: OperatorCtx,
  query: { siteId?: number; status?: CardBatchStatus; pageNum?: number },
): Promise<ListPage<CardBatch>> {
  return listInScope(ctx, 'promotions:view', query, cardIssue.siteId, async (inScope, pageNum) => {
    const where = and(inScope, query.status ? eq(cardIssue.status, query.status) : undefined);
    const page = await listPage({
      pageNum: pageNum,
      rows: ctx.db.select().from(cardIssue).where(where).orderBy(desc(cardIssue.id)).$dynamic(),
      total: ctx.db.select({ n: count() }).from(cardIssue).where(where),
    });
    return { ...page, list: await present(ctx.db, page.list) };
  });
}

export async function createCardBatch(
  ctx: OperatorCtx,
  input: { siteId: number; productId: number; quantity: number; reason: string },
) {
  const reason = requireReason(input.reason);
  const product = await rowOnSite(ctx.db, packProduct, input.siteId, input.productId);
  if (product.status !== 'active') throw failure('卡包商品已停用');
  const row = await audited(ctx, async (tx, record) => {
    const [created] = await tx
      .insert(cardIssue)
      .values({
        siteId: input.siteId,
        packProductId: product.id,
        quantity: input.quantity,
        makerId: ctx.operator.id,
        reason,
      })
      .returning();
    if (!created) throw new Error('card issue not created');
    await record({
      siteId: input.siteId,
      action: 'promotion.cards.submit',
      entity: 'card_issue',
      entityId: created.id,
      after: { productId: product.id, quantity: input.quantity, faceValue: product.faceValue },
      reason,
    });
    return created;
  });
  return presentOne(ctx.db, row);
}

/**
 * Card batches' four eyes (`admin/four-eyes.ts`): the one writer of their status, a move of
 * CARD_BATCH_TRANSITIONS only from the status the batch still has (a parallel second decision
 * finds nothing to move), never by its maker.
 */
const batches = fourEyes(cardIssue, {
  entity: 'card_issue',
  transitions: CARD_BATCH_TRANSITIONS,
  msg: { own: PROMO_MSG.ownCardBatch, state: PROMO_MSG.cardBatchState },
});

/** A checker's decision on a submitted batch, stamped with when it was taken. */
const decide = (tx: Db, ctx: OperatorCtx, batch: IssueRow, to: CardBatchStatus) =>
  batches.move(tx, {
    id: batch.id,
    from: batch.status as CardBatchStatus,
    to,
    checker: ctx.operator.id,
    set: { decidedAt: new Date() },
  });

/** A second operator approves: the cards are generated in the same transaction, sealed for export. */
export async function approveCardBatch(ctx: OperatorCtx, masterKey: Buffer, batchId: number) {
  const batch = await batches.load(ctx, batchId, 'finance:manage');
  const names = await operatorNames(ctx.db, [batch.makerId], 'username');
  const approve = {
    action: 'promotion.cards.approve',
    checker: true,
    after: (r: IssueRow) => ({ status: r.status, packBatchId: r.packBatchId, cards: r.quantity }),
  };
  const row = await batches.step(ctx, batch, approve, async (tx) => {
    await decide(tx, ctx, batch, 'approved');
    const issued = await issueCards(tx, masterKey, {
      siteId: batch.siteId,
      productId: batch.packProductId,
      quantity: batch.quantity,
      issuedBy: `operator:${names.get(batch.makerId) ?? batch.makerId}`,
      approvedBy: `operator:${ctx.operator.username}`,
    });
    const file = issued.cards.map((c, i) => `${i + 1},${c.code},${c.pin}`).join('\n');
    const [done] = await tx
      .update(cardIssue)
      .set({ packBatchId: issued.batchId, sealedCodes: sealText(exportKey(masterKey), file) })
      .where(eq(cardIssue.id, batch.id))
      .returning();
    return done as IssueRow;
  });
  return presentOne(ctx.db, row);
}

export async function rejectCardBatch(ctx: OperatorCtx, batchId: number, reason: string) {
  const why = requireReason(reason);
  const batch = await batches.load(ctx, batchId, 'finance:manage');
  const reject = {
    action: 'promotion.cards.reject',
    reason: why,
    checker: true,
    after: (r: IssueRow) => ({ status: r.status }),
  };
  const row = await batches.step(ctx, batch, reject, (tx) => decide(tx, ctx, batch, 'rejected'));
  return presentOne(ctx.db, row);
}

/**
 * The codes and PINs of an approved batch as CSV, once: the guarded UPDATE empties the sealed
 * file and stamps who took it, so a second download (or a parallel one) finds nothing.
 */
export async function exportCardBatch(
  ctx: OperatorCtx,
  masterKey: Buffer,
  batchId: number,
): Promise<{ fileName: string; text: string }> {
  const batch = await batches.load(ctx, batchId, 'promotions:manage');
  if (batch.status !== 'approved') throw failure(PROMO_MSG.notExportable);
  const sealed = await audited(ctx, async (tx, record) => {
    const [taken] = await tx
      .select({ sealed: cardIssue.sealedCodes })
      .from(cardIssue)
      .where(and(eq(cardIssue.id, batch.id), sql`${cardIssue.sealedCodes} is not null`))
      .for('update');
    const [row] = await tx
      .update(cardIssue)
      .set({ sealedCodes: null, exportedAt: new Date(), exportedBy: ctx.operator.id })
      .where(and(eq(cardIssue.id, batch.id), sql`${cardIssue.sealedCodes} is not null`))
      .returning({ id: cardIssue.id });
    if (!taken?.sealed || !row) throw failure(PROMO_MSG.exported);
    await record({
      siteId: batch.siteId,
      action: 'promotion.cards.export',
      entity: 'card_issue',
      entityId: batch.id,
      after: { cards: batch.quantity },
      reason: batch.reason,
    });
    return taken.sealed;
  });
  const rows = openText(exportKey(masterKey), sealed);
  // A BOM so spreadsheet programs read the Chinese header as UTF-8.
  return { fileName: `cards-${batch.id}.csv`, text: `\uFEFF序号,卡号,密码\n${rows}\n` };
}

// ---- cards ----------------------------------------------------------------------------------

type CardRow = typeof packCard.$inferSelect;

async function presentCards(db: Db, rows: CardRow[]): Promise<AdminCard[]> {
  const labels = await memberLabels(
    db,
    rows.flatMap((r) => (r.memberId ? [r.memberId] : [])),
  );
  return rows.map((c) => ({
    id: c.id,
    siteId: c.siteId,
    batchId: c.batchId,
    name: c.name,
    codeMasked: `**** **** **** ${c.codeLast4}`,
    faceValue: c.faceValue,
    balance: c.balance,
    status: c.status,
    memberId: c.memberId,
    member: c.memberId ? (labels.get(c.memberId) ?? '') : '',
    boundAt: isoOrNull(c.boundAt),
    expiresAt: c.expiresAt.toISOString(),
  }));
}

/** What the code field matches: the last four characters, or a whole code by its hash per site. */
async function codeFilter(db: Db, masterKey: Buffer, scope: 'all' | number[], text: string) {
  const compact = text.replace(/[\s-]/g, '').toUpperCase();
  if (!compact) return undefined;
  const whole = normalizeCode(compact);
  if (!whole) return eq(packCard.codeLast4, compact.slice(-4));
  const sites = scope === 'all' ? (await siteNamesIn({ db }, 'all')).map((s) => s.id) : scope;
  return inArray(
    packCard.codeHash,
    sites.map((siteId) => hashCode(cardPepper(masterKey, siteId), whole)),
  );
}

export async function searchCards(
  ctx: OperatorCtx,
  masterKey: Buffer,
  query: { siteId?: number; code?: string; member?: string; status?: string; pageNum?: number },
): Promise<ListPage<AdminCard>> {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'promotions:view', query.siteId);
  if (noSites(scope)) return emptyPage(pageNum);
  const member = query.member?.trim();
  const memberIds = !member
    ? undefined
    : /^1\d{10}$/.test(member)
      ? await memberIdsByPhone(ctx.db, scope, member)
      : /^\d{1,9}$/.test(member)
        ? [Number(member)]
        : [];
  if (memberIds?.length === 0) return emptyPage(pageNum);
  const where = and(
    inSites(packCard.siteId, scope),
    query.code ? await codeFilter(ctx.db, masterKey, scope, query.code) : undefined,
    memberIds ? inArray(packCard.memberId, memberIds) : undefined,
    query.status ? eq(packCard.status, query.status) : undefined,
  );
  const page = await listPage({
    pageNum: pageNum,
    rows: ctx.db.select().from(packCard).where(where).orderBy(desc(packCard.id)).$dynamic(),
    total: ctx.db.select({ n: count() }).from(packCard).where(where),
  });
  return { ...page, list: await presentCards(ctx.db, page.list) };
}

/**
 * Freezes a card (it can no longer be bound or pay; the status it had is kept in card_freeze)
 * or unfreezes it back to that status. Both are guarded on the status they leave.
 */
export async function freezeCard(
  ctx: OperatorCtx,
  input: { siteId: number; cardId: number; frozen: boolean; reason: string },
): Promise<AdminCard> {
  const reason = requireReason(input.reason);
  const card = await audited(ctx, async (tx, record) => {
    const [before] = await tx
      .select()
      .from(packCard)
      .where(and(eq(packCard.siteId, input.siteId), eq(packCard.id, input.cardId)))
      .for('update');
    if (!before) throw failure(ADMIN_MSG.notFound);
    let to: CardStatus;
    if (input.frozen) {
      if (!movableFrom(CARD_TRANSITIONS, 'freeze', CARD_STATUS.frozen).includes(before.status as CardStatus))
        throw failure(PROMO_MSG.cardState);
      await tx.insert(cardFreeze).values({
        cardId: before.id,
        siteId: before.siteId,
        fromStatus: before.status,
        reason,
        operatorId: ctx.operator.id,
      });
      to = CARD_STATUS.frozen;
    } else {
      const [freeze] = await tx.delete(cardFreeze).where(eq(cardFreeze.cardId, before.id)).returning();
      if (!freeze || before.status !== 'frozen') throw failure(PROMO_MSG.cardState);
      to = freeze.fromStatus as CardStatus;
    }
    const [after] = await moveCards(tx, {
      event: input.frozen ? 'freeze' : 'unfreeze',
      to,
      where: and(eq(packCard.id, before.id), eq(packCard.status, before.status)),
    });
    if (!after) throw failure(PROMO_MSG.cardState);
    await record({
      siteId: before.siteId,
      action: input.frozen ? 'promotion.card.freeze' : 'promotion.card.unfreeze',
      entity: 'pack_card',
      entityId: before.id,
      before: { status: before.status },
      after: { status: to },
      reason,
    });
    return after;
  });
  return (await presentCards(ctx.db, [card]))[0] as AdminCard;
}
