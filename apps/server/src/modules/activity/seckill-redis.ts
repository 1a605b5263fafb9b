import { CODE, SECKILL_MSG } from '@sitemall/contract';
import { and, eq, gt } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { seckillPurchase, seckillSku } from './activity.tables';
import { type SeckillSale, seckillLine } from './seckill';
import { clearSoldOut, markSoldOut, refuseIfSoldOut, SOLD_OUT } from './seckill-gate';
import { timingOf, type Window } from './timing';

/**
 * The Redis admission gate of a flash sale (issue 14, with REDIS_URL). In a rush nearly every
 * request is refused; Redis refuses them with one Lua script (window, the member's count before
 * anything is taken, stock) so they cost no database work, and only as many buyers as there are
 * pieces go on to the order's transaction, which stays the truth (capped upsert, guarded
 * decrement). What Redis took for a transaction that then failed is given back by a
 * compensating script; a reconcile job during the event sets Redis from the database again
 * (stock given back by cancels and expiries, a process that died between the two).
 *
 * Keys, per activity (the hash tag keeps them in one slot of a cluster):
 * - `sitemall:seckill:{a}` hash: `start`, `end` (ms, the window loaded), `limit` (per member),
 *   `s:<specificationId>` pieces left, `m:<memberId>` pieces the member holds;
 * - `sitemall:seckill:{a}:pending` hash: ticket (order number) → `spec:member:num:admittedAt`
 *   for admissions whose transaction has not ended yet.
 * Both expire a while after the window loaded, so the next session loads from the database.
 */

const PREFIX = 'sitemall:seckill:';
const stateKey = (activityId: number) => `${PREFIX}{${activityId}}`;
const pendingKey = (activityId: number) => `${PREFIX}{${activityId}}:pending`;
/** The Redis keys of an activity (tests read and clear them). */
export const seckillKeys = (activityId: number) => ({
  state: stateKey(activityId),
  pending: pendingKey(activityId),
});
/** Kept after the window's end, so late clicks are still refused by Redis. */
const GRACE_MS = 60_000;
/** A pending admission older than this belongs to a process that died: the database decides. */
export const STALE_PENDING_MS = 60_000;

/** How often a process sets the sales it loaded from the database again during the event. */
export const SECKILL_RECONCILE_MS = 5_000;

/** Lua: refuses outside the window, above the member's limit, or beyond the stock; else takes. */
const ADMIT = `
local v = redis.call('HMGET', KEYS[1], 'start', 'end', 'limit', 's:' .. ARGV[1], 'm:' .. ARGV[2])
if not v[1] or not v[4] then return {0, 0} end
local num = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if now < tonumber(v[1]) then return {-1, tonumber(v[1]), tonumber(v[2])} end
if now >= tonumber(v[2]) then return {0, 0} end
if (tonumber(v[5]) or 0) + num > tonumber(v[3]) then return {-2, tonumber(v[3])} end
local left = tonumber(v[4])
if left < num then return {-3, left} end
left = redis.call('HINCRBY', KEYS[1], 's:' .. ARGV[1], -num)
redis.call('HINCRBY', KEYS[1], 'm:' .. ARGV[2], num)
redis.call('HSET', KEYS[2], ARGV[5], ARGV[1] .. ':' .. ARGV[2] .. ':' .. num .. ':' .. ARGV[4])
return {1, left}
`;

/** Lua: gives back what a ticket took, once (the pending entry is the proof it was not yet). */
const COMPENSATE = `
local p = redis.call('HGET', KEYS[2], ARGV[1])
if not p then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
local spec, member, num = string.match(p, '^(%d+):(%d+):(%d+):')
if redis.call('HEXISTS', KEYS[1], 's:' .. spec) == 1 then
  redis.call('HINCRBY', KEYS[1], 's:' .. spec, tonumber(num))
  if redis.call('HINCRBY', KEYS[1], 'm:' .. member, -tonumber(num)) <= 0 then
    redis.call('HDEL', KEYS[1], 'm:' .. member)
  end
end
return 1
`;

/**
 * Lua: the database's figures minus what pending admissions took, for the activity's loaded
 * specifications and every member. ARGV: now, stale ms, window start, end, limit, expire-at,
 * load ('1' also creates missing fields, '0' only corrects a loaded state), n specs, then
 * spec/stock pairs, then member/qty pairs.
 */
