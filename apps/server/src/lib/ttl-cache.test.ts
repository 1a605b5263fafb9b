import { afterEach, describe, expect, it, vi } from 'vitest';
import { ttlCache } from './ttl-cache';

describe('ttlCache', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps an entry for its TTL from when it was set; reads do not extend it', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = ttlCache<number, string>({ ttlMs: 60_000, max: 10 });
    cache.set(1, 'a');
    vi.setSystemTime(Date.now() + 59_999);
    expect(cache.get(1)).toBe('a');
    vi.setSystemTime(Date.now() + 2);
    expect(cache.get(1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('follows a clock faked after it was made', () => {
    const cache = ttlCache<number, string>({ ttlMs: 1_000, max: 10 });
    vi.useFakeTimers({ toFake: ['Date'] });
    cache.set(1, 'a');
    vi.setSystemTime(Date.now() + 1_001);
    expect(cache.get(1)).toBeUndefined();
  });

  it('holds at most max entries, dropping the least recently used', () => {
    const cache = ttlCache<string, number>({ ttlMs: 60_000, max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // 'b' is now the least recently used
    cache.set('c', 3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
  });

  it('forgets on delete and clear', () => {
    const cache = ttlCache<number, number>({ ttlMs: 60_000, max: 10 });
    cache.set(1, 1);
    cache.set(2, 2);
    cache.delete(1);
    expect(cache.get(1)).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
