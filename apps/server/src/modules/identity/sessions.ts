import { randomBytes } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Member, TokenCheck, TokenResolver } from '../../context';
import type { Database, Db } from '../../db/client';
import { ttlCache } from '../../lib/ttl-cache';
import { sha256 } from './crypto';
import { member, memberSession } from './identity.tables';

/** A session ends after this long without a request ... */
export const SESSION_IDLE_MS = 2 * 60 * 60_000;
/** ... and at the latest this long after login. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60_000;
/** last_seen_at is written at most this often per session (not on every request). */
const TOUCH_EVERY_MS = 60_000;
/** A cached session is re-read after this long even without a revocation notice. */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 50_000;
export const SESSION_REVOKED_CHANNEL = 'sitemall_session_revoked';

/** 256 random bits, base64url: 43 characters. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const newToken = () => randomBytes(32).toString('base64url');
export const tokenHashOf = (token: string) => sha256(token);

/** disabled: the member was frozen; operator: the console ended the sessions. */
export type RevokeReason = 'logout' | 'superseded' | 'password' | 'disabled' | 'operator';

interface Cached {
  sessionId: number;
  member: Member;
  expiresAt: number;
  lastSeenAt: number;
}

const lookup = (db: Db) =>
  db
    .select({
      sessionId: memberSession.id,
      siteId: memberSession.siteId,
      expiresAt: memberSession.expiresAt,
      lastSeenAt: memberSession.lastSeenAt,
      revokedAt: memberSession.revokedAt,
      memberId: member.id,
      phone: member.phone,
      username: member.username,
      status: member.status,
    })
    .from(memberSession)
    .innerJoin(member, eq(member.id, memberSession.memberId))
    .where(eq(memberSession.tokenHash, sql.placeholder('hash')))
    .prepare('identity_session_by_hash');

/**
 * Sessions: opaque tokens whose SHA-256 alone is stored. Token lookup runs on every
 * authenticated request, so valid sessions are kept in a small in-memory cache; every
 * revocation is announced with NOTIFY and every process drops its copy (as the site cache does).
 */
export interface SessionStore {
  resolve: TokenResolver;
  /** A new session for a login; the member's other sessions are superseded (spec: 416). */
  issue(db: Db, input: { siteId: number; memberId: number }): Promise<string>;
  revokeToken(db: Db, token: string, reason: RevokeReason): Promise<void>;
  revokeMember(db: Db, memberId: number, reason: RevokeReason, keepToken?: string): Promise<void>;
  /** The member's phone or username changed: cached copies must be re-read. */
  memberChanged(db: Db, memberId: number): Promise<void>;
  start(database: Database): Promise<void>;
  stop(): Promise<void>;
}

