import {
  type CategoryProductGroup,
  type CategoryTree,
  CODE,
  type CategoryLabel as Label,
  sourceName,
} from '@sitemall/contract';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { notifiedSiteCache, notifySiteChange, type SiteCache } from '../../db/site-cache';
import { ok } from '../../lib/envelope';
import { AppError, failure } from '../../lib/errors';
import type { Site } from '../site/site.service';
import { category, categoryGroup, categoryLabel, product, siteProduct } from './catalog.tables';

export const CATALOG_CHANGED_CHANNEL = 'sitemall_catalog_changed';

/** A product that is not (or no longer) sold here: a normal miss, not a fault (CODE.notFound). */
export const productNotFound = () => new AppError(CODE.notFound, '商品不存在或已下架');
export const notFound = (what: string) => failure(`${what}不存在`);

/** A site's labels and categories, with the answers that read them serialised once. */
export interface SiteCatalog {
  labels: Label[];
  groupsOfLabel: Map<number, CategoryProductGroup[]>;
  /** Category ids under each label, for listing a whole label. */
  categoriesOfLabel: Map<number, number[]>;
  categoryIds: Set<number>;
  /** Brands selling best on the site: the popular words offered when a search finds nothing. */
  hotWords: string[];
  answers: { lableList: string; cateList: Map<number, string>; tree: string };
}

export async function loadSiteCatalog(db: Db, siteId: number): Promise<SiteCatalog> {
  const [labels, rows, hot] = await Promise.all([
    db
      .select({ id: categoryLabel.id, lableName: categoryLabel.lableName })
      .from(categoryLabel)
      // Hidden labels, groups and categories are left out of every menu (catalogue-menus.ts).
      .where(and(eq(categoryLabel.siteId, siteId), eq(categoryLabel.hidden, false)))
      .orderBy(asc(categoryLabel.sort), asc(categoryLabel.id)),
    db
      .select({
        labelId: categoryGroup.labelId,
        levelId: categoryGroup.id,
        levelName: categoryGroup.levelName,
        id: category.id,
        catName: category.catName,
      })
      .from(category)
      .innerJoin(categoryGroup, eq(categoryGroup.id, category.groupId))
      .where(and(eq(category.siteId, siteId), eq(category.hidden, false), eq(categoryGroup.hidden, false)))
      .orderBy(asc(categoryGroup.sort), asc(categoryGroup.id), asc(category.sort), asc(category.id)),
    db
      .select({ brand: product.brand })
      .from(siteProduct)
      .innerJoin(product, eq(product.id, siteProduct.productId))
      .where(eq(siteProduct.siteId, siteId))
      .groupBy(product.brand)
      .orderBy(desc(sql`sum(${siteProduct.sales})`))
      .limit(8),
  ]);
  const groupsOfLabel = new Map<number, CategoryProductGroup[]>(labels.map((l) => [l.id, []]));
  const categoriesOfLabel = new Map<number, number[]>(labels.map((l) => [l.id, []]));
  for (const { labelId, ...group } of rows) {
    groupsOfLabel.get(labelId)?.push(group);
    categoriesOfLabel.get(labelId)?.push(group.id);
  }
  const tree: CategoryTree = {
    mallCateLables: labels.map((l) => ({ ...l, cateProductList: groupsOfLabel.get(l.id) ?? [] })),
  };
  return {
    labels,
    groupsOfLabel,
    categoriesOfLabel,
    categoryIds: new Set(rows.filter((r) => groupsOfLabel.has(r.labelId)).map((r) => r.id)),
    hotWords: hot.map((h) => h.brand).filter(Boolean),
    answers: {
      lableList: JSON.stringify(ok({ mallCateLables: labels })),
      cateList: new Map(
        [...groupsOfLabel].map(([id, groups]) => [id, JSON.stringify(ok({ cateProductList: groups }))]),
      ),
      tree: JSON.stringify(ok(tree)),
    },
  };
}

/**
 * Labels and categories are read on every page (the category menu): kept in memory per site,
 * dropped on CATALOG_CHANGED_CHANNEL (db/site-cache.ts).
 */
export type CatalogCache = SiteCache<SiteCatalog>;

export function createCatalogCache(database: Database): Promise<CatalogCache> {
  return notifiedSiteCache(database, CATALOG_CHANGED_CHANNEL, (siteId) =>
    loadSiteCatalog(database.db, siteId),
  );
}

/** Announce a change of a site's labels or categories to every server process. */
export function announceCatalogChange(db: Db, siteId: number): Promise<void> {
  return notifySiteChange(db, CATALOG_CHANGED_CHANNEL, siteId);
}

/** Renames a label (operator action; here so the cache invalidation has a caller and a test). */
export async function renameLabel(db: Db, siteId: number, labelId: number, lableName: string) {
  await db
    .update(categoryLabel)
    .set({ lableName })
    .where(sql`${categoryLabel.id} = ${labelId} and ${categoryLabel.siteId} = ${siteId}`);
  await announceCatalogChange(db, siteId);
}

/** The site of a request; routes that call this declare `config: { site: 'required' }`. */
export function siteOf(ctx: { site?: Site }): Site {
  if (!ctx.site) throw new AppError(500, '站点不存在');
  return ctx.site;
}

/** A supply source as the site names it (spec section 3; supplyConfig first, then the default table). */
export function sourceOf(site: Site, source: number, type: number) {
  const found = sourceName(site.row.supplyConfig, source, type) ?? sourceName(site.row.supplyConfig, source);
  return { source, type, name: found?.name ?? '其他来源', hasAddressTab: found?.hasAddressTab ?? true };
}
