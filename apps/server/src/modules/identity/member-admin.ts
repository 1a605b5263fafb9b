import { and, count, desc, eq, inArray, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { containsText } from '../../lib/like';
import { emptyPage, listPage } from '../../lib/paging';
import { member, memberSession } from './identity.tables';
import { SESSION_IDLE_MS } from './sessions';

/** Members as the operator console searches them, always within a set of sites. */

type Scope = 'all' | number[];
const inSites = (scope: Scope) => (scope === 'all' ? undefined : inArray(member.siteId, scope));

export async function searchMembers(db: Db, scope: Scope, query: { keyword?: string; pageNum?: number }) {
  const pageNum = query.pageNum ?? 1;
  if (scope !== 'all' && scope.length === 0) return emptyPage<typeof member.$inferSelect>(pageNum);
  const keyword = query.keyword?.trim();
  const where = and(
    inSites(scope),
    keyword ? or(containsText(member.phone, keyword), containsText(member.username, keyword)) : undefined,
  );
  return listPage({
    pageNum,
    rows: db.select().from(member).where(where).orderBy(desc(member.id)),
    total: db.select({ n: count() }).from(member).where(where),
  });
}

/** Ids of the members with this phone on the sites in scope. */
export async function memberIdsByPhone(db: Db, scope: Scope, phone: string): Promise<number[]> {
  const rows = await db
    .select({ id: member.id })
    .from(member)
    .where(and(inSites(scope), eq(member.phone, phone)));
  return rows.map((r) => r.id);
}

/** Phone (or username) of members by id, for lists that show who. */
export async function memberLabels(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: member.id, phone: member.phone, username: member.username })
    .from(member)
    .where(inArray(member.id, ids));
  return new Map(rows.map((r) => [r.id, r.phone ?? r.username ?? '']));
}

/** How many of a member's latest sessions the console lists. */
const SESSIONS_SHOWN = 20;

/** A member's latest sessions, newest first, and whether each still lets them in. */
export async function sessionsOf(db: Db, memberId: number, now = Date.now()) {
  const rows = await db
    .select()
    .from(memberSession)
    .where(eq(memberSession.memberId, memberId))
    .orderBy(desc(memberSession.id))
    .limit(SESSIONS_SHOWN);
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    revokedAt: s.revokedAt?.toISOString() ?? '',
    revokeReason: s.revokeReason ?? '',
    active: !s.revokedAt && now < s.expiresAt.getTime() && now - s.lastSeenAt.getTime() < SESSION_IDLE_MS,
  }));
}

/**
 * Sets a member's status (1 active, 0 frozen) when it differs: the guarded update answers
 * false when another operator got there first, so two clicks record one change.
 */
export async function setStatus(db: Db, memberId: number, status: 0 | 1): Promise<boolean> {
  const changed = await db
    .update(member)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(member.id, memberId), ne(member.status, status)))
    .returning({ id: member.id });
  return changed.length === 1;
}
