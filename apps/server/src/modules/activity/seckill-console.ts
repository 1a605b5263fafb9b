import {
  ACTIVITY_ADMIN_MSG,
  type AdminSeckillActivity,
  type AdminSeckillSession,
  PAGE_SIZE,
  type SaveSeckillActivityBody,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chinaTime, fromChinaTime } from '../../lib/china-time';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import { inSites } from '../admin/console-kit';
import { specificationsOnSite } from '../catalog/products';
import { seckillActivity, seckillOrder, seckillSession, seckillSku } from './activity.tables';
import { minutesOf, timingOf } from './timing';

/**
 * The console's flash sale (issue 14 item 6): daily sessions, activities with a price and a
 * stock per specification, live stock and sold counts, and an early end. Every write is audited
 * in its transaction; a stock change moves `stock` by the change of `total_stock`, guarded so
 * it never falls below what was sold.
 */

type ActivityRow = typeof seckillActivity.$inferSelect;
type SessionRow = typeof seckillSession.$inferSelect;

export const consoleTime = (date: Date) => chinaTime(date, 'YYYY-MM-DD HH:mm:ss');

const sessionOf = (s: SessionRow): AdminSeckillSession => ({
  id: s.id,
  siteId: s.siteId,
  name: s.name,
  startTime: s.startTime,
  endTime: s.endTime,
  sort: s.sort,
  enabled: s.enabled,
});

export async function listSessions(ctx: OperatorCtx, siteId: number) {
  requireSiteAccess(ctx, 'promotions:view', siteId);
  const rows = await ctx.db
    .select()
    .from(seckillSession)
    .where(eq(seckillSession.siteId, siteId))
    .orderBy(asc(seckillSession.sort), asc(seckillSession.id));
  return rows.map(sessionOf);
}

export async function saveSession(
  ctx: OperatorCtx,
  input: {
    siteId: number;
    id?: number;
    name: string;
    startTime: string;
    endTime: string;
    sort?: number;
    enabled?: boolean;
  },
): Promise<AdminSeckillSession> {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  if (minutesOf(input.startTime) >= minutesOf(input.endTime))
    throw failure(ACTIVITY_ADMIN_MSG.badSessionTime);
  const fields = {
    name: input.name.trim(),
    startTime: input.startTime,
    endTime: input.endTime,
    sort: input.sort ?? 0,
    enabled: input.enabled ?? true,
  };
  return audited(ctx, async (tx, record) => {
    let before: SessionRow | undefined;
    let saved: SessionRow | undefined;
    if (input.id) {
      [before] = await tx
        .select()
        .from(seckillSession)
        .where(and(eq(seckillSession.id, input.id), eq(seckillSession.siteId, input.siteId)));
      if (!before) throw failure(ACTIVITY_ADMIN_MSG.badSession);
      [saved] = await tx
        .update(seckillSession)
        .set(fields)
        .where(eq(seckillSession.id, input.id))
        .returning();
    } else {
      [saved] = await tx
        .insert(seckillSession)
        .values({ ...fields, siteId: input.siteId })
        .returning();
    }
    if (!saved) throw new Error('session not saved');
    await record({
      siteId: input.siteId,
      action: 'seckill.session.save',
      entity: 'seckill_session',
      entityId: saved.id,
      before: before ? sessionOf(before) : null,
      after: sessionOf(saved),
    });
    return sessionOf(saved);
  });
}

