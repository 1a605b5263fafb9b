import type { Db } from '../../db/client';
import { type SpecActivity, wholeDay, windowOf } from './activity.fixtures';
import { bargainActivity } from './bargain.tables';

/** Test helpers of bargains (real database). */

/** A bargain activity of one specification, running all day unless told. */
export async function makeBargain(
  db: Db,
  input: SpecActivity & {
    floorPrice: number;
    helpMax?: number;
    cutMin?: number;
    cutMax?: number;
    helperDailyQuota?: number;
    hours?: number;
  },
) {
  const [row] = await db
    .insert(bargainActivity)
    .values({
      siteId: input.siteId,
      name: '测试砍价',
      productId: input.productId,
      specificationId: input.specificationId,
      floorPrice: input.floorPrice,
      helpMax: input.helpMax ?? 5,
      cutMin: input.cutMin ?? 1,
      cutMax: input.cutMax ?? 10,
      helperDailyQuota: input.helperDailyQuota ?? 3,
      hours: input.hours ?? 24,
      ...windowOf(input, new Date(wholeDay().end.getTime() + 7 * 86_400_000)),
    })
    .returning();
  return row!;
}
