import {
  ACTIVITY_ADMIN_MSG,
  type AdminDraw,
  type AdminGift,
  type AdminLottery,
  type AdminPrize,
  GIFT_STATUS,
  GIFT_STATUS_LABEL,
  type LotteryResults,
  PAGE_SIZE,
  PRIZE_KIND,
  PRIZE_KIND_LABEL,
  type SaveLotteryBody,
  type SavePrizeBody,
} from '@sitemall/contract';
import { and, asc, count, countDistinct, desc, eq, inArray, type SQL, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { fromChinaTime } from '../../lib/china-time';
import { failure } from '../../lib/errors';
import { type ListPage, listPage } from '../../lib/paging';
import { tableFile } from '../../lib/xlsx';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import { inSites } from '../admin/console-kit';
import { memberIdsByPhone, memberLabels } from '../identity/member-admin';
import { mktActivity, mktChanceGrant, mktDraw, mktGift, mktPrize, mktWhiteUser } from './activity.tables';
import { consoleTime } from './seckill-console';
import { timingOf } from './timing';

/**
 * The console's lottery (issue 14 item 6): activities with their cost, chances, audience and
 * budget; prizes with weights and stock; draws, gifts (with the delivery export), invited users
 * and results. Writes are audited in their transaction; a prize's stock and the budget change
 * with guarded updates, never below what was already awarded.
 */

type ActivityRow = typeof mktActivity.$inferSelect;
type PrizeRow = typeof mktPrize.$inferSelect;

const prizeOf = (p: PrizeRow): AdminPrize => ({
  id: p.id,
  name: p.name,
  kind: p.kind,
  amount: p.amount,
  weight: p.weight,
  total: p.total,
  remaining: p.remaining,
  sort: p.sort,
});

/** A lottery's own fields, as the console shows them and the audit log records them. */
const lotteryFieldsOf = (a: ActivityRow) => ({
  code: a.code,
  type: a.type,
  name: a.name,
  startAt: consoleTime(a.startAt),
  endAt: consoleTime(a.endAt),
  audience: a.audience,
  costPoints: a.costPoints,
  chances: a.chances,
  period: a.period,
  shareBonus: a.shareBonus,
  budget: a.budget,
  enabled: a.enabled,
});

async function present(db: Db, rows: ActivityRow[], now = new Date()): Promise<AdminLottery[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [prizes, whites] = await Promise.all([
    db
      .select()
      .from(mktPrize)
      .where(inArray(mktPrize.activityId, ids))
      .orderBy(asc(mktPrize.sort), asc(mktPrize.id)),
    db
      .select({ activityId: mktWhiteUser.activityId, n: count() })
      .from(mktWhiteUser)
      .where(inArray(mktWhiteUser.activityId, ids))
      .groupBy(mktWhiteUser.activityId),
  ]);
  const whitesOf = new Map(whites.map((w) => [w.activityId, w.n]));
  return rows.map((a) => ({
    id: a.id,
    siteId: a.siteId,
    ...lotteryFieldsOf(a),
    ruleHtml: a.ruleHtml,
    budgetUsed: a.budgetUsed,
    timing: timingOf({ start: a.startAt, end: a.endAt }, now),
    prizes: prizes.filter((p) => p.activityId === a.id).map(prizeOf),
    whiteUsers: whitesOf.get(a.id) ?? 0,
  }));
}

/** The site's activity, or not found (an id of another site is not found either). */
export async function lotteryOfSite(db: Db, siteId: number, id: number): Promise<ActivityRow> {
  const [row] = await db
    .select()
    .from(mktActivity)
    .where(and(eq(mktActivity.id, id), eq(mktActivity.siteId, siteId)));
  if (!row) throw failure(ACTIVITY_ADMIN_MSG.notFound);
  return row;
}

async function presentOne(db: Db, siteId: number, id: number): Promise<AdminLottery> {
  const [one] = await present(db, [await lotteryOfSite(db, siteId, id)]);
  return one as AdminLottery;
}

/** The activity, after checking the operator may `permission` on its site. */
export async function activityFor(ctx: OperatorCtx, permission: string, siteId: number, activityId: number) {
  requireSiteAccess(ctx, permission, siteId);
  return lotteryOfSite(ctx.db, siteId, activityId);
}

export async function listLotteries(ctx: OperatorCtx, query: { siteId?: number; pageNum?: number }) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'promotions:view', query.siteId);
  if (scope !== 'all' && scope.length === 0)
    return { list: [] as AdminLottery[], total: 0, pageNum, pageSize: PAGE_SIZE };
  const where = inSites(mktActivity.siteId, scope);
  return listPage({
    pageNum,
    rows: ctx.db
      .select()
      .from(mktActivity)
      .where(where)
      .orderBy(desc(mktActivity.endAt), desc(mktActivity.id)),
    total: ctx.db.select({ n: count() }).from(mktActivity).where(where),
    present: (rows) => present(ctx.db, rows),
  });
}

