import {
  ACTIVITY_STATUS,
  BENEFIT_MSG,
  BENEFIT_STATUS,
  BENEFIT_STATUS_LABEL,
  type BenefitInfo,
  type BenefitReceiver,
  CODE,
  type MyBenefit,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { type RequestContext, transaction } from '../../context';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import type { MemberCtx } from '../cart/cart.service';
import { siteOf } from '../catalog/catalog.service';
import { specificationsOnSite } from '../catalog/products';
import { memberNames } from '../identity/members';
import { levelRankOf, levelsByIds } from '../vip/vip.service';
import { maskedName } from './bargain';
import { benefit, benefitReceive } from './benefit.tables';
import { productOffers } from './offers';
import { timingOf } from './timing';

/**
 * Benefits (design promotions.md §5, "benefits"): a receive is one transaction of the member's
 * row (unique per member and benefit) and the quota's guarded decrement (`remaining > 0`, CHECK
 * behind it), so parallel receives never hand out more than the total nor two to one member.
 */

type BenefitRow = typeof benefit.$inferSelect;
type ReceiveRow = typeof benefitReceive.$inferSelect;

const DAY_MS = 86_400_000;

/** A received benefit past its deadline counts as expired even before the job moved it. */
const statusAt = (r: ReceiveRow, now: Date) =>
  r.status === BENEFIT_STATUS.toUse && r.expireAt <= now ? BENEFIT_STATUS.expired : r.status;

/** Names of the VIP levels benefits are limited to, by level id. */
export async function levelNames(db: Db, rows: readonly BenefitRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.vipLevelId === null ? [] : [r.vipLevelId])))];
  const levels = await levelsByIds(db, ids);
  return new Map([...levels].map(([id, level]) => [id, level.name]));
}

/**
 * A benefit for a VIP level and above: the member's current level must rank at least as high
 * (no level, or a lower one, is refused with its own words).
 */
async function admitLevel(ctx: MemberCtx, b: BenefitRow): Promise<void> {
  if (b.vipLevelId === null) return;
  const needed = (await levelsByIds(ctx.db, [b.vipLevelId])).get(b.vipLevelId);
  const rank = await levelRankOf(ctx.db, ctx.site.row.id, ctx.member.id);
  if (!needed || rank === null || rank < needed.rank) throw failure(BENEFIT_MSG.vipOnly);
}

/** benefitApi.product: the site's benefits not ended yet (of one product when given). */
export async function benefitList(
  ctx: RequestContext,
  productId?: number,
  now = new Date(),
): Promise<BenefitInfo[]> {
  const siteId = siteOf(ctx).row.id;
  const rows = await ctx.db
    .select()
    .from(benefit)
    .where(
      and(
        eq(benefit.siteId, siteId),
        eq(benefit.enabled, true),
        gt(benefit.endAt, now),
        productId === undefined ? undefined : eq(benefit.productId, productId),
      ),
    )
    .orderBy(asc(benefit.startAt), asc(benefit.id));
  const received = new Set<number>();
  if (ctx.member && rows.length > 0) {
    const mine = await ctx.db
      .select({ benefitId: benefitReceive.benefitId })
      .from(benefitReceive)
      .where(
        and(
          eq(benefitReceive.memberId, ctx.member.id),
          inArray(
            benefitReceive.benefitId,
            rows.map((r) => r.id),
          ),
        ),
      );
    for (const r of mine) received.add(r.benefitId);
  }
  const levels = await levelNames(ctx.db, rows);
  return productOffers(ctx.db, siteId, rows, now, (b, spec) => ({
    price: spec.price,
    total: b.total,
    remaining: b.remaining,
    validDays: b.validDays,
    vipLevelName: b.vipLevelId === null ? '' : (levels.get(b.vipLevelId) ?? ''),
    received: received.has(b.id),
  }));
}

async function benefitOf(db: Db, siteId: number, id: number): Promise<BenefitRow> {
  const [row] = await db
    .select()
    .from(benefit)
    .where(and(eq(benefit.id, id), eq(benefit.siteId, siteId), eq(benefit.enabled, true)));
  if (!row) throw failure(BENEFIT_MSG.notFound);
  return row;
}

