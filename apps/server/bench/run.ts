/**
 * npm run bench: starts the real server in a child process (so load generation does not share
 * its event loop) and measures each hot path against a bare /healthz in the same run.
 * DATABASE_URL selects PostgreSQL; otherwise a fresh PGlite in a temporary folder.
 * BENCH_SECONDS (default 8) and BENCH_CONNECTIONS (default 32) tune the run; BENCH_ONLY=<text>
 * runs only the scenarios whose name contains it (e.g. BENCH_ONLY=submit+pay).
 */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { SCENARIOS as ALL, type Scenario } from './scenarios';

const only = process.env.BENCH_ONLY;
const SCENARIOS = only ? ALL.filter((s) => s.name.includes(only)) : ALL;
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const port = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;

async function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    // Every load comes from one address: the per-IP login guard is lifted for the measurement.
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_LIMIT_PER_IP: '1000000',
      // A server already running here holds the operators' port; the bench does not need it.
      OPS_PORT: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('Sitemall is running') && resolve());
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return child;
}

interface Result {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
  errors: number;
  /** Answers that were not HTTP 2xx, or whose envelope code was not 200. */
  failed: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

async function measure(scenario: Scenario): Promise<Result> {
  if (scenario.run) {
    const loop = await scenario.run(base, seconds);
    const sorted = [...loop.latencies].sort((a, b) => a - b);
    return {
      name: scenario.name,
      connections: scenario.connections ?? connections,
      rps: Math.round(loop.count / seconds),
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p97_5: percentile(sorted, 97.5),
      p99: percentile(sorted, 99),
      errors: loop.errors,
      failed: loop.failed,
    };
  }
  const isEnvelope = scenario.path.startsWith('/front-mall-api');
  let envelopeFailures = 0;
  const onResponse = (status: number, body: string) => {
    if (isEnvelope && status === 200 && !body.startsWith('{"code":200')) envelopeFailures++;
  };
  const { makeBody } = scenario;
  const request = makeBody
    ? {
        onResponse,
        setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify(makeBody()) }),
      }
    : { onResponse };
  const used = scenario.connections ?? connections;
  const result = await autocannon({
    url: base + scenario.path,
    method: scenario.method ?? 'POST',
    headers: { 'content-type': 'application/json', ...scenario.headers },
    body: scenario.body === undefined ? undefined : JSON.stringify(scenario.body),
    requests: [request],
    connections: used,
    duration: seconds,
  });
  return {
    name: scenario.name,
    connections: used,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    failed: result.non2xx + envelopeFailures,
  };
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-bench-'));
for (const scenario of SCENARIOS)
  await scenario.beforeServer?.({ databaseUrl: process.env.DATABASE_URL, dataDir });
const server = await startServer(dataDir);
try {
  const healthz = await measure({ name: 'GET /healthz', method: 'GET', path: '/healthz' });
  const rows = [healthz];
  for (const scenario of SCENARIOS) {
    await scenario.prepare?.(base);
    rows.push(await measure(scenario));
  }
  console.log(`\n${seconds}s each, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n`);
  console.table(
    rows.map((r) => ({
      scenario: r.name,
      conn: r.connections,
      'req/s': r.rps,
      'p50 ms': r.p50,
      'p90 ms': r.p90,
      'p97.5 ms': r.p97_5,
      'p99 ms': r.p99,
      'vs healthz': `${(r.rps / healthz.rps).toFixed(2)}x`,
      errors: r.errors,
      failed: r.failed,
    })),
  );
  if (SCENARIOS.some((s) => s.run))
    console.log('submit+pay rows: one request = submit + pay with points; req/s = paid orders per second.');
} finally {
  server.kill('SIGTERM');
}