const RECONCILE = `
local now, stale = tonumber(ARGV[1]), tonumber(ARGV[2])
local load = ARGV[6] == '1'
if not load and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local specTaken, memberTaken = {}, {}
local pending = redis.call('HGETALL', KEYS[2])
for i = 1, #pending, 2 do
  local spec, member, num, at = string.match(pending[i + 1], '^(%d+):(%d+):(%d+):(%d+)$')
  if now - tonumber(at) > stale then
    redis.call('HDEL', KEYS[2], pending[i])
  else
    specTaken[spec] = (specTaken[spec] or 0) + tonumber(num)
    memberTaken[member] = (memberTaken[member] or 0) + tonumber(num)
  end
end
redis.call('HSET', KEYS[1], 'start', ARGV[3], 'end', ARGV[4], 'limit', ARGV[5])
local n = tonumber(ARGV[8])
local i = 9
for _ = 1, n do
  local spec, stock = ARGV[i], tonumber(ARGV[i + 1])
  if load or redis.call('HEXISTS', KEYS[1], 's:' .. spec) == 1 then
    redis.call('HSET', KEYS[1], 's:' .. spec, math.max(stock - (specTaken[spec] or 0), 0))
  end
  i = i + 2
end
local fields = redis.call('HKEYS', KEYS[1])
for _, f in ipairs(fields) do
  if string.sub(f, 1, 2) == 'm:' then redis.call('HDEL', KEYS[1], f) end
end
while i <= #ARGV do
  local member = ARGV[i]
  memberTaken[member] = (memberTaken[member] or 0) + tonumber(ARGV[i + 1])
  i = i + 2
end
for member, qty in pairs(memberTaken) do
  if qty > 0 then redis.call('HSET', KEYS[1], 'm:' .. member, qty) end
end
redis.call('PEXPIREAT', KEYS[1], ARGV[7])
redis.call('PEXPIREAT', KEYS[2], ARGV[7])
return 1
`;

type Scripted = Redis & {
  seckillAdmit(
    state: string,
    pending: string,
    ...args: (string | number)[]
  ): Promise<[number, number, number?]>;
  seckillCompensate(state: string, pending: string, ticket: string): Promise<number>;
  seckillReconcile(state: string, pending: string, ...args: (string | number)[]): Promise<number>;
};

/** What a request asks of a sale before the database is asked anything. */
export interface SeckillAsk {
  activityId: number;
  specificationId: number;
  memberId: number;
  num: number;
}

/** The sale as the database knows it: what loading Redis needs. */
export interface SeckillWindow {
  activityId: number;
  memberLimit: number;
  window: Window;
}

export type Admission =
  /** Redis took the pieces: `settle` once committed, `compensate` if not. */
  | { status: 'admitted'; ticket: string }
  /** Redis has no state of this sale (not loaded, or its window ended): ask the database. */
  | { status: 'unknown' };

export interface RedisSeckillGate {
  admit(ask: SeckillAsk, ticket: string): Promise<Admission>;
  /** Loads the sale's state from the database when Redis has none (or another window). */
  load(db: Db, sale: SeckillWindow): Promise<void>;
  /**
   * Loads an activity once per process however many requests find it unloaded at once (the
   * rush's first second): the others wait for that one instead of all asking the database.
   * A failed load is not theirs to answer: they ask the database themselves afterwards.
   */
  loadOnce(db: Db, activityId: number, offer: () => Promise<SeckillWindow>): Promise<void>;
  settle(activityId: number, ticket: string): Promise<void>;
  compensate(activityId: number, ticket: string): Promise<void>;
  /** Sets every loaded sale from the database again (the job during the event). */
  reconcile(db: Db): Promise<number>;
}

