import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type SpecActivity, windowOf } from './activity.fixtures';
import { groupActivity, groupTeam } from './group.tables';

/** Test helpers of group buy (real database). */

/** A group buy of one specification running today. */
export async function makeGroupBuy(
  db: Db,
  input: SpecActivity & {
    price: number;
    teamSize?: number;
    teamHours?: number;
    memberLimit?: number;
    virtualFill?: boolean;
  },
) {
  const [row] = await db
    .insert(groupActivity)
    .values({
      siteId: input.siteId,
      name: '测试拼团',
      productId: input.productId,
      specificationId: input.specificationId,
      price: input.price,
      teamSize: input.teamSize ?? 2,
      teamHours: input.teamHours ?? 24,
      memberLimit: input.memberLimit ?? 1,
      virtualFill: input.virtualFill ?? false,
      ...windowOf(input),
    })
    .returning();
  return row!;
}

/** A team as it is now (counts and status). */
export async function teamRow(db: Db, teamId: number) {
  const [row] = await db.select().from(groupTeam).where(eq(groupTeam.id, teamId));
  return row!;
}

/** Moves a team's end into the past, as if its hours had passed. */
export async function endTeamNow(db: Db, teamId: number) {
  await db
    .update(groupTeam)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(groupTeam.id, teamId));
}
