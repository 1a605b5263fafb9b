import { lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client';
import { rateWindow } from './identity.tables';

/**
 * Fixed-window counters for rate limits and failure backoff. Shared through Redis when the
 * deployment has one; in the database otherwise (`dbLimiter`), so counts survive a restart
 * and hold across processes. The memory limiter is for unit tests of code that counts.
 */
export interface Limiter {
  /** Counts one event; `allowed` is false once the window holds more than `limit`. */
  hit(
    key: string,
    limit: number,
    windowSeconds: number,
  ): Promise<{ allowed: boolean; retryAfter: number; count: number }>;
  /** Events counted in the current window, and seconds until it ends. */
  peek(key: string): Promise<{ count: number; retryAfter: number }>;
  reset(key: string): Promise<void>;
}

const MAX_MEMORY_KEYS = 100_000;

export function memoryLimiter(now: () => number = () => Date.now()): Limiter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const live = (key: string) => {
    const w = windows.get(key);
    if (w && w.endsAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  const sweep = () => {
    const t = now();
    for (const [key, w] of windows) if (w.endsAt <= t) windows.delete(key);
    // Still full: drop the oldest windows rather than grow without bound under attack.
    for (const key of windows.keys()) {
      if (windows.size < MAX_MEMORY_KEYS) break;
      windows.delete(key);
    }
  };
  return {
    async hit(key, limit, windowSeconds) {
      let w = live(key);
      if (!w) {
        if (windows.size >= MAX_MEMORY_KEYS) sweep();
        w = { count: 0, endsAt: now() + windowSeconds * 1000 };
        windows.set(key, w);
      }
      w.count += 1;
      return {
        allowed: w.count <= limit,
        retryAfter: Math.ceil((w.endsAt - now()) / 1000),
        count: w.count,
      };
    },
    async peek(key) {
      const w = live(key);
      return { count: w?.count ?? 0, retryAfter: w ? Math.ceil((w.endsAt - now()) / 1000) : 0 };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

export function redisLimiter(redis: Redis, prefix = 'sitemall:limit:'): Limiter {
  return {
    async hit(key, limit, windowSeconds) {
      const k = prefix + key;
      const result = await redis.multi().incr(k).expire(k, windowSeconds, 'NX').pttl(k).exec();
      const count = Number(result?.[0]?.[1] ?? 0);
      const pttl = Number(result?.[2]?.[1] ?? windowSeconds * 1000);
      return { allowed: count <= limit, retryAfter: Math.ceil(Math.max(pttl, 0) / 1000), count };
    },
    async peek(key) {
      const k = prefix + key;
      const [count, pttl] = await Promise.all([redis.get(k), redis.pttl(k)]);
      return { count: Number(count ?? 0), retryAfter: Math.ceil(Math.max(pttl, 0) / 1000) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

/** Expired windows are deleted every this many hits (one cheap indexed delete). */
const PRUNE_EVERY = 500;

/**
 * Counters in the `rate_window` table: one upsert per event that starts a new window when the
 * old one has ended. Without Redis this is what keeps limits across restarts and processes.
 */
export function dbLimiter(db: Db): Limiter {
  let hits = 0;
  const retryAfter = sql<number>`greatest(ceil(extract(epoch from (${rateWindow.endsAt} - now()))), 0)::int`;
  return {
    async hit(key, limit, windowSeconds) {
      hits += 1;
      if (hits % PRUNE_EVERY === 0) await db.delete(rateWindow).where(lt(rateWindow.endsAt, sql`now()`));
      const ended = sql`${rateWindow.endsAt} <= now()`;
      const [row] = await db
        .insert(rateWindow)
        .values({ key, count: 1, endsAt: sql`now() + make_interval(secs => ${windowSeconds})` })
        .onConflictDoUpdate({
          target: rateWindow.key,
          set: {
            count: sql`case when ${ended} then 1 else ${rateWindow.count} + 1 end`,
            endsAt: sql`case when ${ended} then excluded.ends_at else ${rateWindow.endsAt} end`,
          },
        })
        .returning({ count: rateWindow.count, retryAfter });
      const count = row?.count ?? 1;
      return { allowed: count <= limit, retryAfter: row?.retryAfter ?? windowSeconds, count };
    },
    async peek(key) {
      const [row] = await db
        .select({ count: rateWindow.count, retryAfter })
        .from(rateWindow)
        .where(sql`${rateWindow.key} = ${key} and ${rateWindow.endsAt} > now()`);
      return { count: row?.count ?? 0, retryAfter: row?.retryAfter ?? 0 };
    },
    async reset(key) {
      await db.delete(rateWindow).where(sql`${rateWindow.key} = ${key}`);
    },
  };
}
