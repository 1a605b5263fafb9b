import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { groupActivity } from '../../modules/activity/group.tables';
import { productSpecification, sitePrice, siteProduct } from '../../modules/catalog/catalog.tables';
import type { Db } from '../client';

const DAY_MS = 86_400_000;

/**
 * A group buy on each demo site: a physical product (no purchase limit, stock behind it) at
 * 80 % for teams of two that fill within 24 hours, two pieces per member. It takes the
 * sixth such product, past the flash sale's three.
 */
export async function seedGroupBuys(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    const [spec] = await db
      .selectDistinctOn([sitePrice.productId], {
        productId: sitePrice.productId,
        specificationId: sitePrice.specificationId,
        price: sitePrice.price,
      })
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
          // Physical goods (order type 1): a paid member waits in 24 for the team, unshipped.
          sql`exists (select 1 from product p where p.id = ${sitePrice.productId} and p.order_type = 1)`,
        ),
      )
      .orderBy(asc(sitePrice.productId), asc(sitePrice.specificationId))
      .offset(5)
      .limit(1);
    if (!spec) continue;
    await db.insert(groupActivity).values({
      siteId,
      name: '两人拼团',
      productId: spec.productId,
      specificationId: spec.specificationId,
      price: Math.round(spec.price * 0.8),
      teamSize: 2,
      teamHours: 24,
      memberLimit: 2,
      startAt: new Date(now.getTime() - DAY_MS),
      endAt: new Date(now.getTime() + 365 * DAY_MS),
    });
  }
}
