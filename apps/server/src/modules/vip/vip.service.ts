import type { MemberVip, VipLevel } from '@sitemall/contract';
import { and, asc, desc, eq, gt, inArray, isNull, lte, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { prepared } from '../../lib/prepared';
import type { MemberCtx } from '../cart/cart.service';
import { pointsSpentPerMember } from '../points/points.service';
import { memberUnitPrice } from './member-price';
import { memberVip, memberVipLog, vipLevel } from './vip.tables';

const ph = sql.placeholder;

/** VIP levels and member prices (issue 13; design section 6). */

const levelOf = (l: typeof vipLevel.$inferSelect): VipLevel => ({
  id: l.id,
  rank: l.rank,
  name: l.name,
  discountPct: l.discountPct,
});

/**
 * The member's level now (member_vip joined to vip_level): ended levels (expiresAt past) and
 * inactive levels count as none.
 */
const currentLevelWhere = (siteId: SQLWrapper, memberId: SQLWrapper, now: SQLWrapper) =>
  and(
    eq(memberVip.siteId, siteId),
    eq(memberVip.memberId, memberId),
    eq(vipLevel.status, 'active'),
    or(isNull(memberVip.expiresAt), gt(memberVip.expiresAt, now)),
  );

async function currentLevel(db: Db, siteId: number, memberId: number, now = new Date()) {
  const [row] = await prepared(db, 'vip_current_level', (name) =>
    db
      .select()
      .from(memberVip)
      .innerJoin(vipLevel, eq(vipLevel.id, memberVip.levelId))
      .where(currentLevelWhere(ph('siteId'), ph('memberId'), ph('now')))
      .prepare(name),
  ).execute({ siteId, memberId, now: now.toISOString() });
  return row;
}

export async function memberLevel(ctx: MemberCtx): Promise<MemberVip> {
  const [row, levels] = await Promise.all([
    currentLevel(ctx.db, ctx.site.row.id, ctx.member.id),
    ctx.db
      .select()
      .from(vipLevel)
      .where(and(eq(vipLevel.siteId, ctx.site.row.id), eq(vipLevel.status, 'active')))
      .orderBy(asc(vipLevel.rank)),
  ]);
  return {
    level: row ? levelOf(row.vip_level) : null,
    source: row?.member_vip.source ?? null,
    expiresAt: row?.member_vip.expiresAt?.toISOString() ?? null,
    levels: levels.map(levelOf),
  };
}

export interface MemberPricing {
  /** The member's current level (null: none), which approval rules may name. */
  levelId: number | null;
  /** The member's price of a piece at a list price (the list price without a level). */
  priceOf: (list: number) => number;
}

/** What of a member's level prices goods (null: no level). */
export type PricingLevel = Pick<VipLevel, 'id' | 'discountPct'> | null;

/** How a member's level prices goods. */
export function pricingOf(level: PricingLevel): MemberPricing {
  const pct = level?.discountPct ?? 0;
  return { levelId: level?.id ?? null, priceOf: (list) => (pct === 0 ? list : memberUnitPrice(list, pct)) };
}

/** How the member's level prices goods: one read of the level for a whole checkout. */
export async function memberPricing(ctx: MemberCtx): Promise<MemberPricing> {
  const row = await currentLevel(ctx.db, ctx.site.row.id, ctx.member.id);
  return pricingOf(row ? row.vip_level : null);
}

/**
 * SQL: the member's level now as a PricingLevel (JSON; null: none), as currentLevel reads it,
 * for a statement that answers it beside other values (order/checkout-facts.ts reads a checkout's
 * facts in one round trip).
 */
export const pricingLevelSql = (
  siteId: SQLWrapper,
  memberId: SQLWrapper,
  now: SQLWrapper,
) => sql<PricingLevel>`(
  select jsonb_build_object('id', ${vipLevel.id}, 'discountPct', ${vipLevel.discountPct})
  from ${memberVip} join ${vipLevel} on ${vipLevel.id} = ${memberVip.levelId}
  where ${currentLevelWhere(siteId, memberId, now)})`;

/**
 * Sets (or, with levelId null, removes) a member's level, with a log line. For the operator's
 * console, the rules job and partner logins (source and expiry say which).
 */
export async function setMemberLevel(
  db: Db,
  input: {
    siteId: number;
    memberId: number;
    levelId: number | null;
    source: 'auto' | 'partner' | 'manual';
    expiresAt?: Date | null;
    actor: string;
    reason: string;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (input.levelId !== null) {
      const [level] = await tx
        .select({ id: vipLevel.id })
        .from(vipLevel)
        .where(and(eq(vipLevel.id, input.levelId), eq(vipLevel.siteId, input.siteId)));
      if (!level) throw failure('会员等级不存在');
    }
    const [before] = await tx
      .select({ levelId: memberVip.levelId })
      .from(memberVip)
      .where(and(eq(memberVip.siteId, input.siteId), eq(memberVip.memberId, input.memberId)))
      .for('update');
    if (input.levelId === null) {
      await tx
        .delete(memberVip)
        .where(and(eq(memberVip.siteId, input.siteId), eq(memberVip.memberId, input.memberId)));
    } else {
      const values = {
        levelId: input.levelId,
        source: input.source,
        expiresAt: input.expiresAt ?? null,
        updatedAt: new Date(),
      };
      await tx
        .insert(memberVip)
        .values({ siteId: input.siteId, memberId: input.memberId, ...values })
        .onConflictDoUpdate({ target: [memberVip.siteId, memberVip.memberId], set: values });
    }
    await tx.insert(memberVipLog).values({
      siteId: input.siteId,
      memberId: input.memberId,
      fromLevel: before?.levelId ?? null,
      toLevel: input.levelId,
      reason: input.reason,
      actor: input.actor,
    });
  });
}

