import {
  DEFAULT_AUTO_CONFIRM_DAYS,
  type HomePageMode,
  isPlainHotline,
  type MenuAd,
  type SiteConfig,
  TEMPLATE,
} from '@sitemall/contract';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { notifiedSiteCache, notifySiteChange, type SiteCache as SiteCacheOf } from '../../db/site-cache';
import { sealText } from '../../lib/aes';
import { ok } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { advert, mallSite, siteDistrict, siteTemplate } from './site.tables';

export type SiteRow = typeof mallSite.$inferSelect;

/** A site as the server uses it: its row plus the public configuration answer. */
export interface Site {
  row: SiteRow;
  config: SiteConfig;
  /** The getSiteConfig and pcInfo answers, serialised once: they are read on every page view. */
  answers: { siteConfig: string; pcInfo: string };
}

export const SITE_CHANGED_CHANNEL = 'sitemall_site_changed';
export const siteNotFound = () => failure('站点不存在');

/** Spec section 3: a hotline that is not plain digits or a landline travels encrypted. */
export const publicHotline = (hotlineKey: Buffer, hotline: string) =>
  hotline === '' || isPlainHotline(hotline) ? hotline : sealText(hotlineKey, hotline);

async function menuAds(db: Db, siteId: number): Promise<MenuAd[]> {
  const rows = await db
    .select()
    .from(advert)
    .where(and(eq(advert.siteId, siteId), eq(advert.position, 'menu'), eq(advert.isEnabled, true)))
    .orderBy(asc(advert.sort), asc(advert.id));
  return rows.map(({ id, type, title, url, adName }) => ({ id, type, title, url, adName }));
}

export async function homePageModes(db: Db, siteId: number): Promise<HomePageMode[]> {
  const [templates, ads] = await Promise.all([
    db.select().from(siteTemplate).where(eq(siteTemplate.siteId, siteId)),
    menuAds(db, siteId),
  ]);
  const byName = new Map(templates.map((t) => [t.templateName, t.value]));
  return [
    { templateName: TEMPLATE.head, value: byName.get(TEMPLATE.head) ?? { photo: '', note: '' } },
    { templateName: TEMPLATE.menu, value: ads },
    { templateName: TEMPLATE.foot, value: byName.get(TEMPLATE.foot) ?? { list: [], photo: '', note: '' } },
  ];
}

/**
 * SQL: the days after shipping when the site confirms receipt itself (configJson.autoConfirmDays,
 * else DEFAULT_AUTO_CONFIRM_DAYS) of the site whose id is `siteId`, null when there is no such
 * site: the order job compares it per order in one query without reading this module's table.
 */
export const autoConfirmDaysOf = (siteId: SQL) =>
  sql`(select coalesce((s.config_json->>'autoConfirmDays')::int, ${DEFAULT_AUTO_CONFIRM_DAYS}) from ${mallSite} s where s.id = ${siteId})`;

/** A site's name; undefined when there is no such site. */
export async function siteNameOf(db: Db, siteId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ siteName: mallSite.siteName })
    .from(mallSite)
    .where(eq(mallSite.id, siteId));
  return row?.siteName;
}

/** The sites that offer a pay way (paywayConf), by id. */
export async function siteIdsOffering(db: Db, payWay: string): Promise<number[]> {
  const rows = await db.select({ id: mallSite.id, paywayConf: mallSite.paywayConf }).from(mallSite);
  return rows.filter((s) => s.paywayConf.includes(payWay)).map((s) => s.id);
}

export async function loadSite(db: Db, hotlineKey: Buffer, siteId: number): Promise<Site | undefined> {
  const [row] = await db.select().from(mallSite).where(eq(mallSite.id, siteId));
  if (!row) return undefined;
  const [modes, districts] = await Promise.all([
    homePageModes(db, siteId),
    db
      .select({ code: siteDistrict.code, name: siteDistrict.name })
      .from(siteDistrict)
      .where(eq(siteDistrict.siteId, siteId)),
  ]);
  const { advancedConfig, createdAt: _c, updatedAt: _u, ...fields } = row;
  const config: SiteConfig = {
    mallSite: {
      ...fields,
      hotline: publicHotline(hotlineKey, row.hotline),
      spareHotline: publicHotline(hotlineKey, row.spareHotline),
      homePageModes: modes,
    },
    advancedConfig,
    mallSiteDistrict: districts,
    code: 200,
  };
  return {
    row,
    config,
    answers: {
      siteConfig: JSON.stringify(ok(config)),
      pcInfo: JSON.stringify(ok({ code: 200, mallSite: { homePageModes: modes } })),
    },
  };
}

/**
 * Site configuration is read on every page view: kept in memory per site, dropped on
 * SITE_CHANGED_CHANNEL (db/site-cache.ts). Unknown sites are not remembered.
 */
export type SiteCache = SiteCacheOf<Site | undefined>;

export function createSiteCache(database: Database, hotlineKey: Buffer): Promise<SiteCache> {
  return notifiedSiteCache(
    database,
    SITE_CHANGED_CHANNEL,
    (siteId) => loadSite(database.db, hotlineKey, siteId),
    (site) => site !== undefined,
  );
}

/** Announce a change of site data to every server process (the cache listens). */
export function announceSiteChange(db: Db, siteId: number): Promise<void> {
  return notifySiteChange(db, SITE_CHANGED_CHANNEL, siteId);
}

export async function updateSite(
  db: Db,
  siteId: number,
  patch: Partial<Omit<typeof mallSite.$inferInsert, 'id'>>,
): Promise<void> {
  await db
    .update(mallSite)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(mallSite.id, siteId));
  await announceSiteChange(db, siteId);
}

/** A site that exists; else the spec's code 500 (section 8). */
export async function requireSite(sites: SiteCache, siteId: number): Promise<Site> {
  const site = await sites.get(siteId);
  if (!site) throw siteNotFound();
  return site;
}

export type AdvertRow = typeof advert.$inferSelect;

/** A site's enabled adverts, of one position or all, in display order. */
export async function listAdverts(db: Db, siteId: number, position?: string): Promise<AdvertRow[]> {
  return db
    .select()
    .from(advert)
    .where(
      and(
        eq(advert.siteId, siteId),
        eq(advert.isEnabled, true),
        position === undefined ? undefined : eq(advert.position, position),
      ),
    )
    .orderBy(asc(advert.position), asc(advert.sort), asc(advert.id));
}

/** One enabled advert of the site; another site's advert is not found. */
export async function findAdvert(db: Db, siteId: number, id: number): Promise<AdvertRow | undefined> {
  const [row] = await db
    .select()
    .from(advert)
    .where(and(eq(advert.id, id), eq(advert.siteId, siteId), eq(advert.isEnabled, true)));
  return row;
}
