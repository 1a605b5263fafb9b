import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { productSpecification, sitePrice, siteProduct } from '../../modules/catalog/catalog.tables';
import type { Db } from '../client';

const DAY_MS = 86_400_000;

/** The window of every demo activity: it started yesterday and runs for a year. */
export const demoWindow = (now: Date) => ({
  startAt: new Date(now.getTime() - DAY_MS),
  endAt: new Date(now.getTime() + 365 * DAY_MS),
});

/**
 * Goods a demo site sells for its activities: physical products (order type 1, so a paid
 * member waits unshipped) without a purchase limit, on sale, with stock behind them, priced
 * 20 to 200 yuan. Taken by product and specification id from the `first` or the `last`,
 * skipping `skip`, at most `count`; `onePerProduct` keeps one specification of each product.
 */
export async function demoActivityGoods(
  db: Db,
  siteId: number,
  pick: { from: 'first' | 'last'; skip?: number; count?: number; onePerProduct?: boolean },
) {
  const columns = {
    productId: sitePrice.productId,
    specificationId: sitePrice.specificationId,
    price: sitePrice.price,
  };
  const order = pick.from === 'first' ? asc : desc;
  return (pick.onePerProduct ? db.selectDistinctOn([sitePrice.productId], columns) : db.select(columns))
    .from(sitePrice)
    .innerJoin(
      siteProduct,
      and(eq(siteProduct.siteId, sitePrice.siteId), eq(siteProduct.productId, sitePrice.productId)),
    )
    .innerJoin(productSpecification, eq(productSpecification.id, sitePrice.specificationId))
    .where(
      and(
        eq(sitePrice.siteId, siteId),
        eq(siteProduct.limitNum, 0),
        eq(siteProduct.isOnSale, true),
        gte(productSpecification.stock, 50),
        sql`${sitePrice.price} between 2000 and 20000`,
        sql`exists (select 1 from product p where p.id = ${sitePrice.productId} and p.order_type = 1)`,
      ),
    )
    .orderBy(order(sitePrice.productId), order(sitePrice.specificationId))
    .offset(pick.skip ?? 0)
    .limit(pick.count ?? 1);
}
