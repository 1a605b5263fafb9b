import { groupActivity } from '../../modules/activity/group.tables';
import type { Db } from '../client';
import { demoActivityGoods, demoWindow } from './activity-goods';

/**
 * A group buy on each demo site: a physical product (no purchase limit, stock behind it) at
 * 80 % for teams of two that fill within 24 hours, two pieces per member. It takes the
 * sixth such product, past the flash sale's three.
 */
export async function seedGroupBuys(db: Db, siteIds: readonly number[], now = new Date()): Promise<void> {
  for (const siteId of siteIds) {
    // Physical goods: a paid member waits in 24 hours for the team, unshipped.
    const [spec] = await demoActivityGoods(db, siteId, { from: 'first', skip: 5, onePerProduct: true });
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
      ...demoWindow(now),
    });
  }
}
