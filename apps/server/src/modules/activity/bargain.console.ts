import {
  ADMIN_BARGAIN_MSG,
  type AdminBargainActivity,
  type AdminBargainRecord,
  adminBargainApi,
  BARGAIN_STATUS,
  BARGAIN_STATUS_LABEL,
  type SaveBargainActivityBody,
} from '@sitemall/contract';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { serve } from '../../lib/serve';
import {
  type OperatorCtx,
  operatorOf,
  requireSiteAccess,
  type SiteScope,
  sitesToRead,
} from '../admin/admin.service';
import { audited } from '../admin/audit';
import { specificationsOnSite } from '../catalog/products';
import { memberNames } from '../identity/members';
import { type BargainActivityRow, maskedName, moveBargain } from './bargain';
import { bargainActivity, bargainRecord } from './bargain.tables';
import { statusAt } from './timing';

/**
 * The console's bargain screens (contract admin-activity-bargain.ts): activities of the
 * operator's sites, created, edited and ended in a transaction with their audit row, and the
 * members' bargains. Registered among the console's families (app.ts), so the console's hooks
 * resolve the operator and check the payload's site first.
 */

/** A site-id column within the operator's scope (an empty scope matches nothing). */
const inSites = (column: typeof bargainActivity.siteId | typeof bargainRecord.siteId, scope: SiteScope) =>
  scope === 'all' ? undefined : inArray(column, scope.length ? scope : [-1]);

async function activityRows(
  ctx: RequestContext,
  rows: BargainActivityRow[],
  now: Date,
): Promise<AdminBargainActivity[]> {
  const { db } = ctx;
  if (rows.length === 0) return [];
  const counts = await db
    .select({
      activityId: bargainRecord.activityId,
      all: count(),
      succeeded: sql<number>`count(*) filter (where ${bargainRecord.status} in (2, 4))`.mapWith(Number),
    })
    .from(bargainRecord)
    .where(
      inArray(
        bargainRecord.activityId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(bargainRecord.activityId);
  const byActivity = new Map(counts.map((c) => [c.activityId, c]));
  const out: AdminBargainActivity[] = [];
  for (const siteId of new Set(rows.map((r) => r.siteId))) {
    const ofSite = rows.filter((r) => r.siteId === siteId);
    const specs = await specificationsOnSite(
      { db },
      siteId,
      ofSite.map((r) => r.specificationId),
    );
    for (const r of ofSite) {
      const spec = specs.get(r.specificationId);
      out.push({
        id: r.id,
        siteId: r.siteId,
        name: r.name,
        productId: r.productId,
        specificationId: r.specificationId,
        productName: spec?.name ?? '',
        price: spec?.price ?? 0,
        floorPrice: r.floorPrice,
        helpMax: r.helpMax,
        cutMin: r.cutMin,
        cutMax: r.cutMax,
        helperDailyQuota: r.helperDailyQuota,
        hours: r.hours,
        startAt: r.startAt.getTime(),
        endAt: r.endAt.getTime(),
        enabled: r.enabled,
        status: r.enabled ? statusAt({ start: r.startAt, end: r.endAt }, now) : 1,
        bargains: byActivity.get(r.id)?.all ?? 0,
        succeeded: byActivity.get(r.id)?.succeeded ?? 0,
      });
    }
  }
  return rows.map((r) => out.find((o) => o.id === r.id) as AdminBargainActivity);
}

export async function listBargainActivities(ctx: OperatorCtx, query: { siteId?: number; pageNum?: number }) {
  const scope = sitesToRead(ctx, 'promotions:view', query.siteId);
  const where = inSites(bargainActivity.siteId, scope);
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db.select().from(bargainActivity).where(where).orderBy(desc(bargainActivity.id)),
    total: ctx.db.select({ n: count() }).from(bargainActivity).where(where),
    present: (rows) => activityRows(ctx, rows, new Date()),
  });
}

async function lockActivity(tx: Db, siteId: number, id: number): Promise<BargainActivityRow> {
  const [row] = await tx
    .select()
    .from(bargainActivity)
    .where(and(eq(bargainActivity.id, id), eq(bargainActivity.siteId, siteId)))
    .for('update');
  if (!row) throw failure(ADMIN_BARGAIN_MSG.notFound);
  return row;
}

/**
 * Creates or edits an activity. The product must be sold on the site above the floor; bargains
 * already started keep the terms they started with (their rows hold start price, floor and
 * helpers needed).
 */
