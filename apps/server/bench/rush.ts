/**
 * The flash-sale rush (issue 14's benchmark): 500 members on one sale of 20 pieces, limit 1,
 * measured on the database alone and with the Redis gate (REDIS_URL), against `/healthz` of the
 * same server and a bare Redis Lua decrement loop, in one run. Each round is a fresh sale: the
 * members ask again and again (round robin over BENCH_CONNECTIONS in flight) for BENCH_SECONDS,
 * so after the first 20 nearly every answer is a refusal; req/s is answers per second (what the
 * gate must withstand), orders are the sale's orders in the database, oversold is orders beyond
 * the 20 pieces or a negative stock (must be 0).
 *
 * `npm run bench:rush` (BENCH_REDIS_URL, default redis://127.0.0.1:6379; DATABASE_URL for
 * PostgreSQL, else PGlite). Writes bench/results/<time>-rush-<database>.json.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { identityApi, ORDER_TYPE_SECKILL, orderApi } from '@sitemall/contract';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { openDatabase } from '../src/db/client';
import { seedDemo } from '../src/db/seed';
import { makeSale } from '../src/modules/activity/activity.fixtures';
import { seckillKeys } from '../src/modules/activity/seckill-redis';
import { createMember, memberByPhone } from '../src/modules/identity/members';
import { createSessionStore } from '../src/modules/identity/sessions';
import { type PickedSpec, pickSpecs } from '../src/modules/order/order.fixtures';
import { randomPort, startServer, stopChild } from './children';

const SITE = 719;
const MEMBERS = 500;
const PIECES = 20;
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;

interface Row {
  name: string;
  rps: number;
  p99: number;
  orders?: number;
  oversold?: number;
  refusedPerSecond?: number;
  /** Server CPU (user + system) per answer, in µs: what the machine's other load does not inflate. */
  cpuUs?: number;
  errors: number;
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux; undefined elsewhere). */
async function cpuSecondsOf(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Runs `load` and puts the server's CPU per answer in place of its count of answers. */
async function withCpu<R extends { answers: number }>(
  pid: number | undefined,
  load: () => Promise<R>,
): Promise<Omit<R, 'answers'> & { cpuUs?: number }> {
  const before = await cpuSecondsOf(pid);
  const { answers, ...row } = await load();
  const after = await cpuSecondsOf(pid);
  if (before === undefined || after === undefined || answers === 0) return row;
  return { ...row, cpuUs: Math.round(((after - before) * 1e6) / answers) };
}

/** 500 members with sessions, made directly (no logins: argon2 would be the bench). */
async function seedRush(dataDir: string) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await database.migrate();
    await seedDemo(database.db);
    const sessions = createSessionStore();
    const tokens: string[] = [];
    for (let i = 0; i < MEMBERS; i += 1) {
      const phone = `1360719${String(i).padStart(4, '0')}`;
      const member =
        (await memberByPhone(database.db, SITE, phone)) ??
        (await createMember(database.db, { siteId: SITE, phone })).row;
      tokens.push(await sessions.issue(database.db, { siteId: SITE, memberId: member.id }));
    }
    const [spec] = (await pickSpecs(database.db, SITE, {
      virtual: true,
      count: 1,
      stock: 10_000_000,
    })) as [PickedSpec];
    return { tokens, spec };
  } finally {
    await database.close();
  }
}

/** A fresh sale of 20 pieces, limit 1 (before the server opens the database). */
async function newSale(dataDir: string, spec: PickedSpec) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const { activity } = await makeSale(database.db, { ...spec, siteId: SITE, price: 1, stock: PIECES });
    // Activity ids start again in a fresh database: a former run's keys must not answer for it.
    const keys = seckillKeys(activity.id);
    const redis = new Redis(redisUrl);
    await redis.del(keys.state, keys.pending);
    await redis.quit();
    return activity.id;
  } finally {
    await database.close();
  }
}

/** Orders of the sale and its stock, read after the server stopped. */
async function outcome(dataDir: string, activityId: number) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const rows = await database.db.execute(sql`
      select (select coalesce(sum(num), 0)::int from seckill_order where activity_id = ${activityId}) as orders,
             (select min(stock)::int from seckill_sku where activity_id = ${activityId}) as stock`);
    const row = (rows as unknown as { rows: { orders: number; stock: number }[] }).rows[0]!;
    return { orders: Number(row.orders), stock: Number(row.stock) };
  } finally {
    await database.close();
  }
}

/**
 * Every member's session is resolved once before the rush, as members are browsing before the
 * start: the bench measures the gate, not a cold session cache.
 */
