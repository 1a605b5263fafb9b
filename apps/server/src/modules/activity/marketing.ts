import { ACTIVITY_TYPE, type ActivityInfo, LOTTERY_MSG } from '@sitemall/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { siteOf } from '../catalog/catalog.service';
import { mktActivity } from './activity.tables';
import { bargainActivity } from './bargain.tables';
import { timingOf } from './timing';

/**
 * The site's marketing activities as the spec types them (section 9): 1 preferential (the
 * lotteries of mkt_activity, found by code) and 2 bargain, answered from the bargain tables
 * themselves (no copy in mkt_activity to drift). One row shape for both, so a list of both is one
 * UNION ALL ordered and paged in the database; each row names the storefront page it opens.
 */

/** What a lottery row and a bargain row both answer as an activity. */
export interface ActivityRow {
  id: number;
  type: number;
  code: string;
  name: string;
  audience: string;
  startAt: Date;
  endAt: Date;
}

/** The storefront page of an activity: the turntable by code, or the bargain list at its card. */
export const activityLink = (a: Pick<ActivityRow, 'id' | 'type' | 'code'>) =>
  a.type === ACTIVITY_TYPE.bargain
    ? `/bargain#bargain-activity-${a.id}`
    : `/lottery?code=${encodeURIComponent(a.code)}`;

/** An activity as the storefront sees it (lotteries and bargains alike). */
export const activityInfoOf = (a: ActivityRow, now: Date): ActivityInfo => ({
  id: a.id,
  code: a.code,
  type: a.type,
  name: a.name,
  invitedOnly: a.audience === 'invited',
  link: activityLink(a),
  timing: timingOf({ start: a.startAt, end: a.endAt }, now),
});

/** The enabled lotteries of the site as type 1 (only rows typed 1: a bargain is never a copy here). */
const lotteryRows = (db: Db, siteId: number, id?: number) =>
  db
    .select({
      id: mktActivity.id,
      type: sql<number>`${mktActivity.type}`.as('type'),
      code: mktActivity.code,
      name: mktActivity.name,
      audience: mktActivity.audience,
      startAt: mktActivity.startAt,
      endAt: mktActivity.endAt,
    })
    .from(mktActivity)
    .where(
      and(
        eq(mktActivity.siteId, siteId),
        eq(mktActivity.enabled, true),
        eq(mktActivity.type, ACTIVITY_TYPE.preferential),
        id === undefined ? undefined : eq(mktActivity.id, id),
      ),
    );

/** The enabled bargain activities of the site as type 2 (no code; open to every member). */
const bargainRows = (db: Db, siteId: number, id?: number) =>
  db
    .select({
      id: bargainActivity.id,
      type: sql<number>`${ACTIVITY_TYPE.bargain}::smallint`.as('type'),
      code: sql<string>`''::text`.as('code'),
      name: bargainActivity.name,
      audience: sql<string>`'all'::text`.as('audience'),
      startAt: bargainActivity.startAt,
      endAt: bargainActivity.endAt,
    })
    .from(bargainActivity)
    .where(
      and(
        eq(bargainActivity.siteId, siteId),
        eq(bargainActivity.enabled, true),
        id === undefined ? undefined : eq(bargainActivity.id, id),
      ),
    );

/**
 * Both kinds, or one: a UNION ALL of the two, or the one select, as a subquery (a UNION may be
 * ordered by its output columns only, and the list orders by an expression of them).
 */
function rowsOf(db: Db, siteId: number, type?: number) {
  const rows =
    type === ACTIVITY_TYPE.preferential
      ? lotteryRows(db, siteId)
      : type === ACTIVITY_TYPE.bargain
        ? bargainRows(db, siteId)
        : unionAll(lotteryRows(db, siteId), bargainRows(db, siteId));
  return rows.as('activities');
}

/** Running and coming first, ended ones after; then by start, type and id. */
const order = (now: Date): SQL[] => [
  sql`"end_at" <= ${now.toISOString()}::timestamptz`,
  sql`"start_at"`,
  sql`"type"`,
  sql`"id"`,
];

/** lotteryApi.list: the site's activities of both types with their timing and page. */
export async function activityList(ctx: RequestContext, now = new Date()): Promise<ActivityInfo[]> {
  const rows = await ctx.db
    .select()
    .from(rowsOf(ctx.db, siteOf(ctx).row.id))
    .orderBy(sql`"start_at"`, sql`"type"`, sql`"id"`)
    .limit(200);
  return rows.map((a) => activityInfoOf(a, now));
}

/** lotteryApi.get: an activity by id and type (ids are per type; 1 when not given). */
export async function activityById(
  ctx: RequestContext,
  id: number,
  type: number = ACTIVITY_TYPE.preferential,
  now = new Date(),
): Promise<ActivityInfo> {
  const siteId = siteOf(ctx).row.id;
  const [row] =
    type === ACTIVITY_TYPE.bargain
      ? await bargainRows(ctx.db, siteId, id)
      : await lotteryRows(ctx.db, siteId, id);
  if (!row) throw failure(LOTTERY_MSG.notFound);
  return activityInfoOf(row, now);
}

/** lotteryApi.marketingList: the site's marketing activities (of one type when given), a page. */
export async function marketingList(
  ctx: RequestContext,
  query: { type?: number; pageNum?: number },
  now = new Date(),
) {
  const siteId = siteOf(ctx).row.id;
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db
      .select()
      .from(rowsOf(ctx.db, siteId, query.type))
      .orderBy(...order(now)),
    total: ctx.db.select({ n: sql<number>`count(*)::int` }).from(rowsOf(ctx.db, siteId, query.type)),
    present: (rows) => rows.map((a) => activityInfoOf(a, now)),
  });
}
