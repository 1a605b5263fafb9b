import { randomInt } from 'node:crypto';
import {
  ACTIVITY_STATUS,
  BARGAIN_MSG,
  BARGAIN_STATUS,
  BARGAIN_STATUS_LABEL,
  type BargainActivityCard,
  type BargainEvent,
  type BargainHelper,
  type BargainStatus,
  type BargainView,
  bargainFromStatuses,
  CODE,
  type HelpResult,
} from '@sitemall/contract';
import { and, asc, desc, eq, gt, inArray, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import { type RequestContext, transaction } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError, failure } from '../../lib/errors';
import type { MemberCtx } from '../cart/cart.service';
import { siteOf } from '../catalog/catalog.service';
import { specificationsOnSite } from '../catalog/products';
import { memberNames } from '../identity/members';
import { bargainActivity, bargainHelp, bargainHelperDay, bargainRecord } from './bargain.tables';
import { productOffers } from './offers';
import { mallDay, timingOf } from './timing';

/**
 * Bargain (design promotions.md §5). A help is one transaction on the bargain's locked row: the
 * help row (unique per helper and bargain), the helper's daily quota (a capped upsert), then the
 * cut, chosen here with a cryptographic random number between the activity's bounds and cut to
 * what is left above the floor, by a guarded UPDATE (`price - cut >= floor`, CHECK behind it).
 * Every status move goes through `moveBargain` and BARGAIN_TRANSITIONS (contract bargain.ts).
 */

export type BargainActivityRow = typeof bargainActivity.$inferSelect;
type RecordRow = typeof bargainRecord.$inferSelect;

const OPEN: BargainStatus[] = [BARGAIN_STATUS.inProgress, BARGAIN_STATUS.success];
const HOUR_MS = 3_600_000;

/** Shows a member as others may see them: the phone's middle hidden, or a name's first letter. */
export function maskedName(m: { phone: string | null; username: string | null } | undefined): string {
  if (m?.phone) return m.phone.replace(/^(\d{3})\d{4}(\d*)$/, '$1****$2');
  if (m?.username) return `${m.username.slice(0, 1)}***`;
  return '会员';
}

/**
 * The one writer of a bargain's status: moves the bargains matching `where` that are in a
 * status the event may leave (BARGAIN_TRANSITIONS) to `to`, in one conditional UPDATE, so of
 * two parallel moves one wins. Answers the rows moved.
 */
export async function moveBargain(
  tx: Db,
  where: SQL | undefined,
  event: BargainEvent,
  to: BargainStatus,
  set: Partial<Pick<RecordRow, 'orderNo'>> = {},
): Promise<RecordRow[]> {
  const from = bargainFromStatuses(event, to);
  if (from.length === 0) throw new Error(`no bargain move ${event} to ${to}`);
  return tx
    .update(bargainRecord)
    .set({ ...set, status: to })
    .where(and(where, inArray(bargainRecord.status, from)))
    .returning();
}

/** A bargain past its deadline counts as failed even before the expiry job moved it. */
const statusAt = (r: RecordRow, now: Date): number =>
  OPEN.includes(r.status as BargainStatus) && r.expireAt <= now ? BARGAIN_STATUS.failed : r.status;

async function activityOf(db: Db, siteId: number, id: number): Promise<BargainActivityRow> {
  const [row] = await db
    .select()
    .from(bargainActivity)
    .where(
      and(eq(bargainActivity.id, id), eq(bargainActivity.siteId, siteId), eq(bargainActivity.enabled, true)),
    );
  if (!row) throw failure(BARGAIN_MSG.notFound);
  return row;
}

async function recordOf(db: Db, siteId: number, id: number): Promise<RecordRow> {
  const [row] = await db
    .select()
    .from(bargainRecord)
    .where(and(eq(bargainRecord.id, id), eq(bargainRecord.siteId, siteId)));
  if (!row) throw failure(BARGAIN_MSG.recordNotFound);
  return row;
}

