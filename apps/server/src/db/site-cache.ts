import { sql } from 'drizzle-orm';
import { ttlCache } from '../lib/ttl-cache';
import type { Database, Db } from './client';

/**
 * What is read on every page of a site and changes rarely (its configuration, its labels and
 * categories) is kept in memory per site. Any process that changes it announces the site on a
 * NOTIFY channel and every process drops its copy; the TTL bounds staleness while the listening
 * connection is down, and when it is back everything is dropped (what changed meanwhile is
 * unknown).
 */
export interface SiteCache<V> {
  get(siteId: number): Promise<V>;
  /**
   * The value when it is loaded and kept: what a hot path reads without waiting for a promise
   * (a request's site, resolved in the context hooks). Undefined when `get` must load it.
   */
  peek(siteId: number): { value: V } | undefined;
  invalidate(siteId: number): void;
  /**
   * Calls `listener` whenever kept values are dropped (a site announced, or everything after the
   * listening connection was lost): what is derived from them (plugins/response-cache.ts) goes too.
   */
  onDrop(listener: () => void): void;
  close(): Promise<void>;
}

/** A site's load, and its value once it has come and is kept. */
interface Entry<V> {
  promise: Promise<V>;
  loaded?: { value: V };
}

const CACHE_TTL_MS = 60_000;
/** Far above the number of sites: a bound, not a tuning knob. */
const CACHE_MAX_SITES = 10_000;

/**
 * A per-site cache of `load`, dropped per site on `channel`. A load that fails, or whose value
 * `keep` refuses (an unknown site), is not remembered: the cache must not grow with whatever ids
 * clients try, and the next read tries again.
 */
export async function notifiedSiteCache<V>(
  database: Database,
  channel: string,
  load: (siteId: number) => Promise<V>,
  keep: (value: V) => boolean = () => true,
): Promise<SiteCache<V>> {
  const entries = ttlCache<number, Entry<V>>({ ttlMs: CACHE_TTL_MS, max: CACHE_MAX_SITES });
  const dropListeners: (() => void)[] = [];
  const dropped = () => {
    for (const listener of dropListeners) listener();
  };
  const invalidate = (siteId: number) => {
    entries.delete(siteId);
    dropped();
  };
  // Only this load's own entry leaves: a NOTIFY may already have replaced it with a newer load.
  // Nothing was derived from a load that failed or was refused, so no listener hears of it (an
  // unknown id asked again and again must not empty what is derived from the others).
  const forget = (siteId: number, entry: Entry<V>) => entries.get(siteId) === entry && entries.delete(siteId);
  const stopListening = await database.listen(
    channel,
    (payload) => invalidate(Number(payload)),
    () => {
      entries.clear();
      dropped();
    },
  );
  return {
    get(siteId) {
      const cached = entries.get(siteId);
      if (cached) return cached.promise;
      const entry: Entry<V> = { promise: load(siteId) };
      entries.set(siteId, entry);
      entry.promise.then(
        (value) => {
          if (keep(value)) entry.loaded = { value };
          else forget(siteId, entry);
        },
        () => forget(siteId, entry),
      );
      return entry.promise;
    },
    peek: (siteId) => entries.get(siteId)?.loaded,
    invalidate,
    onDrop: (listener) => {
      dropListeners.push(listener);
    },
    close: stopListening,
  };
}

/** Announces a change of a site's cached data on `channel` to every server process. */
export async function notifySiteChange(db: Db, channel: string, siteId: number): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${String(siteId)})`);
}
