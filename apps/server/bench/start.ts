/**
 * npm run bench:start: how long `npm start` takes to the first page, and the server's memory.
 * Starts `npm start` (repository root) twice on the same DATA_DIR (or DATABASE_URL): the first
 * start builds what changed and seeds the demo data on an empty database, the second is the
 * everyday restart. Each time it polls the storefront page every 50 ms from the moment it spawns
 * `npm start` until the page answers 200; then, after the server settled for 3 s, reads the
 * resident memory (VmRSS, /proc) of the server process. Linux only.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const port = 18_000 + Math.floor(Math.random() * 1000);
const page = `http://127.0.0.1:${port}/shoppingmall/home?siteId=719`;
const dataDir = process.env.DATA_DIR ?? (await mkdtemp(path.join(tmpdir(), 'sitemall-start-')));

/**
 * The compiled server's process in group `group`: resident memory (MB) and CPU seconds used so
 * far (user + system), which the machine's other load does not inflate as it does wall time.
 */
async function serverProcess(group: number): Promise<{ rssMb: number; cpuSeconds: number } | undefined> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // After "(comm)": state, ppid, pgrp, ... utime and stime are fields 14 and 15 (ticks of 1/100 s).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pgrp = Number(fields[2]);
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      // node itself, not the shell npm runs it from
      if (pgrp !== group || path.basename(argv[0] ?? '') !== 'node' || !argv[1]?.endsWith('dist/main.js'))
        continue;
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      return {
        rssMb: Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024),
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100,
      };
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}

async function startOnce() {
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, OPS_PORT: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  try {
    for (;;) {
      if (exited) throw new Error('npm start exited before the first page');
      const ok = await fetch(page)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await serverProcess(child.pid as number))?.cpuSeconds;
    await sleep(3000);
    return { seconds, cpu, rssMb: (await serverProcess(child.pid as number))?.rssMb };
  } finally {
    process.kill(-(child.pid as number), 'SIGTERM');
    while (!exited) await sleep(50);
  }
}

const database = process.env.DATABASE_URL ? 'PostgreSQL' : `PGlite (${dataDir})`;
const first = await startOnce();
const second = await startOnce();
const row = (start: string, r: typeof first) => ({
  start,
  's to first page': r.seconds.toFixed(1),
  'server CPU s by then': r.cpu,
  'server RSS MB': r.rssMb,
});
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} cores`,
);
console.table([row('first (build if changed, seed if empty)', first), row('second', second)]);
const rssGoal = process.env.DATABASE_URL ? 200 : 350;
console.log(
  `${database}: second start ${second.seconds <= 5 ? 'PASS' : 'FAIL'} (goal ≤ 5 s), RSS ${(second.rssMb ?? Infinity) <= rssGoal ? 'PASS' : 'FAIL'} (goal ≤ ${rssGoal} MB)`,
);
