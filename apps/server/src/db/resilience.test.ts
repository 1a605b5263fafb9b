import { once } from 'node:events';
import { addressApi, cartApi, orderApi, type PayResult, type SubmitOrderResult } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { client } from '../modules/identity/identity.fixtures';
import { buyer, NANJING, type PickedSpec, pickSpecs } from '../modules/order/order.fixtures';
import { getBalance } from '../modules/points/points.service';
import { hearingStatements, type TestApp, testApp } from '../test/harness';
import { type Db, type DbLog, openDatabase } from './client';
import { checkReadiness, waitForDatabase } from './readiness';

/** A server the database stops serving: nothing paid twice or lost, no crash, honest readiness. */

const PG_URL = process.env.TEST_DATABASE_URL;
/** Nothing listens on port 1: every connection is refused at once. */
const CLOSED_PORT_URL = 'postgres://root@127.0.0.1:1/nowhere';

let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const submit = (token: string, requestId: string) =>
  api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      requestId,
      productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num: 1 }],
    },
    token,
  );
const pay = (token: string, orderNo: string) =>
  api.post<PayResult>(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'ye' }, token);

async function payEntriesOf(memberIds: number[]) {
  return rowsOf<{ order_no: string; n: number; total: number }>(
    await t.db.execute(sql`
      select order_no, count(*)::int as n, sum(amount)::int as total from points_entry
      where type = 'pay' and member_id in (${sql.join(memberIds, sql`, `)}) group by order_no`),
  );
}

async function ledgerMatchesBalance(memberId: number) {
  const [row] = rowsOf<{ total: number }>(
    await t.db.execute(
      sql`select coalesce(sum(amount), 0)::int as total from points_entry where site_id = 719 and member_id = ${memberId}`,
    ),
  );
  expect(Number(row?.total)).toBe(await getBalance(t, { siteId: 719, memberId }));
}

const uncaught: unknown[] = [];
const recordUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  spec = (await pickSpecs(t.db, 719, { stock: 10_000 }))[0] as PickedSpec;
  // An 'error' event nobody handles is thrown as an uncaught exception: it would end a server.
  process.on('uncaughtException', recordUncaught);
  process.on('unhandledRejection', recordUncaught);
});
afterAll(async () => {
  process.off('uncaughtException', recordUncaught);
  process.off('unhandledRejection', recordUncaught);
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
  expect(uncaught).toEqual([]);
});

/**
 * The test app's twin on a database whose every query fails once a transaction has committed
 * or a statement matching `write` (a write made without a transaction) was sent, as when the
 * connection is lost right after it; `post` answers one request through it.
 */
async function breakingAfterCommit(write?: RegExp) {
  let broken = false;
  const breaking = new Proxy(t.database.db, {
    get(target, prop, receiver) {
      if (prop === 'transaction')
        return async (...args: Parameters<Db['transaction']>) => {
          const result = await target.transaction(...args);
          broken = true;
          return result;
        };
      if (broken) throw new Error('Connection terminated unexpectedly');
      return Reflect.get(target, prop, receiver);
    },
  });
  // Built beside the test app (testApp would reseed the data).
  const app = await buildApp({
    database: { ...t.database, db: breaking },
    secrets: t.secrets,
    sites: t.sites,
    catalogs: t.catalogs,
  });
  return {
    async post<T>(url: string, token: string, payload: object) {
      try {
        const res = await hearingStatements(
          (text) => {
            if (write?.test(text.trimStart())) broken = true;
          },
          () =>
            app.inject({
              method: 'POST',
              url: `/front-mall-api${url}`,
              headers: { token },
              payload,
            }),
        );
        expect(broken).toBe(true);
        return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: T } };
      } finally {
        await app.close();
      }
    },
  };
}

