/**
 * npm run bench:cluster: the many-process topology of issue 16 (docs/deploy.md) started on this
 * machine, on loopback and free ports, in a temporary folder, and torn down at the end:
 *
 *   load ──► nginx ──► N server processes ──► PgBouncer (transaction mode) ──► primary
 *                            │    │                         └──────────────► replica (catalogue reads)
 *                            │    └──► Redis (shared limits)
 *                            └──► primary, directly (LISTEN, migrations)
 *
 * The primary is a private cluster made with initdb, and the replica a streaming standby of it
 * made with `pg_basebackup -R`. The machine's own PostgreSQL is left alone: it allows no
 * replication connection (pg_hba.conf has no `replication` line), so a replica of it would
 * mean editing its configuration, and a base backup would copy every database on it.
 *
 * For 1 and 2 server processes (CLUSTER_PROCESSES, default "1,2"), each without and with the
 * replica, it runs the hot paths of bench/scenarios.ts through nginx (BENCH_ONLY overrides the
 * default choice), then checks the books: every paid order the load saw is in the database
 * once, each paid by exactly one ledger entry of its amount, 账务核对 (checkBooks) finds no
 * problem, and the replica holds the same orders and ledger as the primary. Prints a table and
 * writes bench/results/<time>-cluster.json. BENCH_SECONDS (default 5) and BENCH_CONNECTIONS
 * (default 32) as in `npm run bench`. Needs PostgreSQL's server binaries (pg_config --bindir),
 * /usr/sbin/pgbouncer, /usr/sbin/nginx and redis-server; as root, PostgreSQL and PgBouncer
 * run as the `postgres` user (they refuse root).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFile, chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openDatabase } from '../src/db/client';
import { loadSecrets } from '../src/lib/secrets';
import { checkBooks } from '../src/modules/admin/books';
import { startServer, stopChild } from './children';
import { measurer, type Result } from './measure';
import { seedOrderBench } from './orders';
import { SCENARIOS as ALL } from './scenarios';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const only = (
  process.env.BENCH_ONLY ??
  'product list|product detail|search 华为手机|each query new|personal/info|submit+pay 32 specs'
).split('|');
const SCENARIOS = ALL.filter((s) => only.some((part) => s.name.includes(part)));
const PROCESSES = (process.env.CLUSTER_PROCESSES ?? '1,2').split(',').map(Number);
const serverDir = path.resolve(import.meta.dirname, '..');

const PG_BIN = process.env.PG_BIN ?? execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';
const REDIS = process.env.REDIS_SERVER ?? 'redis-server';
/** PostgreSQL and PgBouncer will not run as root; this user runs them then. */
const PG_OS_USER = process.env.BENCH_PG_USER ?? 'postgres';
const asRoot = process.getuid?.() === 0;
const DB_USER = 'bench';

const { measure } = measurer({ seconds, connections });

// --- processes ------------------------------------------------------------------------------
const asPgUser = (cmd: string, args: string[]): [string, string[]] =>
  asRoot ? ['runuser', ['-u', PG_OS_USER, '--', cmd, ...args]] : [cmd, args];

/** Runs a command to its end (as the PostgreSQL user where needed); its stderr in the error. */
function run(cmd: string, args: string[], pgUser = false) {
  const [file, argv] = pgUser ? asPgUser(cmd, args) : [cmd, args];
  try {
    execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`${cmd} ${args.join(' ')} failed: ${stderr || (error as Error).message}`);
  }
}

const daemons: { name: string; child: ChildProcess }[] = [];

/** Starts a long-running process in the foreground and waits until its port accepts. */
async function daemon(name: string, cmd: string, args: string[], port: number, pgUser = false) {
  const [file, argv] = pgUser ? asPgUser(cmd, args) : [cmd, args];
  const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  daemons.push({ name, child });
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) throw new Error(`${name} did not listen on ${port}: ${stderr}`);
    await sleep(100);
  }
  return child;
}

