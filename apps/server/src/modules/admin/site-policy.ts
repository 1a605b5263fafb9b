import { isDeepStrictEqual } from 'node:util';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type OperatorCtx, requireSiteAccess } from './admin.service';
import { sitePolicy } from './admin.tables';
import { audited, requireReason } from './audit';

/**
 * A site's four-eyes thresholds (issue 12 item 4), in fen: a points issue or an order refund
 * above its threshold needs a second operator with the finance permission. Finance edits them
 * (a maker raising their own limit would defeat the second pair of eyes), audited before/after.
 */

/** Sites without a policy row: above 1,000.00 a second approver decides. */
export const DEFAULT_ISSUE_THRESHOLD = 100_000;
export const DEFAULT_REFUND_THRESHOLD = 100_000;

export interface Thresholds {
  pointsIssueThreshold: number;
  refundThreshold: number;
}

export async function thresholdsOf(db: Db, siteId: number): Promise<Thresholds & { updatedAt: Date | null }> {
  const [row] = await db.select().from(sitePolicy).where(eq(sitePolicy.siteId, siteId));
  return {
    pointsIssueThreshold: row?.pointsIssueThreshold ?? DEFAULT_ISSUE_THRESHOLD,
    refundThreshold: row?.refundThreshold ?? DEFAULT_REFUND_THRESHOLD,
    updatedAt: row?.updatedAt ?? null,
  };
}

async function policyView(db: Db, siteId: number) {
  const { updatedAt, ...thresholds } = await thresholdsOf(db, siteId);
  return { siteId, ...thresholds, updatedAt: updatedAt?.toISOString() ?? null };
}

export function sitePolicyOf(ctx: OperatorCtx, siteId: number) {
  requireSiteAccess(ctx, 'finance:view', siteId);
  return policyView(ctx.db, siteId);
}

export async function saveSitePolicy(
  ctx: OperatorCtx,
  input: Thresholds & { siteId: number; reason: string },
) {
  requireSiteAccess(ctx, 'finance:manage', input.siteId);
  const reason = requireReason(input.reason);
  const next: Thresholds = {
    pointsIssueThreshold: input.pointsIssueThreshold,
    refundThreshold: input.refundThreshold,
  };
  await audited(ctx, async (tx, record) => {
    // The row locked (or created) first, so two saves racing each record the value they replaced.
    await tx
      .insert(sitePolicy)
      .values({ siteId: input.siteId, ...(await thresholdsOf(tx, input.siteId)), updatedAt: null })
      .onConflictDoNothing();
    const [locked] = await tx
      .select()
      .from(sitePolicy)
      .where(eq(sitePolicy.siteId, input.siteId))
      .for('update');
    const before: Thresholds = {
      pointsIssueThreshold: locked?.pointsIssueThreshold ?? DEFAULT_ISSUE_THRESHOLD,
      refundThreshold: locked?.refundThreshold ?? DEFAULT_REFUND_THRESHOLD,
    };
    // Saved as it was: nothing changes and nothing is recorded.
    if (isDeepStrictEqual(before, next)) return;
    await tx
      .update(sitePolicy)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(sitePolicy.siteId, input.siteId));
    await record({
      siteId: input.siteId,
      action: 'site.policy',
      entity: 'console_site_policy',
      entityId: input.siteId,
      before,
      after: next,
      reason,
    });
  });
  return policyView(ctx.db, input.siteId);
}