/** bargainApi.list: the site's running and coming bargain activities, with the viewer's open bargain. */
export async function bargainList(ctx: RequestContext, now = new Date()): Promise<BargainActivityCard[]> {
  const siteId = siteOf(ctx).row.id;
  const rows = await ctx.db
    .select()
    .from(bargainActivity)
    .where(
      and(
        eq(bargainActivity.siteId, siteId),
        eq(bargainActivity.enabled, true),
        gt(bargainActivity.endAt, now),
      ),
    )
    .orderBy(asc(bargainActivity.startAt), asc(bargainActivity.id));
  const mine = new Map<number, number>();
  if (ctx.member && rows.length > 0) {
    const open = await ctx.db
      .select({ id: bargainRecord.id, activityId: bargainRecord.activityId })
      .from(bargainRecord)
      .where(
        and(
          eq(bargainRecord.memberId, ctx.member.id),
          inArray(
            bargainRecord.activityId,
            rows.map((r) => r.id),
          ),
          inArray(bargainRecord.status, OPEN),
          gt(bargainRecord.expireAt, now),
        ),
      );
    for (const r of open) mine.set(r.activityId, r.id);
  }
  return productOffers(ctx.db, siteId, rows, now, (a, spec) => ({
    price: spec.price,
    floorPrice: a.floorPrice,
    helpMax: a.helpMax,
    hours: a.hours,
    mine: mine.get(a.id) ?? null,
  }));
}

/** The answer for a bargain, seen by the viewer (owner or not, helped or not). */
async function viewOf(ctx: RequestContext, r: RecordRow, now: Date): Promise<BargainView> {
  const [activity] = await ctx.db
    .select({ name: bargainActivity.name })
    .from(bargainActivity)
    .where(eq(bargainActivity.id, r.activityId));
  const spec = (await specificationsOnSite(ctx, r.siteId, [r.specificationId])).get(r.specificationId);
  const helps = await ctx.db
    .select()
    .from(bargainHelp)
    .where(eq(bargainHelp.recordId, r.id))
    .orderBy(desc(bargainHelp.createdAt), desc(bargainHelp.helperId));
  const names = await memberNames(ctx, [
    { siteId: r.siteId, memberId: r.memberId },
    ...helps.map((h) => ({ siteId: r.siteId, memberId: h.helperId })),
  ]);
  const helpers: BargainHelper[] = helps.map((h) => ({
    name: maskedName(names(r.siteId, h.helperId)),
    cut: h.cut,
    createTime: h.createdAt.toISOString(),
  }));
  const status = statusAt(r, now);
  return {
    id: r.id,
    activityId: r.activityId,
    activityName: activity?.name ?? '',
    productId: r.productId,
    specificationId: r.specificationId,
    productName: spec?.name ?? '',
    image: spec?.image ?? '',
    startPrice: r.startPrice,
    floorPrice: r.floorPrice,
    price: r.price,
    helpCount: r.helpCount,
    helpMax: r.helpMax,
    status,
    statusName: BARGAIN_STATUS_LABEL[status] ?? '',
    timing: timingOf({ start: r.createdAt, end: r.expireAt }, now),
    orderNo: r.orderNo,
    ownerName: maskedName(names(r.siteId, r.memberId)),
    mine: ctx.member?.id === r.memberId,
    helped: ctx.member !== undefined && helps.some((h) => h.helperId === ctx.member?.id),
    helpers,
  };
}

/** bargainApi.view: a bargain by id (the shared link), for its owner, a helper or a visitor. */
export async function viewBargain(ctx: RequestContext, id: number, now = new Date()): Promise<BargainView> {
  return viewOf(ctx, await recordOf(ctx.db, siteOf(ctx).row.id, id), now);
}

/** Refused outside the activity's window, with its timing. */
function running(a: BargainActivityRow, now: Date): void {
  const timing = timingOf({ start: a.startAt, end: a.endAt }, now);
  if (timing.status === ACTIVITY_STATUS.notStarted)
    throw new AppError(CODE.failure, BARGAIN_MSG.notStarted, { timing });
  if (timing.status === ACTIVITY_STATUS.ended)
    throw new AppError(CODE.failure, BARGAIN_MSG.ended, { timing });
}

/**
 * bargainApi.start: starts the member's bargain of the activity's product at the site's
 * price now. One open bargain per member and product (the partial unique key decides between
 * parallel starts); an open one is answered again. The member's bargains of that product past
 * their deadline are expired first, so they do not hold the key.
 */