async function stopDaemon(child: ChildProcess) {
  const index = daemons.findIndex((d) => d.child === child);
  if (index >= 0) daemons.splice(index, 1);
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** A port nothing listens on now (the kernel's pick), so nothing of the machine is disturbed. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

// --- the topology -------------------------------------------------------------------------------
const root = await mkdtemp(path.join(tmpdir(), 'sitemall-cluster-'));
// nginx's workers (nobody) and the PostgreSQL user reach their folders below it.
await chmod(root, 0o755);
const dir = (name: string) => path.join(root, name);
const ports = {
  primary: await freePort(),
  replica: await freePort(),
  bouncer: await freePort(),
  redis: await freePort(),
  nginx: await freePort(),
};
const url = (port: number, database = 'sitemall') => `postgres://${DB_USER}@127.0.0.1:${port}/${database}`;
const primaryUrl = url(ports.primary);
const clusters: string[] = [];
const servers: ChildProcess[] = [];
let nginx: ChildProcess | undefined;

async function pgFolder(name: string) {
  const folder = dir(name);
  await mkdir(folder, { mode: 0o700 });
  if (asRoot) {
    const { uid, gid } = pgIds();
    await chown(folder, uid, gid);
  }
  return folder;
}

function pgIds() {
  const uid = Number(execFileSync('id', ['-u', PG_OS_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', PG_OS_USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

async function startPostgres(folder: string, port: number) {
  const log = path.join(dir('logs'), `${path.basename(folder)}.log`);
  run(path.join(PG_BIN, 'pg_ctl'), ['-D', folder, '-l', log, '-w', '-t', '60', 'start'], true);
  clusters.push(folder);
  if (!(await accepts(port))) throw new Error(`PostgreSQL in ${folder} does not listen on ${port}`);
}

async function startDatabases() {
  const primary = await pgFolder('primary');
  await pgFolder('sockets');
  await pgFolder('logs');
  run(
    path.join(PG_BIN, 'initdb'),
    ['-D', primary, '-U', DB_USER, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8'],
    true,
  );
  // wal_level replica and 10 WAL senders are PostgreSQL 15's defaults: said here so they stay.
  await appendFile(
    path.join(primary, 'postgresql.conf'),
    `\nport = ${ports.primary}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir('sockets')}'\n` +
      `wal_level = replica\nmax_wal_senders = 10\nmax_connections = 200\n`,
  );
  await startPostgres(primary, ports.primary);
  const admin = new pg.Client({ connectionString: url(ports.primary, 'postgres') });
  await admin.connect();
  await admin.query('create database sitemall');
  await admin.end();
}

async function startReplica() {
  const replica = await pgFolder('replica');
  // -R writes standby.signal and primary_conninfo: the copy starts as a streaming standby.
  run(
    path.join(PG_BIN, 'pg_basebackup'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.primary),
      '-U',
      DB_USER,
      '-D',
      replica,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ],
    true,
  );
  await appendFile(path.join(replica, 'postgresql.auto.conf'), `\nport = ${ports.replica}\n`);
  await startPostgres(replica, ports.replica);
  const client = new pg.Client({ connectionString: url(ports.replica) });
  await client.connect();
  const { rows } = await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
  await client.end();
  if (!rows[0]?.standby) throw new Error('the replica is not in recovery');
}

async function startBouncer() {
  const folder = await pgFolder('pgbouncer');
  const ini = path.join(folder, 'pgbouncer.ini');
  await writeFile(path.join(folder, 'userlist.txt'), `"${DB_USER}" ""\n`);
  await writeFile(
    ini,
    `[databases]
sitemall = host=127.0.0.1 port=${ports.primary} dbname=sitemall
sitemall_replica = host=127.0.0.1 port=${ports.replica} dbname=sitemall

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${ports.bouncer}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(folder, 'userlist.txt')}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,options
logfile = ${path.join(folder, 'pgbouncer.log')}
`,
  );
  if (asRoot) {
    const { uid, gid } = pgIds();
    for (const f of ['pgbouncer.ini', 'userlist.txt']) await chown(path.join(folder, f), uid, gid);
  }
  await daemon('pgbouncer', PGBOUNCER, [ini], ports.bouncer, true);
}

let nginxRuns = 0;
async function startNginx(upstreams: number[]) {
  nginxRuns += 1;
  const folder = dir(`nginx-${nginxRuns}`);
  await mkdir(folder);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    await mkdir(path.join(folder, temp));
    await chmod(path.join(folder, temp), 0o777);
  }
  const conf = path.join(folder, 'nginx.conf');
  // One worker: the servers and the load generator need the machine's other core.
  await writeFile(
    conf,
    `worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream sitemall {
    least_conn;
${upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${ports.nginx};
    location / {
      proxy_pass http://sitemall;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`,
  );
  return daemon(
    'nginx',
    NGINX,
    ['-p', folder, '-e', `${folder}/error.log`, '-c', conf, '-g', 'daemon off;'],
    ports.nginx,
  );
}

/** N server processes, one after the other (the first finds the schema migrated already). */
async function startServers(count: number, replica: boolean) {
  const upstreams: number[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const child = await startServer(port, dir('data'), {
      DATABASE_URL: url(ports.bouncer),
      DATABASE_DIRECT_URL: primaryUrl,
      // Debian 12's PgBouncer is 1.18: no max_prepared_statements (1.21) in transaction mode.
      DATABASE_PREPARED: 'off',
      ...(replica ? { DATABASE_REPLICA_URL: url(ports.bouncer, 'sitemall_replica') } : {}),
      REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${ports.nginx}`,
    });
    servers.push(child);
    upstreams.push(port);
  }
  return upstreams;
}

async function stopServers() {
  await Promise.all(servers.splice(0).map(stopChild));
}

async function teardown() {
  await stopServers().catch(() => {});
  for (const { child } of daemons.splice(0).reverse()) await stopDaemon(child).catch(() => {});
  for (const folder of clusters.splice(0).reverse()) {
    try {
      run(path.join(PG_BIN, 'pg_ctl'), ['-D', folder, '-m', 'fast', '-w', 'stop'], true);
    } catch (error) {
      console.error((error as Error).message);
    }
  }
  await rm(root, { recursive: true, force: true });
}

// --- the checks after the load -----------------------------------------------------------------
interface Invariants {
  paidSeen: number;
  paidInDatabase: number;
  payEntriesTwice: number;
  paidWithoutTheirEntry: number;
  booksProblems: number;
  booksChecked: number;
  replicaSameOrders: boolean;
  replicaSameLedger: boolean;
}

async function checkInvariants(memberIds: number[], since: Date, paidSeen: number): Promise<Invariants> {
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  const one = async (text: string, values: unknown[] = []) =>
    Number(Object.values((await client.query(text, values)).rows[0] ?? {})[0] ?? 0);
  try {
    const paidInDatabase = await one(
      'select count(*) from mall_order where member_id = any($1) and paid_at >= $2',
      [memberIds, since],
    );
    const payEntriesTwice = await one(
      `select count(*) from (select order_no from points_entry where type = 'pay' and member_id = any($1)
        group by order_no having count(*) > 1) twice`,
      [memberIds],
    );
    const paidWithoutTheirEntry = await one(
      `select count(*) from mall_order o where o.member_id = any($1) and o.paid_at is not null and o.pay_way = 'ye'
        and o.pay_amount <> coalesce((select -sum(e.amount) from points_entry e
          where e.order_no = o.order_no and e.type = 'pay'), 0)`,
      [memberIds],
    );
    const database = await openDatabase({ databaseUrl: primaryUrl });
    const books = await checkBooks(database, 'all').finally(() => database.close());
    // The replica has replayed everything once its replay position reaches the primary's.
    const lsn = (await client.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0]
      ?.lsn;
    const replica = new pg.Client({ connectionString: url(ports.replica) });
    await replica.connect();
    try {
      for (let i = 0; i < 100; i++) {
        const { rows } = await replica.query<{ caught: boolean }>(
          'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught',
          [lsn],
        );
        if (rows[0]?.caught) break;
        await sleep(100);
      }
      const fingerprint =
        "select count(*)::text || '/' || coalesce(sum(pay_amount), 0)::text as f from mall_order";
      const ledger = "select count(*)::text || '/' || coalesce(sum(amount), 0)::text as f from points_entry";
      const same = async (text: string) =>
        (await client.query(text)).rows[0]?.f === (await replica.query(text)).rows[0]?.f;
      return {
        paidSeen,
        paidInDatabase,
        payEntriesTwice,
        paidWithoutTheirEntry,
        booksProblems: books.checks.reduce((n, c) => n + c.problems.length, 0),
        booksChecked: books.checks.reduce((n, c) => n + c.checked, 0),
        replicaSameOrders: await same(fingerprint),
        replicaSameLedger: await same(ledger),
      };
    } finally {
      await replica.end();
    }
  } finally {
    await client.end();
  }
}

// --- the run -----------------------------------------------------------------------------------
const configs = PROCESSES.flatMap((processes) => [
  { processes, replica: false },
  { processes, replica: true },
]);
const rows: { config: string; result: Result }[] = [];
let invariants: Invariants | undefined;
const load = { before: loadavg(), after: [] as number[] };
process.once('SIGINT', () => {
  void teardown().finally(() => process.exit(130));
});
try {
  console.log(`cluster bench in ${root}; ports ${JSON.stringify(ports)}`);
  await startDatabases();
  await mkdir(dir('data'));
  const database = { databaseUrl: primaryUrl, dataDir: dir('data') };
  const seed = await seedOrderBench(database);
  for (const scenario of SCENARIOS) await scenario.beforeServer?.(database);
  // Created once here: processes starting together must not each make their own keys.
  await loadSecrets(dir('data'));
  // After the seed: the base backup carries the demo data, streaming carries what the load writes.
  await startReplica();
  await startBouncer();
  await daemon(
    'redis',
    REDIS,
    ['--port', String(ports.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', root],
    ports.redis,
  );
  const since = new Date();
  for (const config of configs) {
    const name = `${config.processes} process${config.processes > 1 ? 'es' : ''}, ${config.replica ? 'replica' : 'primary only'}`;
    console.log(`\n— ${name}`);
    const upstreams = await startServers(config.processes, config.replica);
    nginx = await startNginx(upstreams);
    const base = `http://127.0.0.1:${ports.nginx}`;
    try {
      rows.push({
        config: name,
        result: await measure(base, { name: 'GET /healthz', method: 'GET', path: '/healthz' }),
      });
      for (const scenario of SCENARIOS) {
        await scenario.prepare?.(base);
        const result = await measure(base, scenario);
        console.log(`  ${result.name}: ${result.rps} req/s`);
        rows.push({ config: name, result });
      }
    } finally {
      await stopDaemon(nginx);
      await stopServers();
    }
  }
  const paidSeen = rows
    .filter((r) => r.result.name.startsWith('submit+pay'))
    .reduce((n, r) => n + (r.result.count ?? 0), 0);
  invariants = await checkInvariants(seed.memberIds, since, paidSeen);
  load.after = loadavg();
} finally {
  await teardown();
}

// --- the report ----------------------------------------------------------------------------------
const names = [...new Set(rows.map((r) => r.result.name))];
const configNames = [...new Set(rows.map((r) => r.config))];
console.log(
  `\n${seconds}s each, ${connections} connections, ${cpus().length} cores, load average before ${load.before
    .map((l) => l.toFixed(2))
    .join(' ')}, after ${load.after.map((l) => l.toFixed(2)).join(' ')}`,
);
console.log(
  'req/s through nginx (p95 ms of the one-connection and order loops in brackets; errors/failed if any)',
);
console.table(
  names.map((n) => {
    const line: Record<string, string> = { path: n };
    for (const c of configNames) {
      const r = rows.find((row) => row.config === c && row.result.name === n)?.result;
      if (!r) continue;
      const problems = r.errors + r.failed > 0 ? ` ${r.errors}/${r.failed}!` : '';
      line[c] = `${r.rps}${r.p95 !== undefined ? ` (${r.p95})` : ''}${problems}`;
    }
    return line;
  }),
);
const held =
  !!invariants &&
  invariants.paidSeen === invariants.paidInDatabase &&
  invariants.payEntriesTwice === 0 &&
  invariants.paidWithoutTheirEntry === 0 &&
  invariants.booksProblems === 0 &&
  invariants.replicaSameOrders &&
  invariants.replicaSameLedger;
console.log('invariants:', invariants, held ? 'HOLD' : 'BROKEN');

const resultsDir = path.join(serverDir, 'bench', 'results');
await mkdir(resultsDir, { recursive: true });
const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*/, '');
const file = path.join(resultsDir, `${stamp}-cluster.json`);
await writeFile(
  file,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      topology: 'nginx → N processes → PgBouncer (transaction) → private primary + streaming replica; Redis',
      seconds,
      connections,
      cores: cpus().length,
      node: process.version,
      load,
      rows: rows.map((r) => ({ config: r.config, ...r.result })),
      invariants,
      held,
    },
    null,
    2,
  )}\n`,
);
console.log(`results: ${path.relative(process.cwd(), file)}`);
process.exit(held ? 0 : 1);
