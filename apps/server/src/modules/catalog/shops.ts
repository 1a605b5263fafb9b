import { PAGE_SIZE, type ShopPage, type ShopProducts } from '@sitemall/contract';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import { offsetOf } from '../../lib/paging';
import { type CardRow, cardFields, onSaleAt, orderOf, type SortField, sortKey, toCard } from './cards';
import { notFound, siteOf } from './catalog.service';
import { product, shop, siteProduct } from './catalog.tables';

const PRODUCTS_PER_SHOP = 4;

/** Shops that sell on this site, with how many products and their best sellers. */
async function shopsOnSite(ctx: RequestContext, { shopId, offset }: { shopId?: number; offset: number }) {
  const siteId = siteOf(ctx).row.id;
  const productCount = sql<number>`count(*)::int`;
  return ctx.db
    .select({
      id: shop.id,
      shopName: shop.shopName,
      logo: shop.logo,
      intro: shop.intro,
      productCount,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(shop)
    .innerJoin(product, eq(product.shopId, shop.id))
    .innerJoin(siteProduct, and(eq(siteProduct.productId, product.id), onSaleAt(siteId)))
    .where(shopId === undefined ? undefined : eq(shop.id, shopId))
    .groupBy(shop.id)
    .orderBy(desc(productCount), asc(shop.id))
    .limit(PAGE_SIZE)
    .offset(offset);
}

/** Shop street (spec section 1): the shops of the site, paged by 10, each with 4 best sellers. */
export async function shopList(ctx: RequestContext, pageNum = 1): Promise<ShopPage> {
  const site = siteOf(ctx);
  const shops = await shopsOnSite(ctx, { offset: offsetOf(pageNum) });
  const ids = shops.map((s) => s.id);
  const best = ids.length
    ? ((await ctx.db
        .select({ ...cardFields, shopId: product.shopId })
        .from(siteProduct)
        .innerJoin(product, eq(product.id, siteProduct.productId))
        .where(
          and(
            onSaleAt(site.row.id),
            inArray(product.shopId, ids),
            sql`${siteProduct.productId} in (select r.product_id from (select sp.product_id, row_number() over (partition by p.shop_id order by sp.sales desc, sp.product_id desc) as n from site_product sp join product p on p.id = sp.product_id where sp.site_id = ${site.row.id} and sp.is_on_sale and p.shop_id in ${ids}) r where r.n <= ${PRODUCTS_PER_SHOP})`,
          ),
        )
        .orderBy(desc(siteProduct.sales), desc(siteProduct.productId))) as (CardRow & { shopId: number })[])
    : [];
  return {
    list: shops.map(({ total: _t, ...s }) => ({
      ...s,
      products: best.filter((b) => b.shopId === s.id).map(({ shopId: _s, ...row }) => toCard(site, row)),
    })),
    total: shops[0]?.total ?? 0,
    pageNum,
    pageSize: PAGE_SIZE,
  };
}

/** A shop's products on this site, sorted and paged; a shop that does not sell here is not found. */
export async function shopProducts(
  ctx: RequestContext,
  input: { shopId: number; sortField?: SortField; sortType?: 'asc' | 'desc'; pageNum?: number },
): Promise<ShopProducts> {
  const site = siteOf(ctx);
  const pageNum = input.pageNum ?? 1;
  const offset = offsetOf(pageNum);
  const [found] = await shopsOnSite(ctx, { shopId: input.shopId, offset: 0 });
  if (!found) throw notFound('店铺');
  const rows = (await ctx.db
    .select(cardFields)
    .from(siteProduct)
    .innerJoin(product, eq(product.id, siteProduct.productId))
    .where(and(onSaleAt(site.row.id), eq(product.shopId, input.shopId)))
    .orderBy(...orderOf(sortKey(input.sortField, input.sortType)))
    .limit(PAGE_SIZE)
    .offset(offset)) as CardRow[];
  const { total: _t, ...shopInfo } = found;
  return {
    shop: { ...shopInfo, products: [] },
    list: rows.map((r) => toCard(site, r)),
    total: found.productCount,
    pageNum,
    pageSize: PAGE_SIZE,
  };
}
