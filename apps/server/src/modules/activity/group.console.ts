import {
  type AdminGroupActivity,
  type AdminGroupTeam,
  adminGroupApi,
  GROUP_ADMIN_MSG,
  GROUP_TEAM_STATUS_NAME,
  type GroupTeamStatus,
  type SaveGroupActivityBody,
} from '@sitemall/contract';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { serve } from '../../lib/serve';
import { type OperatorCtx, operatorOf, requireSiteAccess } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import { specificationsOnSite } from '../catalog/products';
import { groupActivity, groupMember, groupTeam } from './group.tables';
import { statusAt } from './timing';

/**
 * The console's group buy (issue 14 item 6): activities per site with their team counts,
 * create, edit and end (audited in the change's transaction), and the teams with their
 * members. The routes' hooks (admin.routes.ts) have checked the permission and the payload's
 * site scope; the services check it again, so a direct call is as safe.
 */

type ActivityRow = typeof groupActivity.$inferSelect;

async function activitiesOut(
  ctx: RequestContext,
  rows: ActivityRow[],
  now = new Date(),
): Promise<AdminGroupActivity[]> {
  const { db } = ctx;
  if (rows.length === 0) return [];
  const siteId = (rows[0] as ActivityRow).siteId;
  const specs = await specificationsOnSite(
    { db },
    siteId,
    rows.map((r) => r.specificationId),
  );
  const counts = await db
    .select({ activityId: groupTeam.activityId, status: groupTeam.status, n: count() })
    .from(groupTeam)
    .where(
      inArray(
        groupTeam.activityId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(groupTeam.activityId, groupTeam.status);
  const teamsOf = (id: number, status: number) =>
    counts.find((c) => c.activityId === id && c.status === status)?.n ?? 0;
  return rows.map((a) => {
    const spec = specs.get(a.specificationId);
    return {
      id: a.id,
      siteId: a.siteId,
      name: a.name,
      productId: a.productId,
      specificationId: a.specificationId,
      productName: spec
        ? `${spec.name}${spec.specificationValue ? `（${spec.specificationValue}）` : ''}`
        : '',
      price: a.price,
      marketPrice: spec?.price ?? 0,
      teamSize: a.teamSize,
      teamHours: a.teamHours,
      memberLimit: a.memberLimit,
      virtualFill: a.virtualFill,
      startAt: a.startAt.toISOString(),
      endAt: a.endAt.toISOString(),
      status: statusAt({ start: a.startAt, end: a.endAt }, now),
      teams: { forming: teamsOf(a.id, 0), succeeded: teamsOf(a.id, 1), failed: teamsOf(a.id, 2) },
    };
  });
}

async function activityRow(db: Db, siteId: number, id: number): Promise<ActivityRow> {
  const [row] = await db
    .select()
    .from(groupActivity)
    .where(and(eq(groupActivity.siteId, siteId), eq(groupActivity.id, id)));
  if (!row) throw failure(GROUP_ADMIN_MSG.notFound);
  return row;
}

export async function listGroupActivities(ctx: OperatorCtx, query: { siteId: number; pageNum?: number }) {
  requireSiteAccess(ctx, 'promotions:view', query.siteId);
  const mine = eq(groupActivity.siteId, query.siteId);
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db.select().from(groupActivity).where(mine).orderBy(desc(groupActivity.id)),
    total: ctx.db.select({ n: count() }).from(groupActivity).where(mine),
    present: (rows) => activitiesOut(ctx, rows),
  });
}

/**
 * Creates or edits an activity: the specification must be sold on the site and physical (a
 * paid member waits unshipped until the team fills). A new team size or hours apply to teams
 * opened afterwards; teams already open keep theirs.
 */
export async function saveGroupActivity(ctx: OperatorCtx, input: SaveGroupActivityBody) {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const startAt = new Date(input.startAt);
  const endAt = new Date(input.endAt);
  if (!(startAt < endAt)) throw failure(GROUP_ADMIN_MSG.badWindow);
  const spec = (await specificationsOnSite(ctx, input.siteId, [input.specificationId])).get(
    input.specificationId,
  );
  if (!spec) throw failure(GROUP_ADMIN_MSG.productNotOnSite);
  if (spec.orderType !== 1) throw failure(GROUP_ADMIN_MSG.virtualProduct);
  const fields = {
    name: input.name.trim(),
    productId: spec.productId,
    specificationId: spec.specificationId,
    price: input.price,
    teamSize: input.teamSize,
    teamHours: input.teamHours,
    memberLimit: input.memberLimit,
    virtualFill: input.virtualFill,
    startAt,
    endAt,
  };
  const saved = await audited(ctx, async (tx, record) => {
    const before = input.id === undefined ? undefined : await activityRow(tx, input.siteId, input.id);
    const [row] = before
      ? await tx.update(groupActivity).set(fields).where(eq(groupActivity.id, before.id)).returning()
      : await tx
          .insert(groupActivity)
          .values({ siteId: input.siteId, ...fields })
          .returning();
    if (!row) throw new Error('group activity not saved');
    await record({
      siteId: input.siteId,
      action: before ? 'group.activity.update' : 'group.activity.create',
      entity: 'group_activity',
      entityId: row.id,
      before: before ?? null,
      after: row,
    });
    return row;
  });
  return (await activitiesOut(ctx, [saved]))[0] as AdminGroupActivity;
}