/**
 * Creates or edits a lottery. The code is unique per site (the database's unique index says so,
 * not a prior count); a budget change needs a reason and never goes below the points already given.
 */
export async function saveLottery(ctx: OperatorCtx, input: SaveLotteryBody): Promise<AdminLottery> {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const startAt = fromChinaTime(input.startAt);
  const endAt = fromChinaTime(input.endAt);
  if (!(endAt > startAt)) throw failure(ACTIVITY_ADMIN_MSG.badWindow);
  const before = input.id ? await lotteryOfSite(ctx.db, input.siteId, input.id) : undefined;
  const budget = input.budget ?? null;
  const budgetChanged = before ? before.budget !== budget : budget !== null;
  const reason = budgetChanged ? requireReason(input.reason) : (input.reason?.trim() ?? '');
  const fields = {
    code: input.code,
    type: input.type,
    name: input.name.trim(),
    ruleHtml: input.ruleHtml ?? before?.ruleHtml ?? '',
    startAt,
    endAt,
    audience: input.audience,
    costPoints: input.costPoints,
    chances: input.chances,
    period: input.period,
    shareBonus: input.shareBonus,
    budget,
    enabled: input.enabled ?? before?.enabled ?? true,
  };
  try {
    const id = await audited(ctx, async (tx, record) => {
      const [row] = before
        ? await tx
            .update(mktActivity)
            .set(fields)
            .where(
              and(
                eq(mktActivity.id, before.id),
                // Draws may be giving points away meanwhile: the cap is checked in the update.
                budget === null ? undefined : sql`${mktActivity.budgetUsed} <= ${budget}`,
              ),
            )
            .returning()
        : await tx
            .insert(mktActivity)
            .values({ ...fields, siteId: input.siteId })
            .returning();
      if (!row) throw failure(ACTIVITY_ADMIN_MSG.budgetBelowUsed);
      await record({
        siteId: input.siteId,
        action: before ? 'lottery.update' : 'lottery.create',
        entity: 'mkt_activity',
        entityId: row.id,
        before: before ? lotteryFieldsOf(before) : null,
        after: lotteryFieldsOf(row),
        reason,
      });
      return row.id;
    });
    return presentOne(ctx.db, input.siteId, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw failure(ACTIVITY_ADMIN_MSG.codeTaken);
    throw error;
  }
}

/** Ends a lottery now; a reason is required. */
export async function endLottery(
  ctx: OperatorCtx,
  input: { siteId: number; activityId: number; reason: string },
  now = new Date(),
) {
  const a = await activityFor(ctx, 'promotions:manage', input.siteId, input.activityId);
  const reason = requireReason(input.reason);
  await audited(ctx, async (tx, record) => {
    const ended = await tx
      .update(mktActivity)
      .set({ endAt: now })
      .where(and(eq(mktActivity.id, a.id), sql`${mktActivity.endAt} > ${now.toISOString()}::timestamptz`))
      .returning({ id: mktActivity.id });
    if (ended.length === 0) throw failure(ACTIVITY_ADMIN_MSG.ended);
    await record({
      siteId: a.siteId,
      action: 'lottery.end',
      entity: 'mkt_activity',
      entityId: a.id,
      before: { endAt: consoleTime(a.endAt) },
      after: { endAt: consoleTime(now) },
      reason,
    });
  });
  return presentOne(ctx.db, input.siteId, a.id);
}

/**
 * Creates or edits a prize. Its stock is a total; what is left moves by the change of the total
 * in one guarded statement (draws may be taking pieces meanwhile), never below zero. Unlimited
 * (null) to a number starts from what was already awarded.
 */
export async function savePrize(ctx: OperatorCtx, input: SavePrizeBody): Promise<AdminLottery> {
  const a = await activityFor(ctx, 'promotions:manage', input.siteId, input.activityId);
  const total = input.total ?? null;
  const fields = {
    name: input.name.trim(),
    kind: input.kind,
    amount: input.kind === PRIZE_KIND.points ? (input.amount ?? 0) : 0,
    weight: input.weight,
    sort: input.sort ?? 0,
  };
  await audited(ctx, async (tx, record) => {
    let before: PrizeRow | undefined;
    let saved: PrizeRow | undefined;
    if (input.id) {
      [before] = await tx
        .select()
        .from(mktPrize)
        .where(and(eq(mktPrize.id, input.id), eq(mktPrize.activityId, a.id)));
      if (!before) throw failure(ACTIVITY_ADMIN_MSG.prizeNotFound);
      const [awarded] = await tx
        .select({ n: count() })
        .from(mktDraw)
        .where(and(eq(mktDraw.activityId, a.id), eq(mktDraw.prizeId, before.id)));
      const remaining: SQL | null =
        total === null
          ? null
          : before.total === null
            ? sql`${total} - ${awarded?.n ?? 0}`
            : sql`${mktPrize.remaining} + (${total} - ${mktPrize.total})`;
      [saved] = await tx
        .update(mktPrize)
        .set({ ...fields, total, remaining })
        .where(and(eq(mktPrize.id, before.id), remaining === null ? undefined : sql`${remaining} >= 0`))
        .returning();
      if (!saved) throw failure(ACTIVITY_ADMIN_MSG.prizeStockBelowAwarded);
    } else {
      [saved] = await tx
        .insert(mktPrize)
        .values({ ...fields, siteId: a.siteId, activityId: a.id, total, remaining: total })
        .returning();
    }
    if (!saved) throw new Error('prize not saved');
    await record({
      siteId: a.siteId,
      action: before ? 'lottery.prize.update' : 'lottery.prize.create',
      entity: 'mkt_prize',
      entityId: saved.id,
      before: before ? prizeOf(before) : null,
      after: prizeOf(saved),
    });
  });
  return presentOne(ctx.db, input.siteId, a.id);
}

export async function listDraws(
  ctx: OperatorCtx,
  query: { siteId: number; activityId: number; pageNum?: number },
): Promise<ListPage<AdminDraw>> {
  const a = await activityFor(ctx, 'promotions:view', query.siteId, query.activityId);
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db
      .select({
        id: mktDraw.id,
        memberId: mktDraw.memberId,
        prizeName: mktPrize.name,
        kind: mktPrize.kind,
        costPoints: mktDraw.costPoints,
        createdAt: mktDraw.createdAt,
      })
      .from(mktDraw)
      .leftJoin(mktPrize, eq(mktPrize.id, mktDraw.prizeId))
      .where(eq(mktDraw.activityId, a.id))
      .orderBy(desc(mktDraw.id)),
    total: ctx.db.select({ n: count() }).from(mktDraw).where(eq(mktDraw.activityId, a.id)),
    present: async (rows) => {
      const labels = await memberLabels(ctx.db, [...new Set(rows.map((r) => r.memberId))]);
      return rows.map((r) => ({
        id: r.id,
        memberId: r.memberId,
        member: labels.get(r.memberId) ?? '',
        prizeName: r.prizeName ?? PRIZE_KIND_LABEL.none,
        won: !!r.kind && r.kind !== PRIZE_KIND.none,
        costPoints: r.costPoints,
        createdAt: consoleTime(r.createdAt),
      }));
    },
  });
}

