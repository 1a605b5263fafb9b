import { isDeepStrictEqual } from 'node:util';
import type { AdminSite, SiteFields } from '@sitemall/contract';
import { failure } from '../../lib/errors';
import { type SiteCache, siteNotFound, updateSite } from '../site/site.service';
import { adminSite, listSitesIn, lockSiteRow } from '../site/site-admin';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from './admin.service';
import { audited, requireReason } from './audit';

export function listSites(ctx: OperatorCtx, query: { siteId?: number; pageNum?: number }) {
  return listSitesIn(ctx.db, sitesToRead(ctx, 'sites:view', query.siteId), query.pageNum);
}

/**
 * Saves the fields that changed, with an audit row holding their before and after values; a
 * change of pay ways needs a reason. The site module's NOTIFY drops every process's cached copy
 * when the transaction commits, so the storefront shows the change on its next read.
 */
export async function editSite(
  ctx: OperatorCtx,
  sites: SiteCache,
  siteId: number,
  fields: SiteFields,
  reason?: string,
): Promise<AdminSite> {
  requireSiteAccess(ctx, 'sites:manage', siteId);
  const saved = await audited(ctx, async (tx, record) => {
    const row = await lockSiteRow(tx, siteId);
    if (!row) throw siteNotFound();
    const current = adminSite(row) as unknown as Record<string, unknown>;
    const changed = Object.entries(fields).filter(
      ([key, value]) => value !== undefined && !isDeepStrictEqual(current[key], value),
    );
    if (changed.length === 0) return row;
    const keys = changed.map(([key]) => key);
    if (keys.includes('paywayConf')) requireReason(reason);
    if (keys.includes('siteName') && !String(fields.siteName).trim()) throw failure('站点名称不能为空');
    await updateSite(tx, siteId, Object.fromEntries(changed));
    await record({
      siteId,
      action: 'site.update',
      entity: 'mall_site',
      entityId: siteId,
      before: Object.fromEntries(keys.map((k) => [k, current[k]])),
      after: Object.fromEntries(changed),
      reason: reason?.trim() ?? '',
    });
    return (await lockSiteRow(tx, siteId)) ?? row;
  });
  // This process drops its copy now; the others on the NOTIFY.
  sites.invalidate(siteId);
  return adminSite(saved);
}
