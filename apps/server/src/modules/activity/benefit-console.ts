import { type AdminBenefit, BENEFIT_STATUS, PAGE_SIZE } from '@sitemall/contract';
import { count, desc, inArray, sql } from 'drizzle-orm';
import { offsetOf } from '../../lib/paging';
import { type OperatorCtx, sitesToRead } from '../admin/admin.service';
import { specificationsOnSite } from '../catalog/products';
import { benefit, benefitReceive } from './benefit.tables';
import { consoleTime } from './seckill-console';
import { timingOf } from './timing';

/**
 * The console's benefits (权益): each benefit of the operator's sites with its quota and what
 * members did with it, counted in one grouped query: received, to use, used, expired (a receive
 * past its deadline counts as expired before the job moves it, as the member sees it).
 */

type BenefitRow = typeof benefit.$inferSelect;

async function receiveCounts(ctx: OperatorCtx, ids: number[], now: Date) {
  if (ids.length === 0)
    return new Map<number, { received: number; toUse: number; used: number; expired: number }>();
  const lapsed = sql`${benefitReceive.status} = ${BENEFIT_STATUS.toUse} and ${benefitReceive.expireAt} <= ${now.toISOString()}::timestamptz`;
  const rows = await ctx.db
    .select({
      benefitId: benefitReceive.benefitId,
      received: count(),
      toUse:
        sql<number>`count(*) filter (where ${benefitReceive.status} = ${BENEFIT_STATUS.toUse} and not (${lapsed}))`.mapWith(
          Number,
        ),
      used: sql<number>`count(*) filter (where ${benefitReceive.status} = ${BENEFIT_STATUS.used})`.mapWith(
        Number,
      ),
      expired:
        sql<number>`count(*) filter (where ${benefitReceive.status} = ${BENEFIT_STATUS.expired} or (${lapsed}))`.mapWith(
          Number,
        ),
    })
    .from(benefitReceive)
    .where(inArray(benefitReceive.benefitId, ids))
    .groupBy(benefitReceive.benefitId);
  return new Map(rows.map((r) => [r.benefitId, r]));
}

/** Product names per benefit, looked up site by site (a site's listing names its product). */
async function productNames(ctx: OperatorCtx, rows: BenefitRow[]) {
  const names = new Map<number, string>();
  for (const siteId of new Set(rows.map((r) => r.siteId))) {
    const ofSite = rows.filter((r) => r.siteId === siteId);
    const specs = await specificationsOnSite(
      ctx.db,
      siteId,
      ofSite.map((r) => r.specificationId),
    );
    for (const r of ofSite) names.set(r.id, specs.get(r.specificationId)?.name ?? '');
  }
  return names;
}

/** The benefits of the operator's sites (or of one), newest first, a page. */
export async function listBenefits(
  ctx: OperatorCtx,
  query: { siteId?: number; pageNum?: number },
  now = new Date(),
) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'promotions:view', query.siteId);
  if (scope !== 'all' && scope.length === 0)
    return { list: [] as AdminBenefit[], total: 0, pageNum, pageSize: PAGE_SIZE };
  const where = scope === 'all' ? undefined : inArray(benefit.siteId, scope);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(benefit)
      .where(where)
      .orderBy(desc(benefit.endAt), desc(benefit.id))
      .limit(PAGE_SIZE)
      .offset(offsetOf(pageNum)),
    ctx.db.select({ total: count() }).from(benefit).where(where),
  ]);
  const [counts, names] = await Promise.all([
    receiveCounts(
      ctx,
      rows.map((r) => r.id),
      now,
    ),
    productNames(ctx, rows),
  ]);
  const list: AdminBenefit[] = rows.map((b) => {
    const c = counts.get(b.id);
    return {
      id: b.id,
      siteId: b.siteId,
      name: b.name,
      productId: b.productId,
      specificationId: b.specificationId,
      productName: names.get(b.id) ?? '',
      total: b.total,
      remaining: b.remaining,
      validDays: b.validDays,
      startAt: consoleTime(b.startAt),
      endAt: consoleTime(b.endAt),
      enabled: b.enabled,
      timing: timingOf({ start: b.startAt, end: b.endAt }, now),
      received: c?.received ?? 0,
      toUse: c?.toUse ?? 0,
      used: c?.used ?? 0,
      expired: c?.expired ?? 0,
    };
  });
  return { list, total: total?.total ?? 0, pageNum, pageSize: PAGE_SIZE };
}
