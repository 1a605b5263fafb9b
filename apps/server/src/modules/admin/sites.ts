import { isDeepStrictEqual } from 'node:util';
import { ADMIN_MSG, type AdminSite, type CopySiteBody, type SiteFields } from '@sitemall/contract';
import { failure } from '../../lib/errors';
import { copyAssortment } from '../catalog/site-copy';
import { type SiteCache, siteNotFound, updateSite } from '../site/site.service';
import { adminSite, listSitesIn, lockSiteRow } from '../site/site-admin';
import { copySiteRows } from '../site/site-copy';
import { forbidden, type OperatorCtx, requireSiteAccess, scopeOf, sitesToRead } from './admin.service';
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

/**
 * A new site from a copy of another, for operators who manage sites on all sites (the new one
 * is within no narrower scope): configuration, templates, regions, adverts and catalogue in one
 * audited transaction; a taken id changes nothing. The copy starts as the source is (usable or
 * not); the operator then edits what differs.
 */
export async function copySite(ctx: OperatorCtx, sites: SiteCache, input: CopySiteBody): Promise<AdminSite> {
  if (scopeOf(ctx, 'sites:manage') !== 'all') throw forbidden();
  const reason = requireReason(input.reason);
  const siteName = input.siteName.trim();
  if (!siteName) throw failure('站点名称不能为空');
  const saved = await audited(ctx, async (tx, record) => {
    const source = await lockSiteRow(tx, input.fromSiteId);
    if (!source) throw siteNotFound();
    const adverts = await copySiteRows(tx, { ...input, siteName });
    if (!adverts) throw failure(ADMIN_MSG.siteIdTaken);
    const products = await copyAssortment(tx, { ...input, adverts });
    await record({
      siteId: input.newSiteId,
      action: 'site.copy',
      entity: 'mall_site',
      entityId: input.newSiteId,
      after: { fromSiteId: input.fromSiteId, siteName, adverts: adverts.size, products },
      reason,
    });
    return lockSiteRow(tx, input.newSiteId);
  });
  // An id asked for before it existed may be cached as unknown.
  sites.invalidate(input.newSiteId);
  return adminSite(saved as NonNullable<typeof saved>);
}
