import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/harness';
import { dbLimiter, type Limiter, memoryLimiter, redisLimiter } from './limits';

function behaves(name: string, make: () => Limiter, now?: { advance(ms: number): void }) {
  describe(name, () => {
    it('allows up to the limit in a window, then refuses with the seconds left', async () => {
      const limiter = make();
      const key = `k${Math.random()}`;
      for (let i = 0; i < 3; i += 1) expect((await limiter.hit(key, 3, 60)).allowed).toBe(true);
      const fourth = await limiter.hit(key, 3, 60);
      expect(fourth.allowed).toBe(false);
      expect(fourth.count).toBe(4);
      expect(fourth.retryAfter).toBeGreaterThan(0);
      expect(fourth.retryAfter).toBeLessThanOrEqual(60);
      expect((await limiter.peek(key)).count).toBe(4);
      await limiter.reset(key);
      expect((await limiter.peek(key)).count).toBe(0);
      if (now) {
        await limiter.hit(key, 1, 60);
        now.advance(61_000);
        expect((await limiter.hit(key, 1, 60)).allowed).toBe(true);
      }
    });
  });
}

let clock = 1_000_000;
behaves('memory limiter', () => memoryLimiter(() => clock), {
  advance: (ms) => {
    clock += ms;
  },
});

// The database (no Redis): counts survive a restart and are shared by every process on it.
const database = await testDatabase();
behaves('database limiter', () => dbLimiter(database.db));
describe('database limiter across processes', () => {
  it('shares counts between two limiters on one database', async () => {
    const key = `k${Math.random()}`;
    await dbLimiter(database.db).hit(key, 1, 60);
    expect((await dbLimiter(database.db).hit(key, 1, 60)).allowed).toBe(false);
  });
});

// Redis: run with TEST_REDIS_URL=redis://127.0.0.1:6379 (CI without Redis skips it).
const redisUrl = process.env.TEST_REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : undefined;
afterAll(async () => {
  await redis?.quit();
});
describe.skipIf(!redis)('with Redis', () => {
  behaves('redis limiter', () => redisLimiter(redis as Redis, `sitemall:test:${process.pid}:`));
  it('shares counts between two server processes', async () => {
    const a = redisLimiter(redis as Redis, 'sitemall:test:shared:');
    const b = redisLimiter(redis as Redis, 'sitemall:test:shared:');
    const key = `k${Math.random()}`;
    await a.hit(key, 1, 60);
    expect((await b.hit(key, 1, 60)).allowed).toBe(false);
  });
});
