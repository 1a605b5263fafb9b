import type { Db } from '../../db/client';
import { wholeDay } from './activity.fixtures';
import { bargainActivity } from './bargain.tables';

/** Test helpers of bargains (real database). */

/** A bargain activity of one specification, running all day unless told. */
export async function makeBargain(
  db: Db,
  input: {
    siteId: number;
    productId: number;
    specificationId: number;
    floorPrice: number;
    helpMax?: number;
    cutMin?: number;
    cutMax?: number;
    helperDailyQuota?: number;
    hours?: number;
    startAt?: Date;
    endAt?: Date;
  },
) {
  const day = wholeDay();
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
      startAt: input.startAt ?? day.start,
      endAt: input.endAt ?? new Date(day.end.getTime() + 7 * 86_400_000),
    })
    .returning();
  return row!;
}
