import {
  ACTIVITY_STATUS,
  CODE,
  SECKILL_MSG,
  type SeckillAnswer,
  type SeckillProduct,
  type SeckillSession,
  type Timing,
} from '@sitemall/contract';
import { and, asc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { siteOf } from '../catalog/catalog.service';
import { specificationsOnSite } from '../catalog/products';
import {
  seckillActivity,
  seckillOrder,
  seckillPurchase,
  seckillSession,
  seckillSku,
} from './activity.tables';
import { clearSoldOut, markSoldOut, SOLD_OUT } from './seckill-gate';
import { currentWindow, mallDay, overlap, sessionWindow, timingOf, type Window } from './timing';

/**
 * The flash sale (design promotions.md §4). PostgreSQL is the truth: in the order's
 * transaction a capped upsert of the member's pieces (the per-member limit) and a guarded
 * decrement of the activity stock (`stock >= n`); both come back once when the order is
 * cancelled, expires or is refunded (`releaseSeckill`, in the transaction that moves the order).
 */

type SessionRow = typeof seckillSession.$inferSelect;
type ActivityRow = typeof seckillActivity.$inferSelect;
type SkuRow = typeof seckillSku.$inferSelect;

const activityWindow = (a: ActivityRow): Window => ({ start: a.startAt, end: a.endAt });

/** The windows of an activity on a mall day: each of its sessions cut to the activity's dates. */
function windowsOf(activity: ActivityRow, sessions: Map<number, SessionRow>, day: string) {
  const out: { session: SessionRow; window: Window }[] = [];
  for (const id of activity.sessionIds) {
    const session = sessions.get(id);
    if (!session?.enabled) continue;
    const window = overlap(sessionWindow(day, session), activityWindow(activity));
    if (window) out.push({ session, window });
  }
  return out;
}

/** Today's sessions, activities (overlapping today) and their specifications on a site. */
async function today(db: Db, siteId: number, now: Date, productId?: number) {
  const day = mallDay(now);
  const dayStart = sessionWindow(day, { startTime: '00:00', endTime: '24:00' });
  const sessionRows = await db
    .select()
    .from(seckillSession)
    .where(and(eq(seckillSession.siteId, siteId), eq(seckillSession.enabled, true)))
    .orderBy(asc(seckillSession.startTime), asc(seckillSession.sort), asc(seckillSession.id));
  const activities = await db
    .select()
    .from(seckillActivity)
    .where(
      and(
        eq(seckillActivity.siteId, siteId),
        eq(seckillActivity.enabled, true),
        lt(seckillActivity.startAt, dayStart.end),
        gt(seckillActivity.endAt, dayStart.start),
      ),
    );
  const skus =
    activities.length === 0
      ? []
      : await db
          .select()
          .from(seckillSku)
          .where(
            and(
              inArray(
                seckillSku.activityId,
                activities.map((a) => a.id),
              ),
              productId === undefined ? undefined : eq(seckillSku.productId, productId),
            ),
          )
          .orderBy(asc(seckillSku.activityId), asc(seckillSku.productId), asc(seckillSku.specificationId));
  return { day, sessions: new Map(sessionRows.map((s) => [s.id, s])), sessionRows, activities, skus };
}

async function boughtBy(db: Db, memberId: number | undefined, activityIds: number[]) {
  if (memberId === undefined || activityIds.length === 0) return new Map<number, number>();
  const rows = await db
    .select({ activityId: seckillPurchase.activityId, qty: seckillPurchase.qty })
    .from(seckillPurchase)
    .where(and(eq(seckillPurchase.memberId, memberId), inArray(seckillPurchase.activityId, activityIds)));
  return new Map(rows.map((r) => [r.activityId, r.qty]));
}

/** Specifications of the skus as products of the answer (ones no longer sold on the site are left out). */
async function productsOf(
  ctx: RequestContext,
  skus: SkuRow[],
  activities: Map<number, ActivityRow>,
  timing: (sku: SkuRow) => Window | undefined,
  now: Date,
): Promise<SeckillProduct[]> {
  const site = siteOf(ctx);
  const specs = await specificationsOnSite(
    ctx,
    site.row.id,
    skus.map((s) => s.specificationId),
  );
  const bought = await boughtBy(ctx.db, ctx.member?.id, [...activities.keys()]);
  const out: SeckillProduct[] = [];
  for (const sku of skus) {
    const spec = specs.get(sku.specificationId);
    const activity = activities.get(sku.activityId);
    const window = timing(sku);
    if (!spec?.isOnSale || !activity || !window) continue;
    out.push({
      activityId: activity.id,
      productId: sku.productId,
      specificationId: sku.specificationId,
      name: spec.name,
      image: spec.image,
      price: sku.price,
      marketPrice: spec.price,
      stock: sku.stock,
      totalStock: sku.totalStock,
      memberLimit: activity.memberLimit,
      orderLimit: activity.orderLimit,
      bought: bought.get(activity.id) ?? 0,
      timing: timingOf(window, now),
    });
  }
  return out;
}

/** seckillApi.seckill: today's sessions of the site with their products and timing. */
export async function seckillToday(ctx: RequestContext, now = new Date()): Promise<SeckillAnswer> {
  const site = siteOf(ctx);
  const { day, sessionRows, sessions, activities, skus } = await today(ctx.db, site.row.id, now);
  const byId = new Map(activities.map((a) => [a.id, a]));
  const answer: SeckillSession[] = [];
  for (const session of sessionRows) {
    const inSession = (sku: SkuRow) => {
      const activity = byId.get(sku.activityId);
      if (!activity?.sessionIds.includes(session.id)) return undefined;
      return windowsOf(activity, sessions, day).find((w) => w.session.id === session.id)?.window;
    };
    answer.push({
      id: session.id,
      name: session.name,
      startTime: session.startTime,
      endTime: session.endTime,
      timing: timingOf(sessionWindow(day, session), now),
      products: await productsOf(ctx, skus.filter(inSession), byId, inSession, now),
    });
  }
  return { currentTime: now.getTime(), sessions: answer };
}

/**
 * seckillApi.activityTime: the flash sale a product is in today (running first, then the
 * next to start, then the last that ended), or null.
 */
export async function activityTime(
  ctx: RequestContext,
  productId: number,
  now = new Date(),
): Promise<SeckillProduct | null> {
  const site = siteOf(ctx);
  const { day, sessions, activities, skus } = await today(ctx.db, site.row.id, now, productId);
  const byId = new Map(activities.map((a) => [a.id, a]));
  const windowOf = (sku: SkuRow) => {
    const activity = byId.get(sku.activityId);
    return activity
      ? currentWindow(
          windowsOf(activity, sessions, day).map((w) => w.window),
          now,
        )
      : undefined;
  };
  const products = await productsOf(ctx, skus, byId, windowOf, now);
  return products.sort((a, b) => rankOf(a.timing) - rankOf(b.timing))[0] ?? null;
}

/** Running first, then the next to start, then ended. */
const rankOf = (t: Timing) =>
  t.status === ACTIVITY_STATUS.running ? 0 : t.status === ACTIVITY_STATUS.notStarted ? 1 : 2;

/** A flash-sale purchase checked before the order's transaction. */
export interface SeckillSale {
  siteId: number;
  memberId: number;
  activityId: number;
  specificationId: number;
  num: number;
  price: number;
  memberLimit: number;
  expireMinutes: number;
  /** The window of the activity running now (what a Redis gate loads). */
  window: Window;
}

/** A flash-sale submission buys one specification: which, and how many pieces. */
export function seckillLine(lines: readonly { specificationId: number; num: number }[]) {
  const specIds = new Set(lines.map((l) => l.specificationId));
  const [specificationId] = specIds;
  if (specIds.size !== 1 || specificationId === undefined) throw failure(SECKILL_MSG.oneLine);
  return { specificationId, num: lines.reduce((s, l) => s + l.num, 0) };
}

/**
 * Checks a flash-sale submission: one specification, in an activity running now (refused with
 * its timing before the start and after the end), within the per-order and per-member limits.
 * Stock and the member's count are taken in the order's transaction by `takeSeckill`.
 */
export async function seckillOffer(
  ctx: RequestContext & { member: { id: number } },
  lines: readonly { specificationId: number; num: number }[],
  activityId?: number,
  now = new Date(),
): Promise<SeckillSale> {
  const site = siteOf(ctx);
  const { specificationId, num } = seckillLine(lines);
  const { day, sessions, activities, skus } = await today(ctx.db, site.row.id, now);
  const candidates = skus.filter(
    (s) => s.specificationId === specificationId && (activityId === undefined || s.activityId === activityId),
  );
  const offers = candidates.flatMap((sku) => {
    const activity = activities.find((a) => a.id === sku.activityId);
    const window =
      activity &&
      currentWindow(
        windowsOf(activity, sessions, day).map((w) => w.window),
        now,
      );
    return activity && window ? [{ sku, activity, window, timing: timingOf(window, now) }] : [];
  });
  const best = offers.sort((a, b) => rankOf(a.timing) - rankOf(b.timing))[0];
  if (!best) throw failure(SECKILL_MSG.notInSale);
  const { timing } = best;
  if (timing.status === ACTIVITY_STATUS.notStarted)
    throw new AppError(CODE.failure, SECKILL_MSG.notStarted, { timing });
  if (timing.status === ACTIVITY_STATUS.ended)
    throw new AppError(CODE.failure, SECKILL_MSG.ended, { timing });
  const { activity, sku, window } = best;
  if (num > activity.orderLimit) throw failure(SECKILL_MSG.perOrder(activity.orderLimit));
  if (num > activity.memberLimit) throw failure(SECKILL_MSG.perMember(activity.memberLimit));
  if (sku.stock < num) {
    // Seen empty here too: else, once the flag set by the last take has passed, every later
    // request would read the sale from the database again just to hear "sold out".
    if (sku.stock <= 0) markSoldOut(sku);
    throw SOLD_OUT;
  }
  return {
    siteId: site.row.id,
    memberId: ctx.member.id,
    activityId: activity.id,
    specificationId,
    num,
    price: sku.price,
    memberLimit: activity.memberLimit,
    expireMinutes: activity.expireMinutes,
    window,
  };
}

/**
 * In the order's transaction: the member's pieces go up only while within the limit (a capped
 * upsert: a parallel request of the same member waits on the row and re-checks), then the
 * activity stock goes down only while enough is left. Either refusal rolls the order back.
 */
export async function takeSeckill(tx: Db, sale: SeckillSale, orderNo: string): Promise<void> {
  const counted = await tx
    .insert(seckillPurchase)
    .values({ activityId: sale.activityId, memberId: sale.memberId, siteId: sale.siteId, qty: sale.num })
    .onConflictDoUpdate({
      target: [seckillPurchase.activityId, seckillPurchase.memberId],
      set: { qty: sql`${seckillPurchase.qty} + excluded.qty` },
      setWhere: sql`${seckillPurchase.qty} + excluded.qty <= ${sale.memberLimit}`,
    })
    .returning({ qty: seckillPurchase.qty });
  if (counted.length === 0) throw failure(SECKILL_MSG.perMember(sale.memberLimit));
  const taken = await tx
    .update(seckillSku)
    .set({ stock: sql`${seckillSku.stock} - ${sale.num}` })
    .where(
      and(
        eq(seckillSku.activityId, sale.activityId),
        eq(seckillSku.specificationId, sale.specificationId),
        sql`${seckillSku.stock} >= ${sale.num}`,
      ),
    )
    .returning({ stock: seckillSku.stock });
  if (taken.length === 0 || taken[0]?.stock === 0) markSoldOut(sale);
  if (taken.length === 0) throw SOLD_OUT;
  await tx.insert(seckillOrder).values({
    orderNo,
    siteId: sale.siteId,
    activityId: sale.activityId,
    specificationId: sale.specificationId,
    memberId: sale.memberId,
    num: sale.num,
  });
}

/**
 * Gives the flash-sale stock and the member's count of ended orders back, once: run in the
 * transaction that moved the orders (cancel, expiry, refund); the returned mark makes a second
 * call a no-op.
 */
export async function releaseSeckill(tx: Db, orderNos: readonly string[]): Promise<void> {
  if (orderNos.length === 0) return;
  const released = await tx
    .update(seckillOrder)
    .set({ returnedAt: sql`now()` })
    .where(and(inArray(seckillOrder.orderNo, [...orderNos]), isNull(seckillOrder.returnedAt)))
    .returning();
  for (const r of released) {
    clearSoldOut(r);
    await tx
      .update(seckillSku)
      .set({ stock: sql`${seckillSku.stock} + ${r.num}` })
      .where(and(eq(seckillSku.activityId, r.activityId), eq(seckillSku.specificationId, r.specificationId)));
    await tx
      .update(seckillPurchase)
      .set({ qty: sql`greatest(${seckillPurchase.qty} - ${r.num}, 0)` })
      .where(and(eq(seckillPurchase.activityId, r.activityId), eq(seckillPurchase.memberId, r.memberId)));
  }
}
