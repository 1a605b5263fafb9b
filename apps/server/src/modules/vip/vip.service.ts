import type { MemberVip, VipLevel } from '@sitemall/contract';
import { and, asc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import type { MemberCtx } from '../cart/cart.service';
import { memberUnitPrice } from './member-price';
import { memberVip, memberVipLog, vipLevel } from './vip.tables';

/** VIP levels and member prices (issue 13; design section 6). */

const levelOf = (l: typeof vipLevel.$inferSelect): VipLevel => ({
  id: l.id,
  rank: l.rank,
  name: l.name,
  discountPct: l.discountPct,
});

/** The member's level now: ended levels (expiresAt past) and inactive levels count as none. */
async function currentLevel(db: Db, siteId: number, memberId: number, now = new Date()) {
  const [row] = await db
    .select()
    .from(memberVip)
    .innerJoin(vipLevel, eq(vipLevel.id, memberVip.levelId))
    .where(
      and(
        eq(memberVip.siteId, siteId),
        eq(memberVip.memberId, memberId),
        eq(vipLevel.status, 'active'),
        or(isNull(memberVip.expiresAt), gt(memberVip.expiresAt, now)),
      ),
    );
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

/** The member's price of a piece at a list price (the list price without a level). */
export async function memberPricing(ctx: MemberCtx): Promise<(list: number) => number> {
  const row = await currentLevel(ctx.db, ctx.site.row.id, ctx.member.id);
  const pct = row?.vip_level.discountPct ?? 0;
  return (list) => (pct === 0 ? list : memberUnitPrice(list, pct));
}

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