describe('answers after a commit come from the transaction', () => {
  it('a read failing after the payment committed does not answer the member an error', async () => {
    // A payment with points alone is one statement (its order's move), committed on its own.
    const member = await buyer(t, 719, 100_000);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, member.token);
    const { body: order } = await submit(member.token, `commit-${member.id}-1`);
    expect(order.code).toBe(200);
    const faulty = await breakingAfterCommit(/^with "moved" as \(update "mall_order"/);
    const res = await faulty.post<PayResult>(orderApi.payOrder.path, member.token, {
      siteId: 719,
      orderNo: order.data.orderNo,
      payWay: 'ye',
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data.isPaid).toBe(true);
    expect(res.body.data.balance).toBe(100_000 - order.data.payAmount);
    // Paid once: a retry answers "already paid" and debits nothing more.
    const again = await pay(member.token, order.data.orderNo);
    expect(again.body.data.isPaid).toBe(true);
    expect(await payEntriesOf([member.id])).toEqual([
      { order_no: order.data.orderNo, n: 1, total: -order.data.payAmount },
    ]);
    await ledgerMatchesBalance(member.id);
  });

  it('adding to the cart answers the cart it made, so the member need not add again', async () => {
    const member = await buyer(t, 719);
    const faulty = await breakingAfterCommit();
    const res = await faulty.post<{ obj: { cartList: unknown[] } }>(cartApi.submitCart.path, member.token, {
      siteId: 719,
      productInfo: [{ productId: spec.productId, specificationId: spec.specificationId, num: 2 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('加入购物车成功');
    expect(JSON.stringify(res.body.data.obj)).toContain(`"specificationId":${spec.specificationId}`);
    const lines = rowsOf<{ num: number }>(
      await t.db.execute(sql`select num from cart_line where member_id = ${member.id}`),
    );
    expect(lines).toEqual([{ num: 2 }]);
  });
});

describe('readiness and start-up without a database', () => {
  const warnings: string[] = [];
  const log: DbLog = { info() {}, warn: (_obj, msg) => warnings.push(msg) };

  it('is not ready while connections are refused, and says why', async () => {
    const nowhere = await openDatabase({ databaseUrl: CLOSED_PORT_URL, log });
    try {
      const check = await checkReadiness(nowhere);
      expect(check.ready).toBe(false);
      expect(String((check as { error: Error }).error)).toMatch(/ECONNREFUSED/);
    } finally {
      await nowhere.close();
    }
  });

  it('LISTEN on a database that is down does not fail: it keeps trying in the background until closed', async () => {
    const nowhere = await openDatabase({ databaseUrl: CLOSED_PORT_URL, log });
    const stop = await nowhere.listen('sitemall_anything', () => {});
    expect(warnings).toContain('LISTEN connection lost; reconnecting');
    await stop();
    await nowhere.close();
  });

  it('start-up tries again with growing pauses, then gives up after its time with the reason', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const nowhere = await openDatabase({ databaseUrl: CLOSED_PORT_URL, log });
    const pauses: number[] = [];
    const sleep = async (ms: number) => {
      pauses.push(ms);
      vi.setSystemTime(Date.now() + ms);
    };
    try {
      await expect(waitForDatabase(nowhere, { timeoutMs: 10_000, log, sleep })).rejects.toThrow(
        /database not reachable after 10 s: .*ECONNREFUSED/,
      );
    } finally {
      await nowhere.close();
    }
    expect(pauses.slice(0, 5)).toEqual([250, 500, 1000, 2000, 4000]);
    expect(pauses.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(10_000);
    expect(warnings.filter((w) => w.startsWith('waiting for the database'))).toHaveLength(pauses.length);
  });
});

/**
 * PGlite runs inside the process and has no connections to lose; these need a PostgreSQL
 * server (CI sets TEST_DATABASE_URL) and are skipped on PGlite.
 */
describe.skipIf(!PG_URL)('PostgreSQL connection faults (skipped on PGlite: no connections to lose)', () => {
  let admin: pg.Client;
  let dbName: string;

  /** Ends every connection the server holds on its database: pool and LISTEN alike. */
  async function terminateServerConnections(): Promise<number> {
    const result = await admin.query<{ n: number }>(
      `select count(*) filter (where pg_terminate_backend(pid))::int as n
       from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [dbName],
    );
    return result.rows[0]?.n ?? 0;
  }
  /** Resolves when the LISTEN connection is back and the caches were told to resync. */
  async function nextResync(): Promise<{ done: Promise<void> }> {
    let resynced!: () => void;
    const promise = new Promise<void>((resolve) => {
      resynced = resolve;
    });
    const stop = await t.database.listen('sitemall_resync_probe', () => {}, resynced);
    // Wrapped: an async function returning a promise would wait for it.
    return { done: promise.finally(stop) };
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: (PG_URL as string).replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    const [row] = rowsOf<{ name: string }>(await t.db.execute(sql`select current_database() as name`));
    dbName = row?.name as string;
  });
  afterAll(async () => {
    await admin.query(`alter database ${pg.escapeIdentifier(dbName)} allow_connections true`);
    await admin.end();
  });

  it('connections killed under submit+pay load: serving goes on, every order is made and paid once', async () => {
    const buyers = await Promise.all(Array.from({ length: 6 }, () => buyer(t, 719, 1_000_000)));
    await Promise.all(
      buyers.map((b) => api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token)),
    );
    let completed = 0;
    const waiting: { count: number; resolve: () => void }[] = [];
    /** Resolves once `count` requests have been answered. */
    const progress = (count: number) =>
      new Promise<void>((resolve) => {
        if (completed >= count) resolve();
        else waiting.push({ count, resolve });
      });
    let faults = 0;
    /** A member's client: a 500 (the request's connection was killed) is tried again. */
    async function retried<T>(call: () => Promise<{ status: number; body: T }>) {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const answer = await call();
        completed += 1;
        for (const w of waiting) if (w.count <= completed) w.resolve();
        if (answer.status !== 500) return answer;
        faults += 1;
      }
      throw new Error('still failing after 20 tries');
    }
    // Everything is killed twice while members' requests are in flight; each time the LISTEN
    // connection is back (and the caches resynced) before the next kill.
    const injector = (async () => {
      const killed: number[] = [];
      for (const at of [8, 30]) {
        await progress(at);
        const resynced = await nextResync();
        killed.push(await terminateServerConnections());
        await resynced.done;
      }
      return killed;
    })();
    const ordersOf = await Promise.all(
      buyers.map(async (b) => {
        const orders: SubmitOrderResult[] = [];
        for (let i = 0; i < 5; i += 1) {
          const made = await retried(() => submit(b.token, `fault-${b.id}-${i}`));
          expect(made.body.code, made.body.msg).toBe(200);
          const paid = await retried(() => pay(b.token, made.body.data.orderNo));
          expect(paid.body.code, paid.body.msg).toBe(200);
          expect(paid.body.data.isPaid).toBe(true);
          orders.push(made.body.data);
        }
        return orders;
      }),
    );
    const killed = await injector;
    expect(killed.every((n) => n > 0)).toBe(true);
    // How many requests the kills hit varies; the outcome below must be exact either way.
    console.info(
      `connection faults: ${killed.join('+')} connections killed, ${faults} requests answered 500`,
    );

    const ids = buyers.map((b) => b.id);
    const [made] = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`select count(*)::int as n from mall_order where member_id in (${sql.join(ids, sql`, `)})`,
      ),
    );
    expect(Number(made?.n)).toBe(30);
    const entries = await payEntriesOf(ids);
    expect(entries).toHaveLength(30);
    expect(entries.every((e) => e.n === 1)).toBe(true);
    for (const [i, b] of buyers.entries()) {
      const spent = (ordersOf[i] ?? []).reduce((s, o) => s + o.payAmount, 0);
      expect(await getBalance(t, { siteId: 719, memberId: b.id })).toBe(1_000_000 - spent);
      await ledgerMatchesBalance(b.id);
    }

    // The LISTEN connection was killed too (the injector saw it resync): notifications arrive again.
    let received!: (payload: string) => void;
    const arrived = new Promise<string>((resolve) => {
      received = resolve;
    });
    const stop = await t.database.listen('sitemall_fault_probe', (payload) => received(payload));
    await t.db.execute(sql`select pg_notify('sitemall_fault_probe', 'after the faults')`);
    expect(await arrived).toBe('after the faults');
    await stop();
  });

  it('a change whose NOTIFY was missed while LISTEN was down is not served from the cache', async () => {
    const before = await t.sites.get(719);
    // Changed without the announcement, as if its NOTIFY had been sent while nobody listened.
    await t.db.execute(sql`update mall_site set site_name = '断线期间改名' where id = 719`);
    expect((await t.sites.get(719))?.row.siteName).toBe(before?.row.siteName);
    const resynced = await nextResync();
    await terminateServerConnections();
    await resynced.done;
    expect((await t.sites.get(719))?.row.siteName).toBe('断线期间改名');
  });

  it('a checked-out connection that dies gives its pool slot back even if its holder never does', async () => {
    const pool = (t.db as unknown as { $client: pg.Pool }).$client;
    const held = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('select pg_backend_pid() as pid');
    const before = pool.totalCount;
    const died = once(held, 'error');
    await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
    await died;
    expect(pool.totalCount).toBe(before - 1);
    held.release(); // the holder's own release later is harmless
    expect((await t.db.execute(sql`select 1 as one`)) as unknown).toBeTruthy();
  });

  it('readyz answers 503 in the envelope while the database refuses new connections', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    await admin.query(`alter database ${pg.escapeIdentifier(dbName)} allow_connections false`);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 503,
        msg: '数据库暂时不可用，服务尚未就绪',
        success: false,
        data: null,
      });
    } finally {
      await admin.query(`alter database ${pg.escapeIdentifier(dbName)} allow_connections true`);
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('start-up waits for a database that refuses connections and goes on once it accepts them', async () => {
    const name = `${dbName}_boot`;
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    await admin.query(`create database ${pg.escapeIdentifier(name)} allow_connections false`);
    const url = new URL(PG_URL as string);
    url.pathname = `/${name}`;
    const waiting: string[] = [];
    const booting = await openDatabase({ databaseUrl: url.toString() });
    let pauses = 0;
    try {
      await waitForDatabase(booting, {
        timeoutMs: 60_000,
        log: { info() {}, warn: (_o, msg) => waiting.push(msg) },
        // The database starts accepting during the second pause.
        sleep: async () => {
          pauses += 1;
          if (pauses === 2)
            await admin.query(`alter database ${pg.escapeIdentifier(name)} allow_connections true`);
        },
      });
      expect(waiting).toHaveLength(2);
      expect(await checkReadiness(booting)).toEqual({ ready: true });
    } finally {
      await booting.close();
      await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    }
  });
});