const giftColumns = {
  id: mktGift.id,
  activityId: mktGift.activityId,
  activityCode: mktActivity.code,
  activityName: mktActivity.name,
  memberId: mktGift.memberId,
  prizeName: mktPrize.name,
  kind: mktPrize.kind,
  status: mktGift.status,
  claimDeadline: mktGift.claimDeadline,
  claimedAt: mktGift.claimedAt,
  address: mktGift.address,
  createdAt: mktGift.createdAt,
};

/** Gifts of a site with their prize and activity, newest first unless the caller orders them. */
const giftsOf = (db: Db, where: SQL | undefined) =>
  db
    .select(giftColumns)
    .from(mktGift)
    .innerJoin(mktPrize, eq(mktPrize.id, mktGift.prizeId))
    .innerJoin(mktActivity, eq(mktActivity.id, mktGift.activityId))
    .where(where)
    .$dynamic();

type GiftRow = Awaited<ReturnType<typeof giftsOf>>[number];

async function giftsPresented(db: Db, rows: GiftRow[]): Promise<AdminGift[]> {
  const labels = await memberLabels(db, [...new Set(rows.map((r) => r.memberId))]);
  return rows.map((r) => ({
    ...r,
    member: labels.get(r.memberId) ?? '',
    statusName: GIFT_STATUS_LABEL[r.status] ?? '',
    claimDeadline: r.claimDeadline ? consoleTime(r.claimDeadline) : null,
    claimedAt: r.claimedAt ? consoleTime(r.claimedAt) : null,
    address: r.address ?? null,
    createdAt: consoleTime(r.createdAt),
  }));
}

