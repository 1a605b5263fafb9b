import {
  ACTIVITY_STATUS,
  CODE,
  GROUP_MSG,
  GROUP_TEAM_STATUS,
  GROUP_TEAM_STATUS_NAME,
  type GroupActivity,
  type GroupDetail,
  type GroupTeam,
  type GroupTeamStatus,
  type GroupView,
  type MyGroup,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { idsMatch, prepared } from '../../lib/prepared';
import type { MemberCtx } from '../cart/cart.service';
import { siteOf } from '../catalog/catalog.service';
import { specificationsOnSite } from '../catalog/products';
import { memberById } from '../identity/members';
import { groupActivity, groupMember, groupPurchase, groupTeam } from './group.tables';
import { productOffers } from './offers';
import { timingOf } from './timing';

/**
 * Group buy (design promotions.md §3). The slot is taken when the order is submitted, in the
 * order's transaction (`takeGroupSlot`: a guarded `reserved < size` update and the unique live
 * place per member and team), so a full team never takes another order, let alone a payment.
 * Payment marks the place paid (`groupPaid`); the team succeeds when every slot is paid. An
 * order that ends unpaid, or is refunded, gives its place back once (`releaseGroup`). Teams
 * whose time is up are settled by `settleGroupTeams` (group-settle.ts).
 */

type ActivityRow = typeof groupActivity.$inferSelect;
type TeamRow = typeof groupTeam.$inferSelect;

/** A member as others see them in a team: the phone masked, else the username. */
async function nicknameOf(db: Db, siteId: number, memberId: number): Promise<string> {
  const row = await memberById({ db }, siteId, memberId);
  if (row?.phone) return row.phone.replace(/^(\d{3})\d{4}(\d*)$/, '$1****$2');
  return row?.username ?? `会员${memberId}`;
}

const window = (a: ActivityRow) => ({ start: a.startAt, end: a.endAt });

/** The activities as the storefront shows them (ones whose product is off sale are left out). */
async function activitiesOut(
  ctx: RequestContext,
  siteId: number,
  rows: ActivityRow[],
  now: Date,
): Promise<GroupActivity[]> {
  const { db } = ctx;
  return productOffers(db, siteId, rows, now, (a, spec) => ({
    price: a.price,
    marketPrice: spec.price,
    teamSize: a.teamSize,
    teamHours: a.teamHours,
    memberLimit: a.memberLimit,
    virtualFill: a.virtualFill,
  }));
}

export function teamOut(team: TeamRow, leader: string, now: Date): GroupTeam {
  const status = team.status as GroupTeamStatus;
  return {
    teamId: team.id,
    activityId: team.activityId,
    leader,
    size: team.size,
    joined: team.reserved,
    paid: team.paid,
    status,
    statusName: GROUP_TEAM_STATUS_NAME[status],
    expireTimeStamp: team.expiresAt.getTime(),
    currentTime: now.getTime(),
  };
}

/** Leaders' nicknames of teams, from their places. */
async function leadersOf(db: Db, teamIds: number[]): Promise<Map<number, string>> {
  if (teamIds.length === 0) return new Map();
  const rows = await db
    .select({ teamId: groupMember.teamId, nickname: groupMember.nickname })
    .from(groupMember)
    .where(and(inArray(groupMember.teamId, teamIds), eq(groupMember.isLeader, true)));
  return new Map(rows.map((r) => [r.teamId, r.nickname]));
}

async function activityOf(db: Db, siteId: number, id: number): Promise<ActivityRow> {
  const [row] = await db
    .select()
    .from(groupActivity)
    .where(and(eq(groupActivity.siteId, siteId), eq(groupActivity.id, id)));
  if (!row) throw failure(GROUP_MSG.notFound);
  return row;
}

async function teamOf(db: Db, siteId: number, id: number): Promise<TeamRow> {
  const [row] = await db
    .select()
    .from(groupTeam)
    .where(and(eq(groupTeam.siteId, siteId), eq(groupTeam.id, id)));
  if (!row) throw failure(GROUP_MSG.teamNotFound);
  return row;
}

/**
 * groupApi.detail: an activity with its forming teams that still have a free slot
 * (fullest first, so newcomers complete teams), or, without an id, the site's activities that
 * have not ended.
 */
export async function groupDetail(ctx: RequestContext, id?: number, now = new Date()): Promise<GroupDetail> {
  const siteId = siteOf(ctx).row.id;
  if (id === undefined) {
    const rows = await ctx.db
      .select()
      .from(groupActivity)
      .where(and(eq(groupActivity.siteId, siteId), gt(groupActivity.endAt, now)))
      .orderBy(asc(groupActivity.startAt), asc(groupActivity.id));
    return {
      currentTime: now.getTime(),
      activities: await activitiesOut(ctx, siteId, rows, now),
      teams: [],
    };
  }
  const activity = await activityOf(ctx.db, siteId, id);
  const teams = await ctx.db
    .select()
    .from(groupTeam)
    .where(
      and(
        eq(groupTeam.activityId, activity.id),
        eq(groupTeam.status, GROUP_TEAM_STATUS.forming),
        gt(groupTeam.expiresAt, now),
        lt(groupTeam.reserved, groupTeam.size),
      ),
    )
    .orderBy(desc(groupTeam.reserved), asc(groupTeam.expiresAt))
    .limit(20);
  const leaders = await leadersOf(
    ctx.db,
    teams.map((t) => t.id),
  );
  return {
    currentTime: now.getTime(),
    activities: await activitiesOut(ctx, siteId, [activity], now),
    teams: teams.map((t) => teamOut(t, leaders.get(t.id) ?? '', now)),
  };
}

/** A group-buy purchase checked before the order's transaction. */
export interface GroupSale {
  siteId: number;
  memberId: number;
  nickname: string;
  activityId: number;
  /** The team joined; undefined when the member opens one. */
  teamId?: number;
  specificationId: number;
  num: number;
  price: number;
  memberLimit: number;
  teamSize: number;
  /** When the team ends: the order must be paid by then. */
  teamEndsAt: Date;
}

/**
 * Checks a group-buy submission: one specification, the activity's, while the activity runs,
 * within the per-member limit; joining, a team of this site still forming, in time, with a
 * free slot and without the member. The slot itself is taken in the order's transaction.
 */
export async function groupOffer(
  ctx: MemberCtx,
  lines: readonly { specificationId: number; num: number }[],
  target: { activityId?: number; teamId?: number },
  now = new Date(),
): Promise<GroupSale> {
  const siteId = ctx.site.row.id;
  const team = target.teamId === undefined ? undefined : await teamOf(ctx.db, siteId, target.teamId);
  const activityId = team?.activityId ?? target.activityId;
  if (activityId === undefined) throw failure(GROUP_MSG.notFound);
  const activity = await activityOf(ctx.db, siteId, activityId);
  const timing = timingOf(window(activity), now);
  if (timing.status === ACTIVITY_STATUS.notStarted)
    throw new AppError(CODE.failure, GROUP_MSG.notStarted, { timing });
  if (timing.status === ACTIVITY_STATUS.ended) throw new AppError(CODE.failure, GROUP_MSG.ended, { timing });
  const specIds = new Set(lines.map((l) => l.specificationId));
  if (specIds.size !== 1) throw failure(GROUP_MSG.oneLine);
  if (!specIds.has(activity.specificationId)) throw failure(GROUP_MSG.wrongProduct);
  const num = lines.reduce((s, l) => s + l.num, 0);
  if (num > activity.memberLimit) throw failure(GROUP_MSG.perMember(activity.memberLimit));
  if (team) {
    if (team.status !== GROUP_TEAM_STATUS.forming || team.expiresAt <= now)
      throw failure(GROUP_MSG.teamClosed);
    if (team.reserved >= team.size) throw failure(GROUP_MSG.teamFull);
    const [inside] = await ctx.db
      .select({ orderNo: groupMember.orderNo })
      .from(groupMember)
      .where(
        and(
          eq(groupMember.teamId, team.id),
          eq(groupMember.memberId, ctx.member.id),
          inArray(groupMember.status, ['reserved', 'paid']),
        ),
      );
    if (inside) throw failure(GROUP_MSG.joinedBefore);
  }
  return {
    siteId,
    memberId: ctx.member.id,
    nickname: await nicknameOf(ctx.db, siteId, ctx.member.id),
    activityId: activity.id,
    ...(team ? { teamId: team.id } : {}),
    specificationId: activity.specificationId,
    num,
    price: activity.price,
    memberLimit: activity.memberLimit,
    teamSize: activity.teamSize,
    teamEndsAt: team?.expiresAt ?? new Date(now.getTime() + activity.teamHours * 3_600_000),
  };
}

/**
 * In the order's transaction: the member's pieces go up only within the limit (capped upsert),
 * then the slot: joining, `reserved + 1` only while the team forms, has a free slot and time
 * left (the last slot raced by many: one update wins, the others see 0 rows); opening, a new
 * team with its leader's slot. The live place is unique per team and member. Any refusal rolls
 * the whole order back.
 */
export async function takeGroupSlot(tx: Db, sale: GroupSale, orderNo: string): Promise<number> {
  const counted = await tx
    .insert(groupPurchase)
    .values({ activityId: sale.activityId, memberId: sale.memberId, siteId: sale.siteId, qty: sale.num })
    .onConflictDoUpdate({
      target: [groupPurchase.activityId, groupPurchase.memberId],
      set: { qty: sql`${groupPurchase.qty} + excluded.qty` },
      setWhere: sql`${groupPurchase.qty} + excluded.qty <= ${sale.memberLimit}`,
    })
    .returning({ qty: groupPurchase.qty });
  if (counted.length === 0) throw failure(GROUP_MSG.perMember(sale.memberLimit));
  let teamId = sale.teamId;
  if (teamId === undefined) {
    const [opened] = await tx
      .insert(groupTeam)
      .values({
        siteId: sale.siteId,
        activityId: sale.activityId,
        leaderMemberId: sale.memberId,
        size: sale.teamSize,
        reserved: 1,
        expiresAt: sale.teamEndsAt,
      })
      .returning({ id: groupTeam.id });
    if (!opened) throw new Error('team not created');
    teamId = opened.id;
  } else {
    const [taken] = await tx
      .update(groupTeam)
      .set({ reserved: sql`${groupTeam.reserved} + 1` })
      .where(
        and(
          eq(groupTeam.id, teamId),
          eq(groupTeam.status, GROUP_TEAM_STATUS.forming),
          lt(groupTeam.reserved, groupTeam.size),
          gt(groupTeam.expiresAt, sql`now()`),
        ),
      )
      .returning({ id: groupTeam.id });
    if (!taken) throw failure(GROUP_MSG.teamFull);
  }
  // A member already in the team (a parallel join of theirs won) hits the unique live place:
  // nothing is inserted and the order rolls back.
  const [placed] = await tx
    .insert(groupMember)
    .values({
      orderNo,
      teamId,
      activityId: sale.activityId,
      siteId: sale.siteId,
      memberId: sale.memberId,
      nickname: sale.nickname,
      isLeader: sale.teamId === undefined,
      num: sale.num,
    })
    .onConflictDoNothing()
    .returning({ orderNo: groupMember.orderNo });
  if (!placed) throw failure(GROUP_MSG.joinedBefore);
  return teamId;
}

/** True for an order holding a place not yet paid: what `groupPaid` has to mark (pay.ts asks first). */
export const groupPlaceReserved = (orderNo: SQL) =>
  sql<boolean>`exists (select 1 from ${groupMember} m where m.order_no = ${orderNo} and m.status = 'reserved')`;

/**
 * In the payment's transaction: the orders' places become paid and their teams count the
 * payment; a team whose every slot is paid succeeds (a guarded move from forming), and its
 * members' orders, already in 24 确认中, may then be shipped.
 */
export async function groupPaid(tx: Db, orderNos: readonly string[]): Promise<void> {
  if (orderNos.length === 0) return;
  // A payment marks one order's place: `order_no = $1` (idsMatch), one generic plan.
  const byNo = idsMatch(groupMember.orderNo, 'orderNos', 'text', orderNos);
  const paid = await prepared(tx, `group_paid_${byNo.shape}`, (name) =>
    tx
      .update(groupMember)
      .set({ status: 'paid' })
      .where(and(byNo.where, eq(groupMember.status, 'reserved')))
      .returning({ teamId: groupMember.teamId })
      .prepare(name),
  ).execute(byNo.params);
  for (const { teamId } of paid) {
    const [team] = await tx
      .update(groupTeam)
      .set({ paid: sql`${groupTeam.paid} + 1` })
      .where(eq(groupTeam.id, teamId))
      .returning();
    if (team && team.status === GROUP_TEAM_STATUS.forming && team.paid === team.size)
      await tx
        .update(groupTeam)
        .set({ status: GROUP_TEAM_STATUS.succeeded, settledAt: sql`now()` })
        .where(and(eq(groupTeam.id, teamId), eq(groupTeam.status, GROUP_TEAM_STATUS.forming)));
  }
}

/**
 * Gives the places of ended orders back, once (a place leaves reserved or paid only here): in
 * the transaction that cancels, expires or refunds the orders. The member's pieces return; a
 * forming team frees the slot (and the payment), and one left empty fails: nobody is in it.
 */
export async function releaseGroup(tx: Db, orderNos: readonly string[]): Promise<void> {
  if (orderNos.length === 0) return;
  const places = await tx
    .select()
    .from(groupMember)
    .where(
      and(inArray(groupMember.orderNo, [...orderNos]), inArray(groupMember.status, ['reserved', 'paid'])),
    )
    .for('update');
  for (const place of places) {
    const wasPaid = place.status === 'paid';
    const [left] = await tx
      .update(groupMember)
      .set({ status: wasPaid ? 'refunded' : 'released' })
      .where(and(eq(groupMember.orderNo, place.orderNo), eq(groupMember.status, place.status)))
      .returning();
    if (!left) continue;
    await tx
      .update(groupPurchase)
      .set({ qty: sql`greatest(${groupPurchase.qty} - ${place.num}, 0)` })
      .where(and(eq(groupPurchase.activityId, place.activityId), eq(groupPurchase.memberId, place.memberId)));
    const [team] = await tx
      .update(groupTeam)
      .set({
        reserved: sql`${groupTeam.reserved} - 1`,
        paid: wasPaid ? sql`${groupTeam.paid} - 1` : groupTeam.paid,
      })
      .where(and(eq(groupTeam.id, place.teamId), eq(groupTeam.status, GROUP_TEAM_STATUS.forming)))
      .returning();
    if (team && team.reserved === 0)
      await tx
        .update(groupTeam)
        .set({ status: GROUP_TEAM_STATUS.failed, settledAt: sql`now()` })
        .where(and(eq(groupTeam.id, team.id), eq(groupTeam.status, GROUP_TEAM_STATUS.forming)));
  }
}

/** Whether a paid group-buy order still waits for its team (not shippable yet). */
export async function groupHoldsShipping(tx: Db, orderNo: string): Promise<boolean> {
  const [row] = await tx
    .select({ status: groupTeam.status })
    .from(groupMember)
    .innerJoin(groupTeam, eq(groupTeam.id, groupMember.teamId))
    .where(eq(groupMember.orderNo, orderNo));
  return row?.status === GROUP_TEAM_STATUS.forming;
}

/** The team an order took its place in. */
export async function teamOfOrder(ctx: RequestContext, orderNo: string): Promise<number> {
  const { db } = ctx;
  const [row] = await db
    .select({ teamId: groupMember.teamId })
    .from(groupMember)
    .where(eq(groupMember.orderNo, orderNo));
  if (!row) throw new Error(`order ${orderNo} has no group place`);
  return row.teamId;
}

/** groupApi.view: a team with its members and countdown; the caller's own place. */
export async function groupView(ctx: RequestContext, teamId: number, now = new Date()): Promise<GroupView> {
  const siteId = siteOf(ctx).row.id;
  const team = await teamOf(ctx.db, siteId, teamId);
  const activity = await activityOf(ctx.db, siteId, team.activityId);
  const places = await ctx.db
    .select()
    .from(groupMember)
    .where(
      and(eq(groupMember.teamId, team.id), inArray(groupMember.status, ['reserved', 'paid', 'refunded'])),
    )
    .orderBy(desc(groupMember.isLeader), asc(groupMember.createdAt));
  const [activityOut] = await activitiesOut(ctx, siteId, [activity], now);
  if (!activityOut) throw failure(GROUP_MSG.notFound);
  const mine = ctx.member ? places.find((p) => p.memberId === ctx.member?.id) : undefined;
  return {
    currentTime: now.getTime(),
    activity: activityOut,
    team: teamOut(team, places.find((p) => p.isLeader)?.nickname ?? '', now),
    members: places.map((p) => ({ nickname: p.nickname, isLeader: p.isLeader, status: p.status })),
    mine: mine ? { orderNo: mine.orderNo, status: mine.status } : null,
  };
}

/** groupApi.myList: the member's places (not the released ones), newest first. */
export async function myGroups(ctx: MemberCtx, pageNum = 1, now = new Date()) {
  const mine = and(
    eq(groupMember.siteId, ctx.site.row.id),
    eq(groupMember.memberId, ctx.member.id),
    inArray(groupMember.status, ['reserved', 'paid', 'refunded']),
  );
  return listPage({
    pageNum,
    rows: ctx.db
      .select({ place: groupMember, team: groupTeam, activity: groupActivity })
      .from(groupMember)
      .innerJoin(groupTeam, eq(groupTeam.id, groupMember.teamId))
      .innerJoin(groupActivity, eq(groupActivity.id, groupMember.activityId))
      .where(mine)
      .orderBy(desc(groupMember.createdAt), desc(groupMember.orderNo)),
    total: ctx.db.select({ n: count() }).from(groupMember).where(mine),
    present: async (rows): Promise<MyGroup[]> => {
      const specs = await specificationsOnSite(
        ctx,
        ctx.site.row.id,
        rows.map((r) => r.activity.specificationId),
      );
      const leaders = await leadersOf(
        ctx.db,
        rows.map((r) => r.team.id),
      );
      return rows.map(({ place, team, activity }) => ({
        team: teamOut(team, leaders.get(team.id) ?? '', now),
        activityName: activity.name,
        productName: specs.get(activity.specificationId)?.name ?? activity.name,
        image: specs.get(activity.specificationId)?.image ?? '',
        price: activity.price,
        num: place.num,
        orderNo: place.orderNo,
        isLeader: place.isLeader,
        memberStatus: place.status,
      }));
    },
  });
}

/** The product line a group-buy submission orders: the activity's (of the team joined). */
export async function groupLine(ctx: MemberCtx, target: { activityId?: number; teamId?: number }) {
  const siteId = ctx.site.row.id;
  const activityId =
    target.teamId === undefined
      ? target.activityId
      : (await teamOf(ctx.db, siteId, target.teamId)).activityId;
  if (activityId === undefined) throw failure(GROUP_MSG.notFound);
  const activity = await activityOf(ctx.db, siteId, activityId);
  return {
    activityId: activity.id,
    productId: activity.productId,
    specificationId: activity.specificationId,
  };
}
