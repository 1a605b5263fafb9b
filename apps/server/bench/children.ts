/** The bench's child processes: the product's server and the ceiling server, each its own process. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const serverDir = path.resolve(import.meta.dirname, '..');
export const randomPort = () => 18_000 + Math.floor(Math.random() * 1000);

/** Starts a child process and resolves once it prints `ready`. */
export async function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes(ready) && resolve());
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return child;
}

export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

let compiled: { args: string[]; env: Record<string, string> } | undefined;

/**
 * What `npm start` runs: the compiled server (built first when its sources changed, as `npm
 * start` does), with the variables its script sets (glibc's malloc thresholds). Not `tsx` on the
 * sources: its transform adds work of its own to every request (esbuild's `__name` on each
 * function made, 1.4 % of a cached read's samples in one profile).
 */
function compiledServer(): { args: string[]; env: Record<string, string> } {
  if (compiled) return compiled;
  execFileSync(process.execPath, [path.join(serverDir, '../../scripts/build-if-changed.mjs'), 'server'], {
    stdio: 'inherit',
  });
  const { scripts } = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  const start = (scripts.start as string).slice((scripts.start as string).lastIndexOf('&&'));
  const env = Object.fromEntries([...start.matchAll(/\b([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
  compiled = { args: ['dist/main.js'], env };
  return compiled;
}

/** The product's server, as `npm start` runs it; the per-IP login guard is lifted (one address). */
export function startServer(port: number, dataDir: string, env: NodeJS.ProcessEnv = {}) {
  // BENCH_PROFILE=<dir>: each server writes a V8 CPU profile there when it stops (open it in
  // Chrome's DevTools or speedscope) — where a path's time goes, measured under the bench's load.
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
    : [];
  const server = compiledServer();
  return startChild(
    [...profile, ...server.args],
    {
      ...server.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_LIMIT_PER_IP: '1000000',
      // A server already running here holds the operators' port; the bench does not need it.
      OPS_PORT: 'off',
      ...env,
    },
    'Sitemall is running',
  );
}

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = 100;

/**
 * CPU seconds a child has used (user + system, /proc/<pid>/stat), or undefined off Linux. What
 * a request costs the server holds still when other processes take the cores: the ratios swing
 * with the load on this machine, the CPU per request far less.
 */
export function cpuSeconds(child: ChildProcess): number | undefined {
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
