import {
  ACTIVITY_ADMIN_MSG,
  type AdminBenefit,
  BENEFIT_STATUS,
  PAGE_SIZE,
  type SaveBenefitBody,
} from '@sitemall/contract';
import { count, desc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fromChinaTime } from '../../lib/china-time';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from '../admin/admin.service';
import { createAudited, editAudited, inSites, rowOnSite } from '../admin/console-kit';
import { specificationsOnSite } from '../catalog/products';
import { siteLevels } from '../vip/vip.service';
import { levelNames } from './benefit';
import { benefit, benefitReceive } from './benefit.tables';
import { consoleTime } from './seckill-console';
import { timingOf } from './timing';

/**
 * The console's benefits (权益): each benefit of the operator's sites with its quota and what
 * members did with it, counted in one grouped query: received, to use, used, expired (a receive
 * past its deadline counts as expired before the job moves it, as the member sees it); and a
 * benefit created or edited with its audit row (createAudited / editAudited).
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
      ctx,
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
  const where = inSites(benefit.siteId, scope);
  return listPage({
    pageNum,
    rows: ctx.db.select().from(benefit).where(where).orderBy(desc(benefit.endAt), desc(benefit.id)),
    total: ctx.db.select({ n: count() }).from(benefit).where(where),
    present: (rows) => present(ctx, rows, now),
  });
}

async function present(ctx: OperatorCtx, rows: BenefitRow[], now: Date): Promise<AdminBenefit[]> {
  const [counts, names, levels] = await Promise.all([
    receiveCounts(
      ctx,
      rows.map((r) => r.id),
      now,
    ),
    productNames(ctx, rows),
    levelNames(ctx.db, rows),
  ]);
  return rows.map((b) => {
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
      vipLevelId: b.vipLevelId,
      vipLevelName: b.vipLevelId === null ? '' : (levels.get(b.vipLevelId) ?? ''),
      timing: timingOf({ start: b.startAt, end: b.endAt }, now),
      received: c?.received ?? 0,
      toUse: c?.toUse ?? 0,
      used: c?.used ?? 0,
      expired: c?.expired ?? 0,
    };
  });
}

/** An active VIP level of the site, or the console's refusal. */
async function levelOnSite(db: Db, siteId: number, id: number): Promise<number> {
  const level = (await siteLevels({ db }, siteId)).find((l) => l.id === id);
  if (!level) throw failure(ACTIVITY_ADMIN_MSG.badVipLevel);
  return level.id;
}

/**
 * Creates (no id) or edits a benefit. The product is a specification on sale on the site; an
 * edit of the total moves what is left by the same difference in SQL (receives running meanwhile
 * are counted), refused when members already received more than the new total.
 */
export async function saveBenefit(ctx: OperatorCtx, input: SaveBenefitBody): Promise<AdminBenefit> {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const startAt = fromChinaTime(input.startAt);
  const endAt = fromChinaTime(input.endAt);
  if (!(endAt > startAt)) throw failure(ACTIVITY_ADMIN_MSG.badWindow);
  const spec = (await specificationsOnSite(ctx, input.siteId, [input.specificationId])).get(
    input.specificationId,
  );
  if (!spec) throw failure(ACTIVITY_ADMIN_MSG.badSpec);
  let vipLevelId: number | null = null;
  if (input.audience === 'vip') {
    if (input.vipLevelId === undefined) throw failure(ACTIVITY_ADMIN_MSG.badVipLevel);
    vipLevelId = await levelOnSite(ctx.db, input.siteId, input.vipLevelId);
  }
  const fields = {
    name: input.name.trim(),
    productId: spec.productId,
    specificationId: spec.specificationId,
    validDays: input.validDays,
    startAt,
    endAt,
    vipLevelId,
    enabled: input.enabled ?? true,
  };
  let id = input.id;
  if (id === undefined) {
    id = await createAudited(
      ctx,
      benefit,
      { ...fields, siteId: input.siteId, total: input.total, remaining: input.total },
      { action: 'benefit.create', entity: 'benefit', after: { ...fields, total: input.total }, reason: '' },
    );
  } else {
    const remaining = sql`${benefit.remaining} + (${input.total}::int - ${benefit.total})`;
    await editAudited(
      ctx,
      benefit,
      { siteId: input.siteId, id },
      { ...fields, total: input.total, remaining },
      {
        action: 'benefit.update',
        entity: 'benefit',
        reason: '',
        guard: { where: sql`${remaining} >= 0`, refused: ACTIVITY_ADMIN_MSG.benefitTotalBelowReceived },
      },
    );
  }
  const [saved] = await present(ctx, [await rowOnSite(ctx.db, benefit, input.siteId, id)], new Date());
  if (!saved) throw new Error('benefit not answered');
  return saved;
}