interface GiftFilter {
  siteId: number;
  activityId?: number;
  status?: number;
  phone?: string;
}

/**
 * Which gifts a console query means: the site's (the operator may read it), of one of its
 * activities when named (another site's activity is not found), in a status, of the site's
 * member with a phone.
 */
async function giftWhere(ctx: OperatorCtx, query: GiftFilter) {
  requireSiteAccess(ctx, 'promotions:view', query.siteId);
  const activity =
    query.activityId === undefined ? undefined : await lotteryOfSite(ctx.db, query.siteId, query.activityId);
  const members = query.phone ? await memberIdsByPhone(ctx.db, [query.siteId], query.phone) : undefined;
  const where = and(
    eq(mktGift.siteId, query.siteId),
    activity ? eq(mktGift.activityId, activity.id) : undefined,
    query.status === undefined ? undefined : eq(mktGift.status, query.status),
    members ? inArray(mktGift.memberId, members.length > 0 ? members : [-1]) : undefined,
  );
  return { where, activity };
}

/** A site's gifts (spec: status 0 to be claimed, 1 claimed, -1 expired) with filters, a page. */
export async function listGifts(
  ctx: OperatorCtx,
  query: GiftFilter & { pageNum?: number },
): Promise<ListPage<AdminGift>> {
  const { where } = await giftWhere(ctx, query);
  return listPage({
    pageNum: query.pageNum,
    rows: giftsOf(ctx.db, where).orderBy(desc(mktGift.id)),
    total: ctx.db.select({ n: count() }).from(mktGift).where(where),
    present: (rows) => giftsPresented(ctx.db, rows),
  });
}

/** Rows one delivery sheet holds (a sheet for the warehouse, not an archive). */
const EXPORT_MAX = 10_000;

/**
 * The delivery sheet (xlsx): the physical prizes the query means (an activity's or the whole
 * site's), claimed ones first with their consignee and address, so the warehouse ships from it.
 * Named after the activity's code, or the site.
 */