async function warmSessions(base: string, tokens: string[]) {
  for (let i = 0; i < tokens.length; i += connections)
    await Promise.all(
      tokens.slice(i, i + connections).map((token) =>
        fetch(`${base}/front-mall-api${identityApi.checkToken.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ siteId: SITE, token }),
        }).then((r) => r.arrayBuffer()),
      ),
    );
}

/**
 * Members asking for the sale round robin, `connections` in flight, for `seconds`: autocannon,
 * the client of the `/healthz` rows, so the ratio between them is the server's work alone (a
 * loop of `fetch` calls answered /healthz at about a third of autocannon's rate on this machine,
 * so it measured its own cost more than the gate's).
 */
async function rushLoop(base: string, tokens: string[], spec: PickedSpec, activityId: number) {
  let next = 0;
  let refused = 0;
  const r = await autocannon({
    url: `${base}/front-mall-api${orderApi.submitOrder.path}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          siteId: SITE,
          orderType: ORDER_TYPE_SECKILL,
          activityId,
          productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num: 1 }],
        }),
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, token: tokens[next++ % tokens.length]! },
        }),
        onResponse: (_status, body) => {
          // The envelope's own code (a refusal answers HTTP 200 too); no JSON.parse on the client.
          if (!body.includes('"code":200,')) refused++;
        },
      },
    ],
  });
  return {
    rps: Math.round(r.requests.average),
    answers: r.requests.total,
    refusedPerSecond: Math.round(refused / seconds),
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

/** The same Redis, a script that only decrements a counter: what Redis alone can do. */
async function bareLuaLoop(): Promise<Row> {
  const redis = new Redis(redisUrl);
  const key = `sitemall:bench:lua:${process.pid}`;
  const script = "local n = redis.call('DECR', KEYS[1]) if n < 0 then return 0 end return 1";
  await redis.set(key, String(PIECES));
  const sha = String(await redis.script('LOAD', script));
  const deadline = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        await redis.evalsha(sha, 1, key);
        latencies.push(performance.now() - started);
      }
    }),
  );
  await redis.del(key);
  await redis.quit();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    name: 'ceiling: bare Redis Lua decrement',
    rps: Math.round(latencies.length / seconds),
    p99: percentile(sorted, 99),
    errors: 0,
  };
}

async function healthzOf(base: string, name: string) {
  const r = await autocannon({ url: `${base}/healthz`, connections, duration: seconds });
  return {
    name,
    rps: Math.round(r.requests.average),
    answers: r.requests.total,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
  };
}

// `npm run bench` runs this after run.ts; BENCH_ONLY naming another path skips it.
if (process.env.BENCH_ONLY && !'flash-sale rush'.includes(process.env.BENCH_ONLY)) process.exit(0);
const dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-rush-'));
const { tokens, spec } = await seedRush(dataDir);
const rows: Row[] = [await bareLuaLoop()];
/** The /healthz row of each rush row's server: what its ratios are taken against. */
const healthzRow = new Map<Row, Row>();
for (const withRedis of [false, true]) {
  const activityId = await newSale(dataDir, spec);
  const port = randomPort();
  const base = `http://127.0.0.1:${port}`;
  const label = withRedis ? 'database + Redis gate' : 'database alone';
  const server = await startServer(port, dataDir, { REDIS_URL: withRedis ? redisUrl : '' });
  const ask = () => withCpu(server.pid, () => rushLoop(base, tokens, spec, activityId));
  let health: Row;
  let rush: Awaited<ReturnType<typeof ask>>;
  let after: Awaited<ReturnType<typeof ask>>;
  try {
    health = await withCpu(server.pid, () => healthzOf(base, `GET /healthz (${label})`));
    await warmSessions(base, tokens);
    rush = await ask();
    // The same members on, the sale sold out: refusals alone, what the gate must make cheap.
    after = await ask();
  } finally {
    await stopChild(server);
  }
  const { orders, stock } = await outcome(dataDir, activityId);
  const rushRow = {
    name: `flash-sale rush, ${label}`,
    ...rush,
    orders,
    oversold: Math.max(orders - PIECES, 0) + Math.max(-stock, 0),
  };
  const afterRow = { name: `sold out: refusals alone, ${label}`, ...after };
  rows.push(health, rushRow, afterRow);
  healthzRow.set(rushRow, health).set(afterRow, health);
}

const lua = rows[0]!;
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || !b ? '' : `${(a / b).toFixed(2)}×`;
const gated = (r: Row) => r.orders !== undefined && r.name.includes('Redis');
const database = databaseUrl ? 'PostgreSQL' : 'PGlite';
console.log(
  `\n${seconds}s each, ${connections} in flight, ${MEMBERS} members, ${PIECES} pieces, ${database}, ${cpus().length} cores\n`,
);
console.table(
  rows.map((r) => ({
    path: r.name,
    'req/s': r.rps,
    'refused/s': r.refusedPerSecond ?? '',
    'p99 ms': r.p99,
    'CPU µs/answer': r.cpuUs ?? '',
    orders: r.orders ?? '',
    oversold: r.oversold ?? '',
    'vs healthz': ratio(r.rps, healthzRow.get(r)?.rps),
    // The health check's CPU per answer over the row's: 1× = an answer costs one health check.
    // Other processes' load does not inflate it as it does req/s (the rows run one after another).
    'CPU vs healthz': ratio(healthzRow.get(r)?.cpuUs, r.cpuUs),
    'vs Lua': r === lua ? '' : `${(r.rps / lua.rps).toFixed(3)}×`,
    goal: gated(r) ? '≥ 0.5× Lua' : '',
    '': gated(r) ? (r.rps / lua.rps >= 0.5 ? 'PASS' : 'FAIL') : '',
    errors: r.errors,
  })),
);
const resultsDir = path.resolve(import.meta.dirname, 'results');
await mkdir(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*/, '');
const file = path.join(resultsDir, `${stamp}-rush-${database.toLowerCase()}.json`);
await writeFile(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), database, seconds, connections, members: MEMBERS, pieces: PIECES, rows }, null, 2)}\n`,
);
console.log(`results: ${path.relative(process.cwd(), file)}`);
if (rows.some((r) => (r.oversold ?? 0) > 0)) {
  console.error('OVERSOLD');
  process.exitCode = 1;
}
