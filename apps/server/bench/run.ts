/**
 * npm run bench: measures every hot path of the product and, in the same run, the ceilings it is
 * compared with (issue 16): a bare Fastify route, a raw `pg` primary-key read served by Fastify,
 * and the raw SQL of one paid order as a client transaction and as one statement. Prints each
 * path as a ratio to its ceiling with the goal and PASS/FAIL, and writes the run as JSON to
 * bench/results/<time>-<database>.json so runs can be compared.
 *
 * DATABASE_URL selects PostgreSQL (the server, the ceilings and the seed all use it); otherwise
 * a fresh PGlite in a temporary folder, copied for the ceilings (one process owns a folder).
 * BENCH_SECONDS (default 8) and BENCH_CONNECTIONS (default 32) tune the run; BENCH_ONLY=<text>[|<text>…]
 * runs only the scenarios whose name contains one of them (and the ceilings they are compared with).
 * Servers run in child processes, so load generation does not share their event loop.
 */
import type { ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { cpuSeconds, randomPort, startChild, startServer, stopChild } from './children';
import { measurer, type Result, WARM_UP_SECONDS } from './measure';
import { orderCeilingLoop } from './order-ceiling';
import { refillOrderBench, seedOrderBench } from './orders';
import { openRaw } from './raw-db';
import { SCENARIOS as ALL, type Ceiling, type Goal } from './scenarios';

const only = process.env.BENCH_ONLY;
const SCENARIOS = only ? ALL.filter((s) => only.split('|').some((part) => s.name.includes(part))) : ALL;
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const databaseUrl = process.env.DATABASE_URL;
const serverDir = path.resolve(import.meta.dirname, '..');

const { measure: measureOnly, loopResult, warmUp } = measurer({ seconds, connections });

/** A measurement, after a warm-up, with the CPU the server process spent per request meanwhile. */
async function measureOn(server: ChildProcess, ...args: Parameters<typeof measureOnly>): Promise<Result> {
  await warmUp(...args);
  const before = cpuSeconds(server);
  const result = await measureOnly(...args);
  const after = cpuSeconds(server);
  if (before === undefined || after === undefined || !result.count) return result;
  return { ...result, serverCpuMs: ((after - before) * 1000) / result.count };
}

// --- the database: demo data and the 32 bench members, then the ceilings on it ---------------
const dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-bench-'));
const seed = await seedOrderBench({ databaseUrl, dataDir });
const wanted = new Set<Ceiling>(['bare Fastify', 'healthz']);
for (const s of SCENARIOS) if (s.goal && 'vs' in s.goal) wanted.add(s.goal.vs);

const ceilings = new Map<Ceiling, Result>();
let ceilingDir: string | undefined;
if (!databaseUrl) {
  ceilingDir = `${dataDir}-ceiling`;
  await cp(dataDir, ceilingDir, { recursive: true });
}
{
  const port = randomPort();
  const server = await startChild(
    ['--import', 'tsx', 'bench/ceiling-server.ts'],
    { PORT: String(port), CEILING_DATABASE_URL: databaseUrl ?? '', CEILING_PGLITE_DIR: ceilingDir },
    'ceiling ready',
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    ceilings.set(
      'bare Fastify',
      await measureOn(server, base, { name: 'ceiling: bare Fastify route', method: 'GET', path: '/bare' }),
    );
    // The storefront's reads are POSTs with a JSON body (spec section 7), /healthz is a GET:
    // this row shows what the body alone costs Fastify, the bound of a POST read vs /healthz.
    ceilings.set(
      'bare Fastify POST',
      await measureOn(server, base, {
        name: 'ceiling: bare Fastify POST',
        path: '/bare',
        body: { siteId: 719 },
      }),
    );
    if (wanted.has('raw pg pk read'))
      ceilings.set(
        'raw pg pk read',
        await measureOn(server, base, {
          name: 'ceiling: raw pk read via Fastify',
          path: '/pk',
          body: { id: 1 },
        }),
      );
  } finally {
    await stopChild(server);
  }
}
const orderCeilings: [Ceiling, 'transaction' | 'statement', boolean][] = [
  ['order tx (client)', 'transaction', false],
  ['order 1 statement', 'statement', false],
  ['order 1 statement hot', 'statement', true],
];
if (orderCeilings.some(([c]) => wanted.has(c))) {
  const raw = await openRaw({ databaseUrl, dataDir: ceilingDir });
  try {
    for (const [name, shape, hot] of orderCeilings) {
      if (!wanted.has(name) && name !== 'order 1 statement') continue;
      const loopOf = (loopSeconds: number) =>
        orderCeilingLoop(raw, {
          shape,
          memberIds: seed.memberIds,
          specOf: (i) => (hot ? seed.hot : seed.specs[i % seed.specs.length]!),
          seconds: loopSeconds,
        });
      // Warmed like every path, then analyzed: planned on the statistics of empty order tables
      // (a new database, and autovacuum is off on this machine) the one statement made 1,529
      // orders a second, and 4,292 once the tables held orders and were analyzed.
      await loopOf(WARM_UP_SECONDS);
      await raw.analyze();
      const loop = await loopOf(seconds);
      ceilings.set(
        name,
        loopResult(`ceiling: ${name}${hot ? ' (one spec)' : ''}`, seed.memberIds.length, loop),
      );
    }
  } finally {
    await raw.close();
  }
  if (databaseUrl) await refillOrderBench({ databaseUrl, dataDir });
}

// --- the product ----------------------------------------------------------------------------
for (const scenario of SCENARIOS) await scenario.beforeServer?.({ databaseUrl, dataDir });
// The statistics of the data the scenarios made (as a production server's autovacuum would
// have them; PGlite has none, and this machine's PostgreSQL runs with it off).
{
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await database.db.execute(sql`analyze`);
  } finally {
    await database.close();
  }
}
const port = randomPort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer(port, dataDir);
/** /healthz measured right before and right after a path, for the paths compared with it. */
interface Beside {
  before: number;
  after: number;
}
const rows: { result: Result; goal?: Goal; beside?: Beside }[] = [];
try {
  const measureHealthz = () =>
    measureOn(server, base, { name: 'GET /healthz', method: 'GET', path: '/healthz' });
  ceilings.set('healthz', await measureHealthz());
  for (const scenario of SCENARIOS) {
    await scenario.prepare?.(base);
    // This machine's speed drifts within a run (shared cores; /healthz moved by a third between
    // two paths of one run): a path compared with /healthz is compared with the mean of
    // /healthz measured right before and right after it, not with one side of the drift.
    const byHealthz = scenario.goal && 'vs' in scenario.goal && scenario.goal.vs === 'healthz';
    const before = byHealthz ? (await measureHealthz()).rps : undefined;
    const result = await measureOn(server, base, scenario);
    const beside = before === undefined ? undefined : { before, after: (await measureHealthz()).rps };
    rows.push({ result, goal: scenario.goal, beside });
  }
} finally {
  await stopChild(server);
}

