import { ORDER_TYPE_SECKILL, orderApi, SECKILL_MSG, type SubmitOrderResult } from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { makeSale, quickMembers, wholeDay } from './activity.fixtures';
import { seckillPurchase, seckillSku } from './activity.tables';
import { clearSoldOut } from './seckill-gate';
import { redisSeckillGate, seckillKeys } from './seckill-redis';

// Redis: run with TEST_REDIS_URL=redis://127.0.0.1:6391 (CI sets it; without it this is skipped).
const redisUrl = process.env.TEST_REDIS_URL;

let t: TestApp;
let redis: Redis;
let api: ReturnType<typeof client>;

const buy = (token: string, spec: PickedSpec, activityId: number) =>
  api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      orderType: ORDER_TYPE_SECKILL,
      activityId,
      productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num: 1 }],
    },
    token,
  );

/** A fresh sale: activity ids repeat between test runs, so its Redis keys are cleared first. */
async function sale(spec: PickedSpec, stock: number) {
  const made = await makeSale(t.db, { ...spec, siteId: 719, price: 1, stock, memberLimit: 1 });
  const keys = seckillKeys(made.activity.id);
  await redis.del(keys.state, keys.pending);
  return made.activity;
}

/** Redis's stock of a specification and pieces per member, and the pending admissions. */
async function redisOf(activityId: number, specificationId: number) {
  const keys = seckillKeys(activityId);
  const state = await redis.hgetall(keys.state);
  const members = Object.fromEntries(
    Object.entries(state)
      .filter(([k]) => k.startsWith('m:'))
      .map(([k, v]) => [Number(k.slice(2)), Number(v)]),
  );
  return {
    stock: Number(state[`s:${specificationId}`]),
    members,
    pending: await redis.hlen(keys.pending),
  };
}

async function databaseOf(activityId: number, specificationId: number) {
  const [sku] = await t.db
    .select({ stock: seckillSku.stock })
    .from(seckillSku)
    .where(and(eq(seckillSku.activityId, activityId), eq(seckillSku.specificationId, specificationId)));
  const rows = await t.db
    .select({ memberId: seckillPurchase.memberId, qty: seckillPurchase.qty })
    .from(seckillPurchase)
    .where(and(eq(seckillPurchase.activityId, activityId), sql`${seckillPurchase.qty} > 0`));
  return { stock: sku!.stock, members: Object.fromEntries(rows.map((r) => [r.memberId, r.qty])) };
}

