import { LRUCache } from 'lru-cache';

/**
 * The one in-memory cache for what is read on every request and changes rarely (sites,
 * catalogs, sessions, merchants): at most `max` entries, the least recently used leaving first,
 * each kept `ttlMs` after it was set (a read does not extend it). Expiry reads the wall clock
 * (Date.now) on every check, as the expiry timestamps stored beside the cached values do, so
 * one clock rules both and fake Date timers move both.
 */
export function ttlCache<K extends {}, V extends {}>(options: {
  ttlMs: number;
  max: number;
}): LRUCache<K, V> {
  // Date looked up at each read, not kept: a cache made before a test fakes the clock follows it.
  const clock = { now: () => Date.now() };
  return new LRUCache<K, V>({ max: options.max, ttl: options.ttlMs, ttlResolution: 0, perf: clock });
}