export async function saveBargainActivity(
  ctx: OperatorCtx,
  body: SaveBargainActivityBody,
): Promise<AdminBargainActivity> {
  requireSiteAccess(ctx, 'promotions:manage', body.siteId);
  if (body.cutMin > body.cutMax) throw failure(ADMIN_BARGAIN_MSG.cutBounds);
  if (body.startAt >= body.endAt) throw failure(ADMIN_BARGAIN_MSG.window);
  const spec = (await specificationsOnSite(ctx, body.siteId, [body.specificationId])).get(
    body.specificationId,
  );
  if (!spec) throw failure(ADMIN_BARGAIN_MSG.noProduct);
  if (body.floorPrice >= spec.price) throw failure(ADMIN_BARGAIN_MSG.floorTooHigh);
  const values = {
    siteId: body.siteId,
    name: body.name.trim(),
    productId: spec.productId,
    specificationId: spec.specificationId,
    floorPrice: body.floorPrice,
    helpMax: body.helpMax,
    cutMin: body.cutMin,
    cutMax: body.cutMax,
    helperDailyQuota: body.helperDailyQuota,
    hours: body.hours,
    startAt: new Date(body.startAt),
    endAt: new Date(body.endAt),
  };
  const saved = await audited(ctx, async (tx, record) => {
    if (body.id === undefined) {
      const [row] = await tx.insert(bargainActivity).values(values).returning();
      if (!row) throw new Error('bargain activity not created');
      await record({
        siteId: body.siteId,
        action: 'bargain.create',
        entity: 'bargain_activity',
        entityId: row.id,
        after: values,
      });
      return row;
    }
    const before = await lockActivity(tx, body.siteId, body.id);
    if (!before.enabled) throw failure(ADMIN_BARGAIN_MSG.endedBefore);
    const [row] = await tx
      .update(bargainActivity)
      .set(values)
      .where(eq(bargainActivity.id, before.id))
      .returning();
    if (!row) throw failure(ADMIN_BARGAIN_MSG.notFound);
    const { createdAt: _c, id: _i, enabled: _e, ...old } = before;
    await record({
      siteId: body.siteId,
      action: 'bargain.update',
      entity: 'bargain_activity',
      entityId: row.id,
      before: old,
      after: values,
    });
    return row;
  });
  const [answer] = await activityRows(ctx, [saved], new Date());
  return answer as AdminBargainActivity;
}

/** Ends an activity now: no more starts or helps; its bargains in progress or not yet bought fail. */
export async function endBargainActivity(
  ctx: OperatorCtx,
  body: { siteId: number; id: number; reason?: string },
): Promise<AdminBargainActivity> {
  requireSiteAccess(ctx, 'promotions:manage', body.siteId);
  const now = new Date();
  const saved = await audited(ctx, async (tx, record) => {
    const before = await lockActivity(tx, body.siteId, body.id);
    if (!before.enabled) throw failure(ADMIN_BARGAIN_MSG.endedBefore);
    const endAt = before.endAt < now ? before.endAt : now;
    const [row] = await tx
      .update(bargainActivity)
      .set({
        enabled: false,
        endAt,
        startAt: before.startAt < endAt ? before.startAt : new Date(endAt.getTime() - 1),
      })
      .where(eq(bargainActivity.id, before.id))
      .returning();
    const failed = await moveBargain(
      tx,
      eq(bargainRecord.activityId, before.id),
      'end',
      BARGAIN_STATUS.failed,
    );
    await record({
      siteId: body.siteId,
      action: 'bargain.end',
      entity: 'bargain_activity',
      entityId: before.id,
      before: { enabled: true, endAt: before.endAt },
      after: { enabled: false, endAt, bargainsFailed: failed.length },
      reason: body.reason?.trim() ?? '',
    });
    return row ?? before;
  });
  const [answer] = await activityRows(ctx, [saved], now);
  return answer as AdminBargainActivity;
}

export async function listBargainRecords(
  ctx: OperatorCtx,
  query: { siteId?: number; activityId?: number; status?: number; pageNum?: number },
) {
  const scope = sitesToRead(ctx, 'promotions:view', query.siteId);
  const where = and(
    inSites(bargainRecord.siteId, scope),
    query.activityId === undefined ? undefined : eq(bargainRecord.activityId, query.activityId),
    query.status === undefined ? undefined : eq(bargainRecord.status, query.status),
  );
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db
      .select({ r: bargainRecord, activityName: bargainActivity.name })
      .from(bargainRecord)
      .innerJoin(bargainActivity, eq(bargainActivity.id, bargainRecord.activityId))
      .where(where)
      .orderBy(desc(bargainRecord.id)),
    total: ctx.db.select({ n: count() }).from(bargainRecord).where(where),
    present: async (rows) => {
      const names = await memberNames(
        ctx,
        rows.map(({ r }) => r),
      );
      return rows.map(
        ({ r, activityName }): AdminBargainRecord => ({
          id: r.id,
          siteId: r.siteId,
          activityId: r.activityId,
          activityName,
          memberId: r.memberId,
          memberName: maskedName(names(r.siteId, r.memberId)),
          startPrice: r.startPrice,
          floorPrice: r.floorPrice,
          price: r.price,
          helpCount: r.helpCount,
          helpMax: r.helpMax,
          status: r.status,
          statusName: BARGAIN_STATUS_LABEL[r.status] ?? '',
          orderNo: r.orderNo,
          createTime: r.createdAt.toISOString(),
          expireTime: r.expireAt.toISOString(),
        }),
      );
    },
  });
}

/** The console's bargain routes, registered inside the console plugin (admin.routes.ts `families`). */
export const bargainConsole: FastifyPluginAsync = async (app) => {
  serve(app, adminBargainApi.bargainActivities, async (req) =>
    ok(await listBargainActivities(operatorOf(req), req.query)),
  );
  serve(app, adminBargainApi.saveBargainActivity, async (req) =>
    ok(await saveBargainActivity(operatorOf(req), req.body), ADMIN_BARGAIN_MSG.saved),
  );
  serve(app, adminBargainApi.endBargainActivity, async (req) =>
    ok(await endBargainActivity(operatorOf(req), req.body), ADMIN_BARGAIN_MSG.ended),
  );
  serve(app, adminBargainApi.bargainRecords, async (req) =>
    ok(await listBargainRecords(operatorOf(req), req.query)),
  );
};