// --- the report -------------------------------------------------------------------------------
const healthz = ceilings.get('healthz') as Result;
function verdict(result: Result, goal?: Goal, beside?: Beside) {
  if (!goal) return { vs: 'healthz', ratio: result.rps / healthz.rps, target: '', pass: undefined };
  if ('p95AtMostMs' in goal) {
    const p95 = result.p95 ?? result.p97_5;
    return {
      vs: 'p95',
      ratio: undefined,
      target: `p95 ≤ ${goal.p95AtMostMs} ms`,
      pass: p95 <= goal.p95AtMostMs,
    };
  }
  const ceiling = beside ? (beside.before + beside.after) / 2 : ceilings.get(goal.vs)?.rps;
  const ratio = ceiling ? result.rps / ceiling : Number.NaN;
  return {
    vs: beside ? `${goal.vs} before/after: ${beside.before}/${beside.after}` : goal.vs,
    ratio,
    target: `≥ ${goal.atLeast}×`,
    pass: ratio >= goal.atLeast,
  };
}
const ceilingRows = [...ceilings.values()].filter((r) => r !== healthz);
const bare = ceilings.get('bare Fastify') as Result;
const report = [
  ...ceilingRows.map((result) =>
    result === ceilings.get('bare Fastify POST')
      ? { result, vs: 'bare Fastify', ratio: result.rps / bare.rps, target: '', pass: undefined }
      : { result, vs: '', ratio: undefined, target: '', pass: undefined },
  ),
  { result: healthz, vs: 'bare Fastify', ratio: healthz.rps / bare.rps, target: '', pass: undefined },
  ...rows.map(({ result, goal, beside }) => ({ result, ...verdict(result, goal, beside) })),
];
const database = databaseUrl ? 'PostgreSQL' : 'PGlite';
console.log(`\n${seconds}s each, database: ${database}, ${cpus().length} cores\n`);
console.table(
  report.map(({ result: r, vs, ratio, target, pass }) => ({
    path: r.name,
    conn: r.connections,
    'req/s': r.rps,
    'p50 ms': r.p50,
    'p95 ms': r.p95 ?? '',
    'p99 ms': r.p99,
    'server CPU ms/req': r.serverCpuMs === undefined ? '' : r.serverCpuMs.toFixed(2),
    vs,
    ratio: ratio === undefined ? '' : `${ratio.toFixed(2)}×`,
    goal: target,
    '': pass === undefined ? '' : pass ? 'PASS' : 'FAIL',
    'errors/failed': `${r.errors}/${r.failed}`,
  })),
);
console.log('submit+pay and order rows: one request = one paid order; req/s = paid orders per second.');

const resultsDir = path.join(serverDir, 'bench', 'results');
await mkdir(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*/, '');
const file = path.join(resultsDir, `${stamp}-${database.toLowerCase()}.json`);
await writeFile(
  file,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      database,
      seconds,
      connections,
      cores: cpus().length,
      node: process.version,
      rows: report.map(({ result, vs, ratio, target, pass }) => ({
        ...result,
        vs,
        ratio,
        goal: target,
        pass,
      })),
    },
    null,
    2,
  )}\n`,
);
console.log(`results: ${path.relative(process.cwd(), file)}`);
