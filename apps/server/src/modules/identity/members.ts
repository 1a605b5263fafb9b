import type { LoginResult, LoginUser, MemberInfo } from '@sitemall/contract';
import { IDENTITY_MSG } from '@sitemall/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import type { IdentityCtx } from './deps';
import { externalIdentity, member } from './identity.tables';
import { hashPassword } from './passwords';

export type MemberRow = typeof member.$inferSelect;

export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

export async function memberByPhone(db: Db, siteId: number, phone: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(member)
    .where(and(eq(member.siteId, siteId), eq(member.phone, phone)));
  return row;
}

export async function memberByUsername(
  db: Db,
  siteId: number,
  username: string,
): Promise<MemberRow | undefined> {
  const [row] = await db
    .select()
    .from(member)
    .where(and(eq(member.siteId, siteId), eq(member.username, username)));
  return row;
}

const byIdStatements = new WeakMap<Db, ReturnType<typeof prepareById>>();
const prepareById = (db: Db) =>
  db
    .select()
    .from(member)
    .where(and(eq(member.siteId, sql.placeholder('siteId')), eq(member.id, sql.placeholder('id'))))
    .prepare('identity_member_by_id');

/** Read on every personal-center call, so the statement is prepared once per database. */
export async function memberById(
  ctx: RequestContext,
  siteId: number,
  id: number,
): Promise<MemberRow | undefined> {
  const { db } = ctx;
  let statement = byIdStatements.get(db);
  if (!statement) {
    statement = prepareById(db);
    byIdStatements.set(db, statement);
  }
  const [row] = await statement.execute({ siteId, id });
  return row;
}

/** Who a list shows: the phone and username of each of its members, by id. */
export type MemberNames = (siteId: number, id: number) => Pick<MemberRow, 'phone' | 'username'> | undefined;

/**
 * The members a list names (a bargain's helpers, a benefit's receivers, the console's records),
 * read in one statement rather than one per row. A member is found only on its own site.
 */
export async function memberNames(
  ctx: RequestContext,
  refs: readonly { siteId: number; memberId: number }[],
): Promise<MemberNames> {
  const ids = [...new Set(refs.map((r) => r.memberId))];
  const rows =
    ids.length === 0
      ? []
      : await ctx.db
          .select({ id: member.id, siteId: member.siteId, phone: member.phone, username: member.username })
          .from(member)
          .where(inArray(member.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (siteId, id) => {
    const row = byId.get(id);
    return row?.siteId === siteId ? row : undefined;
  };
}

/**
 * Creates a member; when a concurrent request created the same phone first, answers that one
 * (the unique key decides, not a read before the write).
 */
export async function createMember(
  db: Db,
  input: { siteId: number; phone?: string | null; username?: string | null; passwordHash?: string | null },
): Promise<{ row: MemberRow; created: boolean }> {
  const [row] = await db.insert(member).values(input).onConflictDoNothing().returning();
  if (row) return { row, created: true };
  const existing = input.phone ? await memberByPhone(db, input.siteId, input.phone) : undefined;
  if (!existing) throw failure(IDENTITY_MSG.usernameTaken);
  return { row: existing, created: false };
}

/** The member a partner's user maps to on this site, by (site, partner, external id). */
export async function memberByExternalId(
  db: Db,
  input: { siteId: number; partner: string; externalId: string },
): Promise<MemberRow | undefined> {
  const [row] = await db
    .select({ member })
    .from(externalIdentity)
    .innerJoin(member, eq(member.id, externalIdentity.memberId))
    .where(
      and(
        eq(externalIdentity.siteId, input.siteId),
        eq(externalIdentity.partner, input.partner),
        eq(externalIdentity.externalId, input.externalId),
      ),
    );
  return row?.member;
}

export async function linkExternalId(
  db: Db,
  input: { siteId: number; partner: string; externalId: string; memberId: number },
): Promise<void> {
  await db.insert(externalIdentity).values(input).onConflictDoNothing();
}

export const loginUser = (row: Pick<MemberRow, 'id' | 'phone' | 'username'>): LoginUser => ({
  id: row.id,
  phone: row.phone,
  username: row.username,
});

export const memberInfo = (row: MemberRow): MemberInfo => ({
  id: row.id,
  siteId: row.siteId,
  phone: row.phone,
  username: row.username,
  hasPassword: row.passwordHash !== null,
  createdAt: row.createdAt.toISOString(),
});

/** Opens a session for a member (a new token at every login). */
export async function startSession(ctx: IdentityCtx, row: MemberRow): Promise<LoginResult> {
  if (row.status !== 1) throw failure(IDENTITY_MSG.memberDisabled);
  const token = await ctx.deps.sessions.issue(ctx.db, { siteId: row.siteId, memberId: row.id });
  return { token, user: loginUser(row) };
}

// argon2 is slow on purpose; the seed runs before every test file, so hashes are reused.
const seedHashes = new Map<string, Promise<string>>();

/** Seeds a member with a password (demo seed and tests). */
export async function seedMember(
  db: Db,
  input: { siteId: number; phone?: string | null; username?: string | null; password?: string },
): Promise<MemberRow> {
  let passwordHash: string | null = null;
  if (input.password) {
    const cached = seedHashes.get(input.password) ?? hashPassword(input.password);
    seedHashes.set(input.password, cached);
    passwordHash = await cached;
  }
  const [row] = await db
    .insert(member)
    .values({
      siteId: input.siteId,
      phone: input.phone ?? null,
      username: input.username ?? null,
      passwordHash,
    })
    .returning();
  if (!row) throw new Error('member not created');
  return row;
}
