import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { bargainActivity } from '../../modules/activity/bargain.tables';
import { benefit } from '../../modules/activity/benefit.tables';
import { productSpecification, sitePrice, siteProduct } from '../../modules/catalog/catalog.tables';
import type { Db } from '../client';

const DAY_MS = 86_400_000;

/**
 * A physical product each demo site sells without a purchase limit and with stock behind it,
 * away from the flash sale's (which takes the lowest ids), for a demo activity of its own.
 */
export async function demoActivityProduct(db: Db, siteId: number, offset = 0) {
  const [row] = await db
    .select({
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
        sql`exists (select 1 from product p where p.id = ${sitePrice.productId} and p.order_type = 1)`,
      ),
    )
    .orderBy(desc(sitePrice.productId), desc(sitePrice.specificationId))
    .offset(offset)
    .limit(1);
  return row;
}

/**
 * A bargain on each demo site for a year: half price at the floor, each friend cuts 10 to 30 %
 * of the price, three helps per friend a day; on 719 one friend's help is enough (the demo's
 * and the browser test's two-member journey), on 1000 three.
 */
export async function seedBargains(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    const spec = await demoActivityProduct(db, siteId);
    if (!spec) continue;
    await db.insert(bargainActivity).values({
      siteId,
      name: '好友助力砍价',
      productId: spec.productId,
      specificationId: spec.specificationId,
      floorPrice: Math.round(spec.price / 2),
      helpMax: siteId === 719 ? 1 : 3,
      cutMin: Math.max(1, Math.round(spec.price / 10)),
      cutMax: Math.max(1, Math.round((spec.price * 3) / 10)),
      helperDailyQuota: 3,
      hours: 24,
      startAt: new Date(now.getTime() - DAY_MS),
      endAt: new Date(now.getTime() + 365 * DAY_MS),
    });
  }
}

/** A benefit on each demo site for a year: 100 rights to a product, one per member, 30 days to use. */
export async function seedBenefits(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    const spec = await demoActivityProduct(db, siteId, 1);
    if (!spec) continue;
    await db.insert(benefit).values({
      siteId,
      name: '会员专享免费领',
      productId: spec.productId,
      specificationId: spec.specificationId,
      total: 100,
      remaining: 100,
      validDays: 30,
      startAt: new Date(now.getTime() - DAY_MS),
      endAt: new Date(now.getTime() + 365 * DAY_MS),
    });
  }
}