/** A partner's level claim without its own end lasts this long (it is refreshed at each login). */
export const PARTNER_LEVEL_DAYS = 30;
const MAX_CLAIM_MS = 366 * 86_400_000;

/**
 * A partner's VIP claim at SSO login, as its adapter hands it over: the level's rank (0 = no
 * level) and optionally its end (epoch ms or ISO text). undefined when the partner says
 * nothing about levels (the member's level stays as it is); null when it says "no level".
 * An end in the past, or a rank that is not a small integer, is no claim.
 */
export function vipClaimOf(
  rank: unknown,
  expiresAt: unknown,
  now = new Date(),
): { rank: number; expiresAt: Date } | null | undefined {
  if (rank === undefined || rank === null || rank === '') return undefined;
  const n = typeof rank === 'string' && /^\d{1,3}$/.test(rank) ? Number(rank) : rank;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 999) return undefined;
  if (n === 0) return null;
  const end =
    expiresAt === undefined || expiresAt === null
      ? new Date(now.getTime() + PARTNER_LEVEL_DAYS * 86_400_000)
      : new Date(typeof expiresAt === 'number' || typeof expiresAt === 'string' ? expiresAt : Number.NaN);
  if (Number.isNaN(end.getTime()) || end <= now) return undefined;
  return { rank: n, expiresAt: new Date(Math.min(end.getTime(), now.getTime() + MAX_CLAIM_MS)) };
}

/**
 * Applies a partner's level claim at login (issue 13: the level from SSO claims, with expiry).
 * An operator's level that has not ended wins over the partner's; a claim of "no level" ends
 * only a level the partner gave; a rank the site does not have changes nothing. A login that
 * repeats the same claim writes nothing.
 */
export async function levelFromPartner(
  db: Db,
  input: { siteId: number; memberId: number; claim: { rank: number; expiresAt: Date } | null | undefined },
  now = new Date(),
): Promise<void> {
  if (input.claim === undefined) return;
  const [current] = await db
    .select()
    .from(memberVip)
    .where(and(eq(memberVip.siteId, input.siteId), eq(memberVip.memberId, input.memberId)));
  if (current?.source === 'manual' && (!current.expiresAt || current.expiresAt > now)) return;
  const ref = {
    siteId: input.siteId,
    memberId: input.memberId,
    source: 'partner' as const,
    actor: 'partner',
  };
  if (input.claim === null) {
    if (current?.source === 'partner')
      await setMemberLevel(db, { ...ref, levelId: null, reason: '合作方登录声明：无会员等级' });
    return;
  }
  const [level] = await db
    .select({ id: vipLevel.id })
    .from(vipLevel)
    .where(
      and(
        eq(vipLevel.siteId, input.siteId),
        eq(vipLevel.rank, input.claim.rank),
        eq(vipLevel.status, 'active'),
      ),
    );
  if (!level) return;
  if (
    current?.source === 'partner' &&
    current.levelId === level.id &&
    current.expiresAt?.getTime() === input.claim.expiresAt.getTime()
  )
    return;
  await setMemberLevel(db, {
    ...ref,
    levelId: level.id,
    expiresAt: input.claim.expiresAt,
    reason: '合作方登录声明',
  });
}

