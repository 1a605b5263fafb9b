import type { AdminSite } from '@sitemall/contract';
import { asc, count, eq } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { emptyPage, listPage } from '../../lib/paging';
import { inSites } from '../admin/console-kit';
import type { SiteRow } from './site.service';
import { mallSite } from './site.tables';

/** Sites as the operator console lists and edits them (hotlines in clear: operators type them). */

export const adminSite = (row: SiteRow): AdminSite => ({
  id: row.id,
  siteName: row.siteName,
  hotline: row.hotline,
  spareHotline: row.spareHotline,
  loginWay: row.loginWay,
  paywayConf: row.paywayConf,
  cashUnit: row.cashUnit,
  configJson: row.configJson,
  customServicePcSwitch: row.customServicePcSwitch,
  isUsable: row.isUsable,
  loginOrder: row.loginOrder,
  dingtalkAuthSwitch: row.dingtalkAuthSwitch,
  updatedAt: row.updatedAt.toISOString(),
});

/** A page of the sites in `scope` (every site, or a list of ids), by id. */
export async function listSitesIn(db: Db, scope: 'all' | number[], pageNum = 1) {
  const where = inSites(mallSite.id, scope);
  const empty = scope !== 'all' && scope.length === 0;
  if (empty) return emptyPage<ReturnType<typeof adminSite>>(pageNum);
  return listPage({
    pageNum,
    rows: db.select().from(mallSite).where(where).orderBy(asc(mallSite.id)),
    total: db.select({ n: count() }).from(mallSite).where(where),
    present: (rows) => rows.map(adminSite),
  });
}

/** Names of the sites in `scope`, for the console's site switcher. */
export async function siteNamesIn(ctx: RequestContext, scope: 'all' | number[]) {
  const { db } = ctx;
  if (scope !== 'all' && scope.length === 0) return [];
  return db
    .select({ id: mallSite.id, siteName: mallSite.siteName })
    .from(mallSite)
    .where(inSites(mallSite.id, scope))
    .orderBy(asc(mallSite.id));
}

/** The row of one site, locked for an edit in `tx` (so before/after are exact). */
export async function lockSiteRow(tx: Db, siteId: number): Promise<SiteRow | undefined> {
  const [row] = await tx.select().from(mallSite).where(eq(mallSite.id, siteId)).for('update');
  return row;
}