/** The activities as the console shows them: each sku with its names, live stock and sold count. */
async function present(db: Db, rows: ActivityRow[], now: Date): Promise<AdminSeckillActivity[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [skus, orders] = await Promise.all([
    db
      .select()
      .from(seckillSku)
      .where(inArray(seckillSku.activityId, ids))
      .orderBy(asc(seckillSku.specificationId)),
    db
      .select({ activityId: seckillOrder.activityId, n: count() })
      .from(seckillOrder)
      .where(and(inArray(seckillOrder.activityId, ids), isNull(seckillOrder.returnedAt)))
      .groupBy(seckillOrder.activityId),
  ]);
  const specsBySite = new Map<number, Awaited<ReturnType<typeof specificationsOnSite>>>();
  for (const siteId of new Set(rows.map((r) => r.siteId)))
    specsBySite.set(
      siteId,
      await specificationsOnSite(
        { db },
        siteId,
        skus.filter((s) => s.siteId === siteId).map((s) => s.specificationId),
      ),
    );
  const ordersOf = new Map(orders.map((o) => [o.activityId, o.n]));
  return rows.map((a) => ({
    id: a.id,
    siteId: a.siteId,
    name: a.name,
    sessionIds: a.sessionIds,
    startAt: consoleTime(a.startAt),
    endAt: consoleTime(a.endAt),
    memberLimit: a.memberLimit,
    orderLimit: a.orderLimit,
    expireMinutes: a.expireMinutes,
    enabled: a.enabled,
    timing: timingOf({ start: a.startAt, end: a.endAt }, now),
    orders: ordersOf.get(a.id) ?? 0,
    skus: skus
      .filter((s) => s.activityId === a.id)
      .map((s) => {
        const spec = specsBySite.get(a.siteId)?.get(s.specificationId);
        return {
          specificationId: s.specificationId,
          productId: s.productId,
          name: spec?.name ?? `规格 ${s.specificationId}`,
          specificationValue: spec?.specificationValue ?? '',
          price: s.price,
          sitePrice: spec?.price ?? 0,
          totalStock: s.totalStock,
          stock: s.stock,
          sold: s.totalStock - s.stock,
        };
      }),
  }));
}

async function activityOfSite(db: Db, siteId: number, id: number): Promise<ActivityRow> {
  const [row] = await db
    .select()
    .from(seckillActivity)
    .where(and(eq(seckillActivity.id, id), eq(seckillActivity.siteId, siteId)));
  if (!row) throw failure(ACTIVITY_ADMIN_MSG.notFound);
  return row;
}

async function presentOne(db: Db, row: ActivityRow, now = new Date()) {
  const [one] = await present(db, [row], now);
  return one as AdminSeckillActivity;
}

export async function listSeckill(ctx: OperatorCtx, query: { siteId?: number; pageNum?: number }) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'promotions:view', query.siteId);
  const empty = { list: [] as AdminSeckillActivity[], total: 0, pageNum, pageSize: PAGE_SIZE };
  if (scope !== 'all' && scope.length === 0) return empty;
  const where = inSites(seckillActivity.siteId, scope);
  return listPage({
    pageNum,
    rows: ctx.db
      .select()
      .from(seckillActivity)
      .where(where)
      .orderBy(desc(seckillActivity.endAt), desc(seckillActivity.id)),
    total: ctx.db.select({ n: count() }).from(seckillActivity).where(where),
    present: (rows) => present(ctx.db, rows, new Date()),
  });
}

/** Sessions and specifications must be the site's own; the window must be forward. */
async function checkSale(db: Db, input: SaveSeckillActivityBody) {
  const startAt = fromChinaTime(input.startAt);
  const endAt = fromChinaTime(input.endAt);
  if (!(endAt > startAt)) throw failure(ACTIVITY_ADMIN_MSG.badWindow);
  const sessionIds = [...new Set(input.sessionIds)];
  const sessions = await db
    .select({ id: seckillSession.id })
    .from(seckillSession)
    .where(and(eq(seckillSession.siteId, input.siteId), inArray(seckillSession.id, sessionIds)));
  if (sessions.length !== sessionIds.length) throw failure(ACTIVITY_ADMIN_MSG.badSession);
  const specs = await specificationsOnSite(
    { db },
    input.siteId,
    input.skus.map((s) => s.specificationId),
  );
  const skus = new Map(input.skus.map((s) => [s.specificationId, s]));
  for (const id of skus.keys()) if (!specs.get(id)) throw failure(ACTIVITY_ADMIN_MSG.badSpec);
  return { startAt, endAt, sessionIds, skus, specs };
}

/**
 * Creates or edits a flash sale with its specifications. An edited stock moves the live stock
 * by the same amount (guarded: never below what was sold); a specification leaves the sale only
 * while nothing of it was sold.
 */