/** The gate over one Redis connection; `clock` is for tests. */
export function redisSeckillGate(redis: Redis, clock: () => number = Date.now): RedisSeckillGate {
  const r = redis as Scripted;
  r.defineCommand('seckillAdmit', { numberOfKeys: 2, lua: ADMIT });
  r.defineCommand('seckillCompensate', { numberOfKeys: 2, lua: COMPENSATE });
  r.defineCommand('seckillReconcile', { numberOfKeys: 2, lua: RECONCILE });
  // Activities this process loaded, with their window: what its reconcile job walks.
  const loaded = new Map<number, SeckillWindow>();
  const loads = new Map<number, Promise<void>>();

  async function write(db: Db, sale: SeckillWindow, load: boolean) {
    const [skus, purchases] = await Promise.all([
      db
        .select({ specificationId: seckillSku.specificationId, stock: seckillSku.stock })
        .from(seckillSku)
        .where(eq(seckillSku.activityId, sale.activityId)),
      db
        .select({ memberId: seckillPurchase.memberId, qty: seckillPurchase.qty })
        .from(seckillPurchase)
        .where(and(eq(seckillPurchase.activityId, sale.activityId), gt(seckillPurchase.qty, 0))),
    ]);
    const now = clock();
    const done = await r.seckillReconcile(
      stateKey(sale.activityId),
      pendingKey(sale.activityId),
      now,
      STALE_PENDING_MS,
      sale.window.start.getTime(),
      sale.window.end.getTime(),
      sale.memberLimit,
      load ? '1' : '0',
      sale.window.end.getTime() + GRACE_MS,
      skus.length,
      ...skus.flatMap((s) => [s.specificationId, s.stock]),
      ...purchases.flatMap((p) => [p.memberId, p.qty]),
    );
    // Stock came back (a cancel, an expiry): this process asks again instead of refusing.
    for (const s of skus) if (s.stock > 0) clearSoldOut({ activityId: sale.activityId, ...s });
    return done === 1;
  }

  return {
    async admit(ask, ticket) {
      refuseIfSoldOut(ask);
      const now = clock();
      const [status, value, end] = await r.seckillAdmit(
        stateKey(ask.activityId),
        pendingKey(ask.activityId),
        ask.specificationId,
        ask.memberId,
        ask.num,
        now,
        ticket,
      );
      // The last piece is not flagged sold out here: this very request still has to pass the
      // in-process gate. The next request's refusal sets the flag.
      if (status === 1) return { status: 'admitted', ticket };
      if (status === 0) return { status: 'unknown' };
      if (status === -1) {
        const window = { start: new Date(value), end: new Date(end ?? value) };
        throw new AppError(CODE.failure, SECKILL_MSG.notStarted, { timing: timingOf(window, new Date(now)) });
      }
      if (status === -2) throw failure(SECKILL_MSG.perMember(value));
      markSoldOut(ask);
      throw SOLD_OUT;
    },
    async load(db, sale) {
      loaded.set(sale.activityId, sale);
      await write(db, sale, true);
    },
    async loadOnce(db, activityId, offer) {
      let loading = loads.get(activityId);
      if (!loading) {
        loading = offer()
          .then((sale) => this.load(db, sale))
          .finally(() => loads.delete(activityId));
        loads.set(activityId, loading);
      }
      await loading.catch(() => undefined);
    },
    async settle(activityId, ticket) {
      await r.hdel(pendingKey(activityId), ticket);
    },
    async compensate(activityId, ticket) {
      await r.seckillCompensate(stateKey(activityId), pendingKey(activityId), ticket);
    },
    async reconcile(db) {
      const now = clock();
      let n = 0;
      for (const [activityId, sale] of loaded) {
        if (sale.window.end.getTime() + GRACE_MS < now) {
          loaded.delete(activityId);
          continue;
        }
        if (await write(db, sale, false)) n += 1;
      }
      return n;
    },
  };
}

/** One submission's way through the admission checks in front of the order's transaction. */
export interface SeckillPass {
  /** Whether Redis took the pieces for this request. */
  readonly admitted: boolean;
  /** With the sale checked by the database: admits now if Redis could not decide before. */
  confirm(sale: SeckillSale): Promise<void>;
  /** After the order's transaction: keeps what Redis took, or gives it back. */
  close(committed: boolean): Promise<void>;
}

/**
 * Before any database work: a sale this process saw sold out is refused at once; with Redis
 * and a known activity the Lua script admits or refuses. `ticket` is the order number.
 */
export async function openSeckillPass(
  gate: RedisSeckillGate | undefined,
  ask: { activityId?: number; memberId: number; lines: readonly { specificationId: number; num: number }[] },
  ticket: string,
  source: { db: Db; offer: () => Promise<SeckillSale> },
): Promise<SeckillPass> {
  const line = seckillLine(ask.lines);
  const known =
    ask.activityId === undefined
      ? undefined
      : { ...line, activityId: ask.activityId, memberId: ask.memberId };
  if (known) refuseIfSoldOut(known);
  let admission: Admission = { status: 'unknown' };
  let activityId = ask.activityId;
  if (gate && known) {
    admission = await gate.admit(known, ticket);
    if (admission.status === 'unknown') {
      await gate.loadOnce(source.db, known.activityId, source.offer);
      admission = await gate.admit(known, ticket);
    }
  }
  return {
    get admitted() {
      return admission.status === 'admitted';
    },
    async confirm(sale) {
      // Without the activity in the request, Redis is asked once the database named the sale.
      if (!gate || admission.status === 'admitted') return;
      activityId = sale.activityId;
      admission = await gate.admit(sale, ticket);
      if (admission.status === 'unknown') {
        await gate.load(source.db, sale);
        // Still unknown only at a window's edge: the database alone decides then.
        admission = await gate.admit(sale, ticket);
      }
    },
    async close(committed) {
      if (!gate || admission.status !== 'admitted' || activityId === undefined) return;
      // A Redis failure here must not fail the order (or hide its error): the reconcile job
      // sets Redis from the database again.
      try {
        if (committed) await gate.settle(activityId, ticket);
        else await gate.compensate(activityId, ticket);
      } catch {}
    },
  };
}