export async function startBargain(
  ctx: MemberCtx,
  activityId: number,
  now = new Date(),
): Promise<{ view: BargainView; created: boolean }> {
  const siteId = ctx.site.row.id;
  const a = await activityOf(ctx.db, siteId, activityId);
  running(a, now);
  const mineOfProduct = and(
    eq(bargainRecord.siteId, siteId),
    eq(bargainRecord.memberId, ctx.member.id),
    eq(bargainRecord.productId, a.productId),
  );
  await moveBargain(
    ctx.db,
    and(mineOfProduct, lte(bargainRecord.expireAt, now)),
    'expire',
    BARGAIN_STATUS.failed,
  );
  const openOne = async () => {
    const [open] = await ctx.db
      .select()
      .from(bargainRecord)
      .where(and(mineOfProduct, inArray(bargainRecord.status, OPEN)));
    return open;
  };
  const earlier = await openOne();
  if (earlier) return { view: await viewOf(ctx, earlier, now), created: false };
  const spec = (await specificationsOnSite(ctx, siteId, [a.specificationId])).get(a.specificationId);
  if (!spec?.isOnSale) throw failure(BARGAIN_MSG.notFound);
  if (spec.price <= a.floorPrice) throw failure(BARGAIN_MSG.floorTooHigh);
  const expireAt = new Date(Math.min(now.getTime() + a.hours * HOUR_MS, a.endAt.getTime()));
  try {
    const [row] = await ctx.db
      .insert(bargainRecord)
      .values({
        siteId,
        activityId: a.id,
        memberId: ctx.member.id,
        productId: a.productId,
        specificationId: a.specificationId,
        startPrice: spec.price,
        floorPrice: a.floorPrice,
        price: spec.price,
        helpMax: a.helpMax,
        expireAt,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('bargain not created');
    return { view: await viewOf(ctx, row, now), created: true };
  } catch (error) {
    // A parallel start of the same member won the key: answer its bargain.
    const open = isUniqueViolation(error) ? await openOne() : undefined;
    if (open) return { view: await viewOf(ctx, open, now), created: false };
    throw error;
  }
}

/** The cut of one help: crypto-random in [min, max], never more than what is left above the floor. */
export function cutOf(
  a: Pick<BargainActivityRow, 'cutMin' | 'cutMax'>,
  price: number,
  floor: number,
): number {
  return Math.min(randomInt(a.cutMin, a.cutMax + 1), price - floor);
}

/**
 * bargainApi.help: the member helps another's bargain once. In one transaction on the
 * bargain's locked row: refused for its owner, when it is no longer in progress or past its
 * deadline; the help row (a second help of the same member hits the key), the helper's quota of
 * the day (capped upsert), then the guarded cut; at the floor or the last helper it succeeds.
 */
export async function helpBargain(ctx: MemberCtx, id: number, now = new Date()): Promise<HelpResult> {
  const siteId = ctx.site.row.id;
  const helperId = ctx.member.id;
  const cut = await transaction(ctx, async ({ db: tx }) => {
    const [r] = await tx
      .select()
      .from(bargainRecord)
      .where(and(eq(bargainRecord.id, id), eq(bargainRecord.siteId, siteId)))
      .for('update');
    if (!r) throw failure(BARGAIN_MSG.recordNotFound);
    if (r.memberId === helperId) throw failure(BARGAIN_MSG.self);
    const [a] = await tx.select().from(bargainActivity).where(eq(bargainActivity.id, r.activityId));
    if (!a) throw failure(BARGAIN_MSG.notFound);
    const [already] = await tx
      .select({ cut: bargainHelp.cut })
      .from(bargainHelp)
      .where(and(eq(bargainHelp.recordId, r.id), eq(bargainHelp.helperId, helperId)));
    if (already) throw failure(BARGAIN_MSG.helped);
    if (statusAt(r, now) === BARGAIN_STATUS.failed) throw failure(BARGAIN_MSG.expired);
    if (r.status !== BARGAIN_STATUS.inProgress)
      throw failure(r.status === BARGAIN_STATUS.success ? BARGAIN_MSG.done : BARGAIN_MSG.closed);
    const quota = await tx
      .insert(bargainHelperDay)
      .values({ activityId: a.id, memberId: helperId, day: mallDay(now), used: 1 })
      .onConflictDoUpdate({
        target: [bargainHelperDay.activityId, bargainHelperDay.memberId, bargainHelperDay.day],
        set: { used: sql`${bargainHelperDay.used} + 1` },
        setWhere: sql`${bargainHelperDay.used} < ${a.helperDailyQuota}`,
      })
      .returning({ used: bargainHelperDay.used });
    if (quota.length === 0) throw failure(BARGAIN_MSG.quota(a.helperDailyQuota));
    const amount = cutOf(a, r.price, r.floorPrice);
    // Unique (bargain, helper): of two parallel helps of one member, the second fails here.
    await tx.insert(bargainHelp).values({ recordId: r.id, helperId, siteId, cut: amount, createdAt: now });
    const [cutRow] = await tx
      .update(bargainRecord)
      .set({ price: sql`${bargainRecord.price} - ${amount}`, helpCount: sql`${bargainRecord.helpCount} + 1` })
      .where(
        and(
          eq(bargainRecord.id, r.id),
          eq(bargainRecord.status, BARGAIN_STATUS.inProgress),
          sql`${bargainRecord.price} - ${amount} >= ${bargainRecord.floorPrice}`,
          sql`${bargainRecord.helpCount} < ${bargainRecord.helpMax}`,
        ),
      )
      .returning();
    if (!cutRow) throw failure(BARGAIN_MSG.stateChanged);
    if (cutRow.price === cutRow.floorPrice || cutRow.helpCount >= cutRow.helpMax)
      await moveBargain(tx, eq(bargainRecord.id, r.id), 'succeed', BARGAIN_STATUS.success);
    return amount;
  });
  return { cut, bargain: await viewBargain(ctx, id, now) };
}

/** A bargain purchase checked before the order's transaction. */
export interface BargainOffer {
  recordId: number;
  memberId: number;
  specificationId: number;
  price: number;
}

/**
 * Checks a bargain submission: the member's own successful bargain, before its deadline, one
 * piece of its specification. The bargain is taken in the order's transaction (`takeBargain`).
 */
export async function bargainOffer(
  ctx: MemberCtx,
  lines: readonly { specificationId: number; num: number }[],
  bargainId: number | undefined,
  now = new Date(),
): Promise<BargainOffer> {
  if (bargainId === undefined) throw failure(BARGAIN_MSG.recordNotFound);
  const r = await recordOf(ctx.db, ctx.site.row.id, bargainId);
  if (r.memberId !== ctx.member.id) throw failure(BARGAIN_MSG.notYours);
  const [line] = lines;
  if (lines.length !== 1 || line?.specificationId !== r.specificationId || line.num !== 1)
    throw failure(BARGAIN_MSG.oneLine);
  const status = statusAt(r, now);
  if (status === BARGAIN_STATUS.failed) throw failure(BARGAIN_MSG.expired);
  if (status === BARGAIN_STATUS.ordered) throw failure(BARGAIN_MSG.ordered);
  if (status !== BARGAIN_STATUS.success) throw failure(BARGAIN_MSG.notSuccess);
  return { recordId: r.id, memberId: r.memberId, specificationId: r.specificationId, price: r.price };
}

/** In the order's transaction: the bargain moves 2 → 4 once, before its deadline, or the order rolls back. */
export async function takeBargain(tx: Db, offer: BargainOffer, orderNo: string): Promise<void> {
  const moved = await moveBargain(
    tx,
    and(
      eq(bargainRecord.id, offer.recordId),
      eq(bargainRecord.memberId, offer.memberId),
      sql`${bargainRecord.expireAt} > now()`,
    ),
    'order',
    BARGAIN_STATUS.ordered,
    { orderNo },
  );
  if (moved.length === 0) throw failure(BARGAIN_MSG.stateChanged);
}

/**
 * In the transaction that ends unpaid orders (cancel, expiry): their bargains may be bought
 * again (4 → 2) until their deadline (one past it fails when the expiry job runs), unless the
 * member started another bargain of the product meanwhile: then it fails (4 → 3).
 */
export async function releaseBargains(tx: Db, orderNos: readonly string[]): Promise<void> {
  if (orderNos.length === 0) return;
  const ofOrders = and(inArray(bargainRecord.orderNo, [...orderNos]), isNotNull(bargainRecord.orderNo));
  const noOtherOpen = sql`not exists (select 1 from bargain_record o where o.site_id = bargain_record.site_id
    and o.member_id = bargain_record.member_id and o.product_id = bargain_record.product_id and o.status in (1, 2))`;
  await moveBargain(tx, and(ofOrders, noOtherOpen), 'orderEnded', BARGAIN_STATUS.success, { orderNo: null });
  await moveBargain(tx, ofOrders, 'orderEnded', BARGAIN_STATUS.failed);
}

/** Bargains in progress or successful past their deadline fail (3). One conditional UPDATE; answers how many. */
export async function expireBargains(db: Db, now = new Date()): Promise<number> {
  const moved = await moveBargain(
    db,
    sql`${bargainRecord.expireAt} <= ${now.toISOString()}::timestamptz`,
    'expire',
    BARGAIN_STATUS.failed,
  );
  return moved.length;
}