export async function saveSeckill(ctx: OperatorCtx, input: SaveSeckillActivityBody, now = new Date()) {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const sale = await checkSale(ctx.db, input);
  const before = input.id
    ? await presentOne(ctx.db, await activityOfSite(ctx.db, input.siteId, input.id))
    : null;
  const fields = {
    name: input.name.trim(),
    sessionIds: sale.sessionIds,
    startAt: sale.startAt,
    endAt: sale.endAt,
    memberLimit: input.memberLimit,
    orderLimit: input.orderLimit,
    expireMinutes: input.expireMinutes,
  };
  const id = await audited(ctx, async (tx, record) => {
    const [row] = input.id
      ? await tx
          .update(seckillActivity)
          .set(fields)
          .where(and(eq(seckillActivity.id, input.id), eq(seckillActivity.siteId, input.siteId)))
          .returning()
      : await tx
          .insert(seckillActivity)
          .values({ ...fields, siteId: input.siteId })
          .returning();
    if (!row) throw failure(ACTIVITY_ADMIN_MSG.notFound);
    const existing = await tx.select().from(seckillSku).where(eq(seckillSku.activityId, row.id));
    for (const old of existing) {
      const wanted = sale.skus.get(old.specificationId);
      if (!wanted) {
        const removed = await tx
          .delete(seckillSku)
          .where(
            and(
              eq(seckillSku.activityId, row.id),
              eq(seckillSku.specificationId, old.specificationId),
              eq(seckillSku.stock, seckillSku.totalStock),
            ),
          )
          .returning({ id: seckillSku.specificationId });
        if (removed.length === 0) throw failure(ACTIVITY_ADMIN_MSG.soldSpecRemoved);
        continue;
      }
      // Live stock moves by the change of the total, in one guarded statement (buyers may be
      // taking stock at this moment).
      const moved = await tx
        .update(seckillSku)
        .set({
          price: wanted.price,
          totalStock: wanted.totalStock,
          stock: sql`${seckillSku.stock} + (${wanted.totalStock} - ${seckillSku.totalStock})`,
        })
        .where(
          and(
            eq(seckillSku.activityId, row.id),
            eq(seckillSku.specificationId, old.specificationId),
            sql`${seckillSku.stock} + (${wanted.totalStock} - ${seckillSku.totalStock}) >= 0`,
          ),
        )
        .returning({ id: seckillSku.specificationId });
      if (moved.length === 0) throw failure(ACTIVITY_ADMIN_MSG.stockBelowSold);
    }
    const known = new Set(existing.map((s) => s.specificationId));
    const added = [...sale.skus.values()].filter((s) => !known.has(s.specificationId));
    if (added.length > 0)
      await tx.insert(seckillSku).values(
        added.map((s) => ({
          activityId: row.id,
          siteId: input.siteId,
          specificationId: s.specificationId,
          productId: sale.specs.get(s.specificationId)?.productId as number,
          price: s.price,
          totalStock: s.totalStock,
          stock: s.totalStock,
        })),
      );
    await record({
      siteId: input.siteId,
      action: input.id ? 'seckill.activity.update' : 'seckill.activity.create',
      entity: 'seckill_activity',
      entityId: row.id,
      before,
      after: { ...fields, startAt: input.startAt, endAt: input.endAt, skus: input.skus },
      reason: input.reason?.trim() ?? '',
    });
    return row.id;
  });
  return presentOne(ctx.db, await activityOfSite(ctx.db, input.siteId, id), now);
}

/** Ends a running or coming flash sale now (its end moves to now); a reason is required. */
export async function endSeckill(
  ctx: OperatorCtx,
  input: { siteId: number; activityId: number; reason: string },
  now = new Date(),
) {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const reason = requireReason(input.reason);
  const before = await activityOfSite(ctx.db, input.siteId, input.activityId);
  await audited(ctx, async (tx, record) => {
    const ended = await tx
      .update(seckillActivity)
      .set({ endAt: now })
      .where(
        and(
          eq(seckillActivity.id, before.id),
          sql`${seckillActivity.endAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .returning({ id: seckillActivity.id });
    if (ended.length === 0) throw failure(ACTIVITY_ADMIN_MSG.ended);
    await record({
      siteId: input.siteId,
      action: 'seckill.activity.end',
      entity: 'seckill_activity',
      entityId: before.id,
      before: { endAt: consoleTime(before.endAt) },
      after: { endAt: consoleTime(now) },
      reason,
    });
  });
  return presentOne(ctx.db, await activityOfSite(ctx.db, input.siteId, input.activityId), now);
}
