import { type AdminMemberVip, type AdminVipLevel, PROMO_MSG } from '@sitemall/contract';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import { type ListPage, listPage } from '../../lib/paging';
import { type OperatorCtx, requireSiteAccess } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import {
  createAudited,
  dayEnd,
  editAudited,
  isoOrNull,
  listInScope,
  memberOfAccount,
} from '../admin/console-kit';
import { setMemberLevel } from './vip.service';
import { memberVip, memberVipLog, vipLevel } from './vip.tables';

/**
 * The console's VIP screens (issue 13 item 5): levels per site with their discount, and a
 * member's level set by the operator (through setMemberLevel, which logs it). Reads within the
 * promotions scope, writes audited in their transaction; a discount change needs a reason.
 */

async function levelsWhere(
  db: Db,
  where: SQL | undefined,
  pageNum: number,
): Promise<ListPage<AdminVipLevel>> {
  const page = await listPage({
    pageNum: pageNum,
    rows: db
      .select({ l: vipLevel, members: sql<number>`count(${memberVip.memberId})::int` })
      .from(vipLevel)
      .leftJoin(memberVip, eq(memberVip.levelId, vipLevel.id))
      .where(where)
      .groupBy(vipLevel.id)
      .orderBy(asc(vipLevel.siteId), asc(vipLevel.rank))
      .$dynamic(),
    total: db.select({ n: count() }).from(vipLevel).where(where),
  });
  return { ...page, list: page.list.map(({ l, members }) => ({ ...l, members })) };
}

export const listLevels = (ctx: OperatorCtx, query: { siteId?: number; pageNum?: number }) =>
  listInScope(ctx, 'promotions:view', query, vipLevel.siteId, (inScope, pageNum) =>
    levelsWhere(ctx.db, inScope, pageNum),
  );

async function levelOf(db: Db, id: number) {
  const { list } = await levelsWhere(db, eq(vipLevel.id, id), 1);
  return list[0] as AdminVipLevel;
}

/** A rank taken on the site answers its own words (the unique index decides). */
async function rankUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw failure(PROMO_MSG.rankTaken);
    throw error;
  }
}

export async function createLevel(
  ctx: OperatorCtx,
  input: {
    siteId: number;
    rank: number;
    name: string;
    discountPct: number;
    thresholdType?: string;
    threshold?: number;
    reason?: string;
  },
) {
  const { reason, ...fields } = input;
  const id = await rankUnique(() =>
    createAudited(
      ctx,
      vipLevel,
      { ...fields, name: fields.name.trim() },
      { action: 'promotion.vip.create', entity: 'vip_level', after: fields, reason: reason?.trim() ?? '' },
    ),
  );
  return levelOf(ctx.db, id);
}

export async function updateLevel(
  ctx: OperatorCtx,
  input: {
    siteId: number;
    levelId: number;
    name?: string;
    discountPct?: number;
    thresholdType?: string;
    threshold?: number;
    status?: string;
    reason: string;
  },
) {
  const reason = requireReason(input.reason);
  const { siteId, levelId, reason: _, ...change } = input;
  await editAudited(ctx, vipLevel, { siteId, id: levelId }, change, {
    action: 'promotion.vip.update',
    entity: 'vip_level',
    reason,
  });
  return levelOf(ctx.db, levelId);
}

async function memberOn(db: Db, siteId: number, account: string) {
  const found = await memberOfAccount(db, siteId, account);
  if (!found) throw failure(PROMO_MSG.memberNotFound);
  return found;
}

async function memberVipOf(db: Db, siteId: number, memberId: number, label: string): Promise<AdminMemberVip> {
  const [[held], log] = await Promise.all([
    db
      .select()
      .from(memberVip)
      .innerJoin(vipLevel, eq(vipLevel.id, memberVip.levelId))
      .where(and(eq(memberVip.siteId, siteId), eq(memberVip.memberId, memberId))),
    db
      .select()
      .from(memberVipLog)
      .where(and(eq(memberVipLog.siteId, siteId), eq(memberVipLog.memberId, memberId)))
      .orderBy(desc(memberVipLog.id))
      .limit(20),
  ]);
  return {
    siteId,
    memberId,
    member: label,
    levelId: held?.vip_level.id ?? null,
    levelName: held?.vip_level.name ?? '',
    discountPct: held?.vip_level.discountPct ?? 0,
    source: held?.member_vip.source ?? '',
    expiresAt: isoOrNull(held?.member_vip.expiresAt),
    log: log.map((l) => ({ ...l, at: l.at.toISOString() })),
  };
}

export async function memberVipView(ctx: OperatorCtx, input: { siteId: number; member: string }) {
  requireSiteAccess(ctx, 'promotions:view', input.siteId);
  const found = await memberOn(ctx.db, input.siteId, input.member);
  return memberVipOf(ctx.db, input.siteId, found.id, found.phone ?? found.username ?? '');
}

/** Sets or removes a member's level by hand (source manual, optional last day), audited. */
export async function setMemberVip(
  ctx: OperatorCtx,
  input: { siteId: number; member: string; levelId: number | null; expiresOn?: string; reason: string },
) {
  const reason = requireReason(input.reason);
  const found = await memberOn(ctx.db, input.siteId, input.member);
  const label = found.phone ?? found.username ?? '';
  const before = await memberVipOf(ctx.db, input.siteId, found.id, label);
  await audited(ctx, async (tx, record) => {
    await setMemberLevel(tx, {
      siteId: input.siteId,
      memberId: found.id,
      levelId: input.levelId,
      source: 'manual',
      expiresAt: dayEnd(input.expiresOn),
      actor: `operator:${ctx.operator.username}`,
      reason,
    });
    await record({
      siteId: input.siteId,
      action: 'promotion.vip.member',
      entity: 'member_vip',
      entityId: found.id,
      before: { levelId: before.levelId, expiresAt: before.expiresAt },
      after: { levelId: input.levelId, expiresOn: input.expiresOn ?? null },
      reason,
    });
  });
  return memberVipOf(ctx.db, input.siteId, found.id, label);
}