export async function exportGifts(ctx: OperatorCtx, query: GiftFilter) {
  const { where, activity } = await giftWhere(ctx, query);
  const rows = await giftsOf(ctx.db, and(where, eq(mktPrize.kind, PRIZE_KIND.product)))
    .orderBy(desc(mktGift.status), asc(mktGift.id))
    .limit(EXPORT_MAX);
  const gifts = await giftsPresented(ctx.db, rows);
  const file = await tableFile(
    '奖品发货',
    [
      { header: '记录号', key: 'id', width: 10 },
      { header: '活动', key: 'activity', width: 20 },
      { header: '奖品', key: 'prize', width: 20 },
      { header: '会员', key: 'member', width: 16 },
      { header: '状态', key: 'status', width: 10 },
      { header: '收货人', key: 'consignee', width: 12 },
      { header: '电话', key: 'phone', width: 16 },
      { header: '地址', key: 'address', width: 50 },
      { header: '领取时间', key: 'claimedAt', width: 20 },
      { header: '中奖时间', key: 'createdAt', width: 20 },
    ],
    gifts.map((g) => ({
      id: g.id,
      activity: g.activityName,
      prize: g.prizeName,
      member: g.member,
      status: g.statusName,
      consignee: g.address?.consignee ?? '',
      phone: g.address?.phone ?? '',
      address: g.address?.address ?? '',
      claimedAt: g.claimedAt ?? '',
      createdAt: g.createdAt,
    })),
  );
  return { file, name: activity?.code ?? `site${query.siteId}` };
}

/** What an activity did: draws, members, prizes awarded, points spent and given, orders, gifts. */
export async function lotteryResults(
  ctx: OperatorCtx,
  query: { siteId: number; activityId: number },
): Promise<LotteryResults> {
  const a = await activityFor(ctx, 'promotions:view', query.siteId, query.activityId);
  const [[drawn], byPrize, prizes, [orders], giftStates] = await Promise.all([
    ctx.db
      .select({ draws: count(), members: countDistinct(mktDraw.memberId), spent: sum(mktDraw.costPoints) })
      .from(mktDraw)
      .where(eq(mktDraw.activityId, a.id)),
    ctx.db
      .select({ prizeId: mktDraw.prizeId, n: count() })
      .from(mktDraw)
      .where(eq(mktDraw.activityId, a.id))
      .groupBy(mktDraw.prizeId),
    ctx.db.select().from(mktPrize).where(eq(mktPrize.activityId, a.id)).orderBy(asc(mktPrize.sort)),
    ctx.db
      .select({ n: count() })
      .from(mktChanceGrant)
      .where(and(eq(mktChanceGrant.activityId, a.id), eq(mktChanceGrant.source, 'order'))),
    ctx.db
      .select({ status: mktGift.status, n: count() })
      .from(mktGift)
      .where(eq(mktGift.activityId, a.id))
      .groupBy(mktGift.status),
  ]);
  const awarded = new Map(byPrize.map((p) => [p.prizeId, p.n]));
  const gifts = new Map(giftStates.map((g) => [g.status, g.n]));
  const won = prizes
    .filter((p) => p.kind !== PRIZE_KIND.none)
    .reduce((s, p) => s + (awarded.get(p.id) ?? 0), 0);
  return {
    activityId: a.id,
    draws: drawn?.draws ?? 0,
    members: drawn?.members ?? 0,
    won,
    pointsSpent: Number(drawn?.spent ?? 0),
    pointsGiven: a.budgetUsed,
    orders: orders?.n ?? 0,
    prizes: prizes.map((p) => ({
      prizeId: p.id,
      name: p.name,
      kind: p.kind,
      awarded: awarded.get(p.id) ?? 0,
      remaining: p.remaining,
    })),
    gifts: {
      toClaim: gifts.get(GIFT_STATUS.toClaim) ?? 0,
      claimed: gifts.get(GIFT_STATUS.claimed) ?? 0,
      expired: gifts.get(GIFT_STATUS.expired) ?? 0,
    },
  };
}