/** Ends an activity now (no new teams); teams already open run to their end and settle as usual. */
export async function endGroupActivity(
  ctx: OperatorCtx,
  input: { siteId: number; activityId: number; reason: string },
) {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const reason = requireReason(input.reason);
  const saved = await audited(ctx, async (tx, record) => {
    const before = await activityRow(tx, input.siteId, input.activityId);
    const [row] = await tx
      .update(groupActivity)
      .set({ endAt: sql`now()` })
      .where(and(eq(groupActivity.id, before.id), sql`${groupActivity.endAt} > now()`))
      .returning();
    if (!row) throw failure(GROUP_ADMIN_MSG.ended);
    await record({
      siteId: input.siteId,
      action: 'group.activity.end',
      entity: 'group_activity',
      entityId: row.id,
      before: { endAt: before.endAt },
      after: { endAt: row.endAt },
      reason,
    });
    return row;
  });
  return (await activitiesOut(ctx, [saved]))[0] as AdminGroupActivity;
}

/** Teams of the site (of one activity, in one state), newest first, with their members. */
export async function listGroupTeams(
  ctx: OperatorCtx,
  query: { siteId: number; activityId?: number; status?: number; pageNum?: number },
) {
  requireSiteAccess(ctx, 'promotions:view', query.siteId);
  const where = and(
    eq(groupTeam.siteId, query.siteId),
    query.activityId === undefined ? undefined : eq(groupTeam.activityId, query.activityId),
    query.status === undefined ? undefined : eq(groupTeam.status, query.status),
  );
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db
      .select({ team: groupTeam, activityName: groupActivity.name })
      .from(groupTeam)
      .innerJoin(groupActivity, eq(groupActivity.id, groupTeam.activityId))
      .where(where)
      .orderBy(desc(groupTeam.id)),
    total: ctx.db.select({ n: count() }).from(groupTeam).where(where),
    present: async (rows): Promise<AdminGroupTeam[]> => {
      const places =
        rows.length === 0
          ? []
          : await ctx.db
              .select()
              .from(groupMember)
              .where(
                inArray(
                  groupMember.teamId,
                  rows.map((r) => r.team.id),
                ),
              )
              .orderBy(desc(groupMember.isLeader), groupMember.createdAt);
      return rows.map(({ team, activityName }) => ({
        teamId: team.id,
        activityId: team.activityId,
        activityName,
        size: team.size,
        joined: team.reserved,
        paid: team.paid,
        status: team.status,
        statusName: GROUP_TEAM_STATUS_NAME[team.status as GroupTeamStatus],
        expiresAt: team.expiresAt.toISOString(),
        createdAt: team.createdAt.toISOString(),
        settledAt: team.settledAt?.toISOString() ?? null,
        members: places
          .filter((p) => p.teamId === team.id)
          .map((p) => ({
            nickname: p.nickname,
            memberId: p.memberId,
            orderNo: p.orderNo,
            isLeader: p.isLeader,
            status: p.status,
          })),
      }));
    },
  });
}

/** The group-buy screen's routes, registered inside the console plugin (app.ts `families`). */
export const groupConsole: FastifyPluginAsync = async (app) => {
  const api = adminGroupApi;
  serve(app, api.groupActivities, async (req) => ok(await listGroupActivities(operatorOf(req), req.query)));
  serve(app, api.saveGroupActivity, async (req) =>
    ok(await saveGroupActivity(operatorOf(req), req.body), '已保存'),
  );
  serve(app, api.endGroupActivity, async (req) =>
    ok(await endGroupActivity(operatorOf(req), req.body), '活动已结束'),
  );
  serve(app, api.groupTeams, async (req) => ok(await listGroupTeams(operatorOf(req), req.query)));
};
