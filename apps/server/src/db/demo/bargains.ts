import { and, eq } from 'drizzle-orm';
import { bargainActivity } from '../../modules/activity/bargain.tables';
import { benefit } from '../../modules/activity/benefit.tables';
import { vipLevel } from '../../modules/vip/vip.tables';
import type { Db } from '../client';
import { demoActivityGoods, demoWindow } from './activity-goods';

/**
 * A bargain on each demo site for a year: half price at the floor, each friend cuts 10 to 30 %
 * of the price, three helps per friend a day; on 719 one friend's help is enough (the demo's
 * and the browser test's two-member journey), on 1000 three.
 */
export async function seedBargains(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    // The last such product: away from the flash sale's, which takes the first ones.
    const [spec] = await demoActivityGoods(db, siteId, { from: 'last' });
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
      ...demoWindow(now),
    });
  }
}

/**
 * A benefit on each demo site for a year: 100 rights to a product, one per member, 30 days to use;
 * and one for the site's second VIP level and above (the demo of a benefit's audience).
 */
export async function seedBenefits(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    const [spec] = await demoActivityGoods(db, siteId, { from: 'last', skip: 1 });
    if (!spec) continue;
    await db.insert(benefit).values({
      siteId,
      name: '会员专享免费领',
      productId: spec.productId,
      specificationId: spec.specificationId,
      total: 100,
      remaining: 100,
      validDays: 30,
      ...demoWindow(now),
    });
    const [level] = await db
      .select({ id: vipLevel.id })
      .from(vipLevel)
      .where(and(eq(vipLevel.siteId, siteId), eq(vipLevel.rank, 2)));
    const [gift] = await demoActivityGoods(db, siteId, { from: 'last', skip: 2 });
    if (!level || !gift) continue;
    await db.insert(benefit).values({
      siteId,
      name: '高等级会员专享礼',
      productId: gift.productId,
      specificationId: gift.specificationId,
      total: 20,
      remaining: 20,
      validDays: 30,
      ...demoWindow(now),
      vipLevelId: level.id,
    });
  }
}