/**
 * The rule levels (threshold type points_spent): the highest active level whose threshold the
 * member's net points spent on orders reaches. Applied where the member has no operator or
 * partner level that has not ended; an auto level the member no longer reaches ends.
 * Answers the level id set (null for none).
 */
export async function refreshAutoLevel(
  db: Db,
  input: { siteId: number; memberId: number; spent: number },
  now = new Date(),
): Promise<number | null> {
  const [current] = await db
    .select()
    .from(memberVip)
    .where(and(eq(memberVip.siteId, input.siteId), eq(memberVip.memberId, input.memberId)));
  if (current && current.source !== 'auto' && (!current.expiresAt || current.expiresAt > now))
    return current.levelId;
  const [reached] = await db
    .select({ id: vipLevel.id })
    .from(vipLevel)
    .where(
      and(
        eq(vipLevel.siteId, input.siteId),
        eq(vipLevel.status, 'active'),
        eq(vipLevel.thresholdType, 'points_spent'),
        lte(vipLevel.threshold, input.spent),
      ),
    )
    .orderBy(desc(vipLevel.rank))
    .limit(1);
  const target = reached?.id ?? null;
  const had = current?.source === 'auto' ? current.levelId : null;
  if (target === had && (target !== null || !current)) return target;
  if (target === null && current && current.source !== 'auto') {
    // An ended operator or partner level and nothing reached: it is simply gone.
    await setMemberLevel(db, { ...input, levelId: null, source: 'auto', actor: 'rule', reason: '等级到期' });
    return null;
  }
  await setMemberLevel(db, {
    ...input,
    levelId: target,
    source: 'auto',
    actor: 'rule',
    reason: `累计消费积分 ${input.spent}`,
  });
  return target;
}

/**
 * The rule levels job: every site with points_spent levels, every member who spent points or
 * holds an auto level, refreshed (refreshAutoLevel). Answers the members looked at.
 */
export async function recalcAutoLevels(db: Db, now = new Date()): Promise<number> {
  const sites = await db
    .selectDistinct({ siteId: vipLevel.siteId })
    .from(vipLevel)
    .where(and(eq(vipLevel.thresholdType, 'points_spent'), eq(vipLevel.status, 'active')));
  let seen = 0;
  for (const { siteId } of sites) {
    const spent = new Map((await pointsSpentPerMember(db, siteId)).map((r) => [r.memberId, r.spent]));
    const auto = await db
      .select({ memberId: memberVip.memberId })
      .from(memberVip)
      .where(and(eq(memberVip.siteId, siteId), eq(memberVip.source, 'auto')));
    const members = new Set([...spent.keys(), ...auto.map((a) => a.memberId)]);
    for (const memberId of members)
      await refreshAutoLevel(db, { siteId, memberId, spent: spent.get(memberId) ?? 0 }, now);
    seen += members.size;
  }
  return seen;
}

/** The rank of the member's current level on a site (null: none); benefits for a level and above. */
export async function levelRankOf(db: Db, siteId: number, memberId: number): Promise<number | null> {
  return (await currentLevel(db, siteId, memberId))?.vip_level.rank ?? null;
}

/** Name and rank of levels by id (what benefits limited to a level show and compare). */
export async function levelsByIds(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, { name: string; rank: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: vipLevel.id, name: vipLevel.name, rank: vipLevel.rank })
    .from(vipLevel)
    .where(inArray(vipLevel.id, [...ids]));
  return new Map(rows.map(({ id, ...level }) => [id, level]));
}

/** A site's active levels (the console's member-group choices). */
export async function siteLevels(ctx: RequestContext, siteId: number): Promise<VipLevel[]> {
  const { db } = ctx;
  const rows = await db
    .select()
    .from(vipLevel)
    .where(and(eq(vipLevel.siteId, siteId), eq(vipLevel.status, 'active')))
    .orderBy(asc(vipLevel.rank));
  return rows.map(levelOf);
}