describe.skipIf(!redisUrl)('flash sale behind the Redis gate (REDIS_URL)', () => {
  let specs: PickedSpec[];

  beforeAll(async () => {
    redis = new Redis(redisUrl as string);
    t = await testApp({ redis });
    api = client(t);
    specs = await pickSpecs(t.db, 719, { virtual: true, count: 5, stock: 1000 });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.quit();
  });

  it('500 parallel buyers for 20 units, limit 1: 20 orders, and Redis equals the database after', async () => {
    const spec = specs[0]!;
    const activity = await sale(spec, 20);
    const members = await quickMembers(t, 719, 500);
    // Every buyer once, and the first hundred twice more (double clicks).
    const requests = [...members, ...members.slice(0, 100), ...members.slice(0, 100)];
    const answers = await Promise.all(requests.map((m) => buy(m.token, spec, activity.id)));
    const won = answers.filter((a) => a.body.code === 200);
    expect(won).toHaveLength(20);
    for (const a of answers.filter((x) => x.body.code !== 200))
      expect([SECKILL_MSG.soldOut, SECKILL_MSG.perMember(1)]).toContain(a.body.msg);
    const db = await databaseOf(activity.id, spec.specificationId);
    expect(db.stock).toBe(0);
    expect(Object.keys(db.members)).toHaveLength(20);
    expect(Object.values(db.members).every((n) => n === 1)).toBe(true);
    const orders = await t.db.execute(
      sql`select count(*)::int as n from seckill_order where activity_id = ${activity.id}`,
    );
    expect(Number((orders as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(20);
    expect(await redisOf(activity.id, spec.specificationId)).toEqual({ ...db, pending: 0 });
  }, 300_000);

  it('refuses a sold-out sale from Redis without asking the database, until reconciled', async () => {
    const spec = specs[1]!;
    const activity = await sale(spec, 1);
    const [first, second] = await quickMembers(t, 719, 2);
    expect((await buy(first!.token, spec, activity.id)).body).toMatchObject({ code: 200 });
    // The database gets stock back behind Redis's back: Redis, still at 0, refuses alone.
    await t.db
      .update(seckillSku)
      .set({ stock: 1, totalStock: 2 })
      .where(eq(seckillSku.activityId, activity.id));
    clearSoldOut({ activityId: activity.id, specificationId: spec.specificationId });
    expect((await buy(second!.token, spec, activity.id)).body.msg).toBe(SECKILL_MSG.soldOut);
    // The reconcile job (any process that loaded the sale) sets Redis from the database.
    const gate = redisSeckillGate(redis);
    await gate.load(t.db, { activityId: activity.id, memberLimit: 1, window: wholeDay() });
    await t.db
      .update(seckillSku)
      .set({ stock: 2, totalStock: 3 })
      .where(eq(seckillSku.activityId, activity.id));
    expect(await gate.reconcile(t.db)).toBe(1);
    expect((await redisOf(activity.id, spec.specificationId)).stock).toBe(2);
    clearSoldOut({ activityId: activity.id, specificationId: spec.specificationId });
    expect((await buy(second!.token, spec, activity.id)).body.code).toBe(200);
    expect((await buy(first!.token, spec, activity.id)).body.msg).toBe(SECKILL_MSG.perMember(1));
    expect(await redisOf(activity.id, spec.specificationId)).toEqual({
      ...(await databaseOf(activity.id, spec.specificationId)),
      pending: 0,
    });
  });

  it('gives back what Redis took when the order transaction fails (compensation)', async () => {
    const spec = specs[2]!;
    const activity = await sale(spec, 3);
    const [early, late] = await quickMembers(t, 719, 2);
    expect((await buy(early!.token, spec, activity.id)).body.code).toBe(200);
    // Redis believes 2 are left; the database has none: the transaction refuses.
    await t.db.update(seckillSku).set({ stock: 0 }).where(eq(seckillSku.activityId, activity.id));
    expect((await buy(late!.token, spec, activity.id)).body.msg).toBe(SECKILL_MSG.soldOut);
    const after = await redisOf(activity.id, spec.specificationId);
    expect(after).toEqual({ stock: 2, members: { [early!.id]: 1 }, pending: 0 });
  });

  it('refuses before the window with its timing, and leaves an ended window to the database', async () => {
    const spec = specs[3]!;
    const activity = await sale(spec, 5);
    let now = Date.now();
    const gate = redisSeckillGate(redis, () => now);
    const window = { start: new Date(now + 60_000), end: new Date(now + 120_000) };
    await gate.load(t.db, { activityId: activity.id, memberLimit: 1, window });
    const ask = { activityId: activity.id, specificationId: spec.specificationId, memberId: 1, num: 1 };
    await expect(gate.admit(ask, 'T1')).rejects.toMatchObject({
      msg: SECKILL_MSG.notStarted,
      data: { timing: { status: -1, startTimeStamp: window.start.getTime() } },
    });
    now += 60_000;
    expect(await gate.admit(ask, 'T2')).toEqual({ status: 'admitted', ticket: 'T2' });
    await gate.compensate(activity.id, 'T2');
    await gate.compensate(activity.id, 'T2');
    expect((await redisOf(activity.id, spec.specificationId)).stock).toBe(5);
    now += 60_000;
    expect(await gate.admit(ask, 'T3')).toEqual({ status: 'unknown' });
  });

  it('a member buying the same sale twice in parallel gets one piece', async () => {
    const spec = specs[4]!;
    const activity = await sale(spec, 5);
    const b = await buyer(t, 719);
    const answers = await Promise.all(Array.from({ length: 10 }, () => buy(b.token, spec, activity.id)));
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
    expect(await redisOf(activity.id, spec.specificationId)).toEqual({
      ...(await databaseOf(activity.id, spec.specificationId)),
      pending: 0,
    });
  });
});