async function mineOf(db: Db, siteId: number, rows: ReceiveRow[], now: Date): Promise<MyBenefit[]> {
  if (rows.length === 0) return [];
  const benefits = await db
    .select()
    .from(benefit)
    .where(
      inArray(
        benefit.id,
        rows.map((r) => r.benefitId),
      ),
    );
  const byId = new Map(benefits.map((b) => [b.id, b]));
  const specs = await specificationsOnSite(
    { db },
    siteId,
    benefits.map((b) => b.specificationId),
  );
  return rows.map((r) => {
    const b = byId.get(r.benefitId);
    const spec = b ? specs.get(b.specificationId) : undefined;
    const status = statusAt(r, now);
    return {
      id: r.id,
      benefitId: r.benefitId,
      name: b?.name ?? '',
      productId: b?.productId ?? 0,
      productName: spec?.name ?? '',
      image: spec?.image ?? '',
      status,
      statusName: BENEFIT_STATUS_LABEL[status] ?? '',
      createTime: r.createdAt.toISOString(),
      expireTime: r.expireAt.toISOString(),
    };
  });
}

/**
 * benefitApi.receive: within the benefit's window, the member's row (a second receive,
 * even in parallel, hits the unique key) and one of the quota (guarded), or neither.
 */
export async function receiveBenefit(ctx: MemberCtx, id: number, now = new Date()): Promise<MyBenefit> {
  const siteId = ctx.site.row.id;
  const b = await benefitOf(ctx.db, siteId, id);
  const timing = timingOf({ start: b.startAt, end: b.endAt }, now);
  if (timing.status === ACTIVITY_STATUS.notStarted)
    throw new AppError(CODE.failure, BENEFIT_MSG.notStarted, { timing });
  if (timing.status === ACTIVITY_STATUS.ended)
    throw new AppError(CODE.failure, BENEFIT_MSG.ended, { timing });
  await admitLevel(ctx, b);
  const row = await transaction(ctx, async ({ db: tx }) => {
    const [mine] = await tx
      .insert(benefitReceive)
      .values({
        siteId,
        benefitId: b.id,
        memberId: ctx.member.id,
        expireAt: new Date(now.getTime() + b.validDays * DAY_MS),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!mine) throw failure(BENEFIT_MSG.receivedBefore);
    const taken = await tx
      .update(benefit)
      .set({ remaining: sql`${benefit.remaining} - 1` })
      .where(and(eq(benefit.id, b.id), gt(benefit.remaining, 0)))
      .returning({ remaining: benefit.remaining });
    if (taken.length === 0) throw failure(BENEFIT_MSG.soldOut);
    return mine;
  });
  const [answer] = await mineOf(ctx.db, siteId, [row], now);
  if (!answer) throw new Error('benefit not answered');
  return answer;
}

/** benefitApi.receiveList: who received a benefit lately (masked), and how many in all. */
export async function benefitReceivers(
  ctx: RequestContext,
  id: number,
): Promise<{ list: BenefitReceiver[]; total: number }> {
  const siteId = siteOf(ctx).row.id;
  const b = await benefitOf(ctx.db, siteId, id);
  const rows = await ctx.db
    .select({ memberId: benefitReceive.memberId, createdAt: benefitReceive.createdAt })
    .from(benefitReceive)
    .where(eq(benefitReceive.benefitId, b.id))
    .orderBy(desc(benefitReceive.createdAt), desc(benefitReceive.id))
    .limit(20);
  const [all] = await ctx.db
    .select({ n: count() })
    .from(benefitReceive)
    .where(eq(benefitReceive.benefitId, b.id));
  const names = await memberNames(
    ctx,
    rows.map((r) => ({ siteId, memberId: r.memberId })),
  );
  const list: BenefitReceiver[] = rows.map((r) => ({
    name: maskedName(names(siteId, r.memberId)),
    createTime: r.createdAt.toISOString(),
  }));
  return { list, total: all?.n ?? 0 };
}

/** benefitApi.mine: the member's benefits, newest first. */
export async function myBenefits(ctx: MemberCtx, now = new Date()): Promise<MyBenefit[]> {
  const rows = await ctx.db
    .select()
    .from(benefitReceive)
    .where(and(eq(benefitReceive.siteId, ctx.site.row.id), eq(benefitReceive.memberId, ctx.member.id)))
    .orderBy(desc(benefitReceive.createdAt), desc(benefitReceive.id))
    .limit(100);
  return mineOf(ctx.db, ctx.site.row.id, rows, now);
}

/** Received benefits not used by their deadline expire (0 → -1); one conditional UPDATE. */
export async function expireBenefits(db: Db, now = new Date()): Promise<number> {
  const moved = await db
    .update(benefitReceive)
    .set({ status: BENEFIT_STATUS.expired })
    .where(
      and(
        eq(benefitReceive.status, BENEFIT_STATUS.toUse),
        sql`${benefitReceive.expireAt} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: benefitReceive.id });
  return moved.length;
}
