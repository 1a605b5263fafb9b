import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { seckillActivity, seckillSession, seckillSku } from '../../modules/activity/activity.tables';
import { productSpecification, sitePrice, siteProduct } from '../../modules/catalog/catalog.tables';
import type { Db } from '../client';

/** Four daily sessions covering the whole day, so a demo flash sale is always running. */
const SESSIONS = [
  { name: '早场', startTime: '00:00', endTime: '10:00' },
  { name: '午场', startTime: '10:00', endTime: '14:00' },
  { name: '晚场', startTime: '14:00', endTime: '20:00' },
  { name: '夜场', startTime: '20:00', endTime: '24:00' },
];
/** Activity stock of the demo items: plenty, some, and a last piece (sold out after one order). */
const STOCKS = [20, 10, 1];
const DAY_MS = 86_400_000;

/** A flash sale on each demo site: cheap physical goods at half price, one piece per member. */
export async function seedActivities(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    const sessions = await db
      .insert(seckillSession)
      .values(SESSIONS.map((s, sort) => ({ ...s, siteId, sort })))
      .returning({ id: seckillSession.id });
    const [activity] = await db
      .insert(seckillActivity)
      .values({
        siteId,
        name: '限时秒杀',
        sessionIds: sessions.map((s) => s.id),
        startAt: new Date(now.getTime() - DAY_MS),
        endAt: new Date(now.getTime() + 365 * DAY_MS),
        memberLimit: 1,
        orderLimit: 1,
        expireMinutes: 5,
      })
      .returning({ id: seckillActivity.id });
    // Physical goods without a purchase limit, one specification each, enough stock behind the sale.
    const specs = await db
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
          sql`exists (select 1 from product p where p.id = ${sitePrice.productId} and p.order_type = 1)`,
        ),
      )
      .orderBy(asc(sitePrice.productId), asc(sitePrice.specificationId))
      .limit(STOCKS.length);
    if (!activity || specs.length === 0) continue;
    await db.insert(seckillSku).values(
      specs.map((s, i) => ({
        activityId: activity.id,
        siteId,
        productId: s.productId,
        specificationId: s.specificationId,
        price: Math.round(s.price / 2),
        totalStock: STOCKS[i] ?? 1,
        stock: STOCKS[i] ?? 1,
      })),
    );
  }
}