export function createSessionStore(): SessionStore {
  const cache = ttlCache<string, Cached>({ ttlMs: CACHE_TTL_MS, max: CACHE_MAX });
  let prepared: ReturnType<typeof lookup> | undefined;
  let stopListening: (() => Promise<void>) | undefined;

  const forget = (payload: string) => {
    if (payload.startsWith('t:')) cache.delete(payload.slice(2));
    else if (payload.startsWith('m:')) {
      const memberId = Number(payload.slice(2));
      const hashes = [...cache.entries()]
        .filter(([, entry]) => entry.member.id === memberId)
        .map(([hash]) => hash);
      for (const hash of hashes) cache.delete(hash);
    }
  };
  const announce = async (db: Db, payload: string) => {
    forget(payload);
    await db.execute(sql`select pg_notify(${SESSION_REVOKED_CHANNEL}, ${payload})`);
  };
  const verdict = (entry: Cached, siteId: number | undefined, now: number): TokenCheck => {
    if (now >= entry.expiresAt || now - entry.lastSeenAt >= SESSION_IDLE_MS) return { status: 'invalid' };
    if (siteId !== undefined && siteId !== entry.member.siteId) return { status: 'invalid' };
    return { status: 'ok', member: entry.member };
  };
  const touch = async (db: Db, entry: Cached, now: number) => {
    if (now - entry.lastSeenAt < TOUCH_EVERY_MS) return;
    entry.lastSeenAt = now;
    await db
      .update(memberSession)
      .set({ lastSeenAt: new Date(now) })
      .where(and(eq(memberSession.id, entry.sessionId), isNull(memberSession.revokedAt)));
  };

  async function load(db: Db, hash: string): Promise<Cached | 'unknown' | 'invalid'> {
    prepared ??= lookup(db);
    const [row] = await prepared.execute({ hash });
    if (!row) return 'unknown';
    if (row.revokedAt || row.status !== 1) return 'invalid';
    return {
      sessionId: row.sessionId,
      member: { id: row.memberId, siteId: row.siteId, phone: row.phone, username: row.username },
      expiresAt: row.expiresAt.getTime(),
      lastSeenAt: row.lastSeenAt.getTime(),
    };
  }

  return {
    async resolve(db, token, siteId) {
      if (!TOKEN.test(token)) return { status: 'unknown' };
      const hash = tokenHashOf(token);
      const now = Date.now();
      const cached = cache.get(hash);
      if (cached) {
        const check = verdict(cached, siteId, now);
        // An idle verdict from the cache is re-checked: another process may have seen the session.
        if (check.status === 'ok' || now - cached.lastSeenAt < SESSION_IDLE_MS) {
          if (check.status === 'ok') await touch(db, cached, now);
          return check;
        }
      }
      const loaded = await load(db, hash);
      if (loaded === 'unknown' || loaded === 'invalid') {
        cache.delete(hash);
        return { status: loaded };
      }
      const check = verdict(loaded, siteId, now);
      if (check.status === 'ok') {
        cache.set(hash, loaded);
        await touch(db, loaded, now);
      }
      return check;
    },

    async issue(db, { siteId, memberId }) {
      const token = newToken();
      const now = Date.now();
      await db.transaction(async (tx) => {
        await tx
          .update(memberSession)
          .set({ revokedAt: new Date(now), revokeReason: 'superseded' })
          .where(and(eq(memberSession.memberId, memberId), isNull(memberSession.revokedAt)));
        await tx.insert(memberSession).values({
          tokenHash: tokenHashOf(token),
          siteId,
          memberId,
          createdAt: new Date(now),
          lastSeenAt: new Date(now),
          expiresAt: new Date(now + SESSION_ABSOLUTE_MS),
        });
      });
      await announce(db, `m:${memberId}`);
      return token;
    },

    async revokeToken(db, token, reason) {
      const hash = tokenHashOf(token);
      await db
        .update(memberSession)
        .set({ revokedAt: new Date(), revokeReason: reason })
        .where(and(eq(memberSession.tokenHash, hash), isNull(memberSession.revokedAt)));
      await announce(db, `t:${hash}`);
    },

    async revokeMember(db, memberId, reason, keepToken) {
      const conditions = [eq(memberSession.memberId, memberId), isNull(memberSession.revokedAt)];
      if (keepToken) conditions.push(ne(memberSession.tokenHash, tokenHashOf(keepToken)));
      await db
        .update(memberSession)
        .set({ revokedAt: new Date(), revokeReason: reason })
        .where(and(...conditions));
      await announce(db, `m:${memberId}`);
    },

    async memberChanged(db, memberId) {
      await announce(db, `m:${memberId}`);
    },

    async start(database) {
      // A revocation announced while the listening connection was down was missed: re-read all.
      stopListening = await database.listen(SESSION_REVOKED_CHANNEL, forget, () => cache.clear());
    },
    async stop() {
      // The database may already be closed (its own onClose hook may run first); closing it
      // ends the listener too, so a failing unlisten is no fault.
      await stopListening?.().catch(() => {});
      stopListening = undefined;
      cache.clear();
    },
  };
}
