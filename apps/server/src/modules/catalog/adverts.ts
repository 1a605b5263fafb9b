import {
  ADVERT_TYPE,
  type Advert,
  type HomePageMode,
  PAGE_SIZE,
  type SiteAdvertInfo,
  type SpecialList,
  type TinyPage,
} from '@sitemall/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { offsetOf } from '../../lib/paging';
import { prepared } from '../../lib/prepared';
import { type AdvertRow, findAdvert, listAdverts } from '../site/site.service';
import {
  type CardRow,
  cardFields,
  cardsByIds,
  onSaleAt,
  orderOf,
  type SortField,
  type SortKey,
  sortKey,
  toCard,
} from './cards';
import { notFound, siteOf } from './catalog.service';
import { advertProduct, product, siteProduct, tinyPage } from './catalog.tables';

const ph = sql.placeholder;

export const toAdvert = ({ id, type, position, title, adName, url, image, sort }: AdvertRow): Advert => ({
  id,
  type,
  position,
  title,
  adName,
  url,
  image,
  sort,
});

export async function advertById(ctx: RequestContext, id: number): Promise<Advert> {
  const row = await findAdvert(ctx.db, siteOf(ctx).row.id, id);
  if (!row) throw notFound('广告');
  return toAdvert(row);
}

export async function advertList(ctx: RequestContext, position?: string): Promise<Advert[]> {
  return (await listAdverts(ctx.db, siteOf(ctx).row.id, position)).map(toAdvert);
}

export async function siteAdvertInfo(ctx: RequestContext): Promise<SiteAdvertInfo> {
  const info: SiteAdvertInfo = { menu: [], banner: [], activity: [], floor: [] };
  for (const row of await listAdverts(ctx.db, siteOf(ctx).row.id)) {
    const list = info[row.position as keyof SiteAdvertInfo];
    if (list) list.push(toAdvert(row));
  }
  return info;
}

function specialStatement(db: Db, key: SortKey) {
  return prepared(db, `catalog_special_${key}`, (name) =>
    db
      .select({ ...cardFields, total: sql<number>`(count(*) over ())::int` })
      .from(advertProduct)
      .innerJoin(siteProduct, and(eq(siteProduct.productId, advertProduct.productId), onSaleAt(ph('siteId'))))
      .innerJoin(product, eq(product.id, advertProduct.productId))
      .where(eq(advertProduct.advertId, ph('advertId')))
      .orderBy(
        ...(key === 'default_desc' ? [asc(advertProduct.sort), asc(advertProduct.productId)] : orderOf(key)),
      )
      .limit(PAGE_SIZE)
      .offset(ph('offset'))
      .prepare(name),
  );
}

/**
 * Specials (spec section 2, /specialList): the products an advert of type 1 lists, that this
 * site sells. An advert of type 2 opens its external URL: the answer carries it, with no list.
 */
export async function specialList(
  ctx: RequestContext,
  input: { advertId: number; sortField?: SortField; sortType?: 'asc' | 'desc'; pageNum?: number },
): Promise<SpecialList> {
  const site = siteOf(ctx);
  const pageNum = input.pageNum ?? 1;
  const offset = offsetOf(pageNum);
  const advert = await advertById(ctx, input.advertId);
  const page = { list: [], total: 0, pageNum, pageSize: PAGE_SIZE, advert };
  if (advert.type !== ADVERT_TYPE.special) return page;
  const run = (at: number) =>
    specialStatement(ctx.db, sortKey(input.sortField, input.sortType)).execute({
      siteId: site.row.id,
      advertId: advert.id,
      offset: at,
    }) as Promise<(CardRow & { total: number })[]>;
  const rows = await run(offset);
  const total = rows[0]?.total ?? (offset > 0 ? ((await run(0))[0]?.total ?? 0) : 0);
  return { ...page, total, list: rows.map((r) => toCard(site, r)) };
}

/** The site's templates (homePageModes), from the site cache. */
export function allTemplates(ctx: RequestContext): HomePageMode[] {
  return siteOf(ctx).config.mallSite.homePageModes;
}

export function modeDetail(ctx: RequestContext, templateName: string): HomePageMode {
  const found = allTemplates(ctx).find((m) => m.templateName === templateName);
  if (!found) throw notFound('模板');
  return found;
}

/** A micro page: its blocks resolved into adverts and product cards of this site. */
export async function tinyPageInfo(ctx: RequestContext, id?: number): Promise<TinyPage> {
  const siteId = siteOf(ctx).row.id;
  const [page] = await ctx.db
    .select()
    .from(tinyPage)
    .where(
      and(eq(tinyPage.siteId, siteId), id === undefined ? eq(tinyPage.isHome, true) : eq(tinyPage.id, id)),
    )
    .orderBy(asc(tinyPage.id))
    .limit(1);
  if (!page) throw notFound('页面');
  const blocks = await Promise.all(
    page.blocks.map(async (block) => ({
      kind: block.kind,
      title: block.title,
      image: block.image ?? '',
      adverts: block.advertPosition ? await advertList(ctx, block.advertPosition) : [],
      products: block.productIds ? await cardsByIds(ctx, block.productIds) : [],
    })),
  );
  return { id: page.id, title: page.title, blocks };
}
