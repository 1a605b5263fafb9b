import { GROUP_MSG, GROUP_TEAM_STATUS } from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupMember, groupTeam } from './group.tables';

/** Teams one settlement transaction takes at most. */
export const SETTLE_BATCH = 50;

/**
 * Refunds a paid order whole (points, cards and WeChat, each once) in the caller's transaction:
 * the order module's refund path, handed in by the caller (main.ts, tests), since the order
 * module already depends on this one.
 */
export type RefundPaidOrder = (tx: Db, orderNo: string, reason: string) => Promise<unknown>;

/**
 * Settles teams whose time is up: a team with virtual fill and at least one paid member
 * succeeds; any other fails and each paid member's order is refunded (its place then leaves
 * through releaseGroup, in that refund). A team with an order still unpaid waits for that
 * order to be paid or to expire (its expiry is the team's end), so no payment lands in a team
 * already failed. Safe with several processes: each batch locks its teams (FOR UPDATE SKIP
 * LOCKED: parallel runs take different teams) and the move from forming is guarded. Answers
 * how many teams were settled.
 */
export async function settleGroupTeams(db: Db, refund: RefundPaidOrder, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const { picked, settled } = await db.transaction(async (tx) => {
      const result = await tx.execute(sql`
        select t.id, a.virtual_fill as "virtualFill", t.paid
        from group_team t join group_activity a on a.id = t.activity_id
        where t.status = ${GROUP_TEAM_STATUS.forming} and t.expires_at <= ${now.toISOString()}::timestamptz
          and t.reserved = t.paid
        order by t.expires_at, t.id
        limit ${SETTLE_BATCH}
        for update of t skip locked`);
      const due = (result as unknown as { rows: { id: number; virtualFill: boolean; paid: number }[] }).rows;
      let settled = 0;
      for (const team of due) {
        const succeeds = team.virtualFill && Number(team.paid) > 0;
        const [moved] = await tx
          .update(groupTeam)
          .set({
            status: succeeds ? GROUP_TEAM_STATUS.succeeded : GROUP_TEAM_STATUS.failed,
            settledAt: now,
          })
          .where(and(eq(groupTeam.id, Number(team.id)), eq(groupTeam.status, GROUP_TEAM_STATUS.forming)))
          .returning();
        if (!moved) continue;
        settled += 1;
        if (succeeds) continue;
        const paid = await tx
          .select({ orderNo: groupMember.orderNo })
          .from(groupMember)
          .where(and(eq(groupMember.teamId, moved.id), eq(groupMember.status, 'paid')));
        for (const { orderNo } of paid) await refund(tx, orderNo, GROUP_MSG.failedRefund);
      }
      return { picked: due.length, settled };
    });
    total += settled;
    if (picked < SETTLE_BATCH) return total;
  }
}
