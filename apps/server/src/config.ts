import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './lib/paths';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Absent: embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** DATABASE_REPLICA_URL: a streaming replica that serves the public catalogue reads. */
  replicaUrl?: string;
  /** DATABASE_DIRECT_URL: the primary without a pooler, for LISTEN and migrations. */
  directUrl?: string;
  /** DATABASE_PREPARED=off: no named prepared statements (PgBouncer < 1.21 in transaction mode). */
  namedStatements: boolean;
  redisUrl?: string;
  logLevel: string;
  /** Built storefront served at /shoppingmall/. */
  webDist: string;
  /** Built operator console served at /admin/. */
  adminDist: string;
  /** Expose the simulators' own endpoints (/simulator/...: SMS outbox, partner tickets). */
  simulators: boolean;
  /** DEMO=on: a public demo; the start banner and every simulator answer say so. */
  demo: boolean;
  /** The operators' listener (/metrics, detailed /readyz); undefined when OPS_PORT is off. */
  ops?: { port: number; host: string };
  /** Login-type calls one client IP may make per minute (brute-force guard). */
  loginsPerIpMinute: number;
  /** Minutes an unpaid order waits for payment before it expires (status 41). */
  orderExpireMinutes: number;
  /** Where WeChat Pay's notifies reach this server (notify_url is built on it). */
  publicUrl: string;
  /** TRUST_PROXY: proxies whose X-Forwarded-For names the client (addresses/CIDRs, or a hop count). */
  trustProxy: false | number | string[];
  /** Seconds start-up waits for the database before it gives up (DB_CONNECT_TIMEOUT). */
  dbConnectTimeoutSeconds: number;
  /** Server processes `npm run start:cluster` keeps running (WORKERS; default: one per CPU). */
  workers: number;
}

/**
 * TRUST_PROXY: off (default), a hop count, or a comma-separated list of proxy addresses and
 * CIDRs. Only then does X-Forwarded-For decide the client address of the per-address limits.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] | string {
  const text = (value ?? '').trim();
  if (text === '' || text.toLowerCase() === 'off') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= 10 ? hops : 'TRUST_PROXY hop count must be 1-10';
  }
  const entries = text.split(',').map((e) => e.trim());
  const bad = entries.find((e) => {
    const [address, bits, extra] = e.split('/');
    const family = isIP(address ?? '');
    if (family === 0 || extra !== undefined) return true;
    if (bits === undefined) return false;
    const n = Number(bits);
    return !/^\d+$/.test(bits) || n > (family === 4 ? 32 : 128);
  });
  return bad === undefined ? entries : `TRUST_PROXY: "${bad}" is not an address or CIDR`;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const repoRoot = REPO_ROOT;

/** Reads and validates the environment once; throws with every problem listed. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be 0-65535, got "${env.PORT}"`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const replicaUrl = env.DATABASE_REPLICA_URL || undefined;
  const directUrl = env.DATABASE_DIRECT_URL || undefined;
  for (const [name, value] of [
    ['DATABASE_REPLICA_URL', replicaUrl],
    ['DATABASE_DIRECT_URL', directUrl],
  ] as const) {
    if (value && !databaseUrl) problems.push(`${name} needs DATABASE_URL (the primary)`);
    else if (value && !/^postgres(ql)?:\/\//.test(value))
      problems.push(`${name} must start with postgres:// or postgresql://`);
  }
  const prepared = (env.DATABASE_PREPARED || 'on').toLowerCase();
  if (!['on', 'off'].includes(prepared)) problems.push('DATABASE_PREPARED must be on or off');
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    problems.push('REDIS_URL must start with redis:// or rediss://');
  const host = env.HOST || '127.0.0.1';
  const demo = (env.DEMO || 'off').toLowerCase();
  if (!['on', 'off'].includes(demo)) problems.push('DEMO must be on or off');
  // The simulators hand anyone a login for any member and fake payments: on by themselves only
  // where nobody else can reach them (loopback), elsewhere only as an announced demo.
  const simulators = (env.SIMULATORS || (isLoopback(host) || demo === 'on' ? 'on' : 'off')).toLowerCase();
  if (!['on', 'off'].includes(simulators)) problems.push('SIMULATORS must be on or off');
  if (simulators === 'on' && demo !== 'on' && !isLoopback(host)) problems.push(exposedSimulators(host));
  const ops = readOps(env, port, problems);
  const loginsPerIpMinute = Number(env.LOGIN_LIMIT_PER_IP ?? 30);
  if (!Number.isInteger(loginsPerIpMinute) || loginsPerIpMinute < 1)
    problems.push('LOGIN_LIMIT_PER_IP must be a positive integer');
  const orderExpireMinutes = Number(env.ORDER_EXPIRE_MINUTES ?? 30);
  if (!Number.isInteger(orderExpireMinutes) || orderExpireMinutes < 1 || orderExpireMinutes > 10_080)
    problems.push('ORDER_EXPIRE_MINUTES must be an integer from 1 to 10080');
  const publicUrl = (env.PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) problems.push('PUBLIC_URL must be an http(s) URL');
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  if (typeof trustProxy === 'string') problems.push(trustProxy);
  const dbConnectTimeoutSeconds = Number(env.DB_CONNECT_TIMEOUT ?? 60);
  if (!Number.isInteger(dbConnectTimeoutSeconds) || dbConnectTimeoutSeconds < 0)
    problems.push('DB_CONNECT_TIMEOUT must be a whole number of seconds');
  const workers = Number(env.WORKERS ?? availableParallelism());
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    problems.push('WORKERS must be an integer from 1 to 64');
  if (workers > 1 && env.WORKERS && !databaseUrl)
    problems.push('WORKERS above 1 needs DATABASE_URL (an embedded PGlite has one owner)');
  if (problems.length > 0) throw new Error(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl,
    replicaUrl,
    directUrl,
    namedStatements: prepared === 'on',
    redisUrl,
    logLevel,
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    adminDist: path.resolve(env.ADMIN_DIST ?? path.join(repoRoot, 'apps/admin/dist')),
    simulators: simulators === 'on',
    demo: demo === 'on',
    ops,
    loginsPerIpMinute,
    orderExpireMinutes,
    publicUrl,
    trustProxy: trustProxy as Config['trustProxy'],
    dbConnectTimeoutSeconds,
    workers: databaseUrl ? workers : 1,
  };
}

/** 127.0.0.0/8, ::1 or localhost: only this machine can connect. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1') return true;
  if (h.startsWith('::ffff:')) return isLoopback(h.slice('::ffff:'.length));
  return isIP(h) === 4 && h.startsWith('127.');
}

const exposedSimulators = (host: string) =>
  `HOST=${host} can be reached from other machines, and SIMULATORS=on would let anyone there log in as any member, read SMS and image codes and fake payments. Set one of:
  SIMULATORS=off            real shoppers (see "Going live" in README.md)
  SIMULATORS=on DEMO=on     a public demo: every simulator answer and the start banner say so
  HOST=127.0.0.1            this machine only`;

export const DEFAULT_OPS_PORT = 9464;

/** OPS_PORT (default 9464; 0 or off: no listener) on OPS_HOST (default loopback). */
function readOps(env: NodeJS.ProcessEnv, port: number, problems: string[]): Config['ops'] {
  const value = (env.OPS_PORT || String(DEFAULT_OPS_PORT)).toLowerCase();
  if (value === 'off' || value === '0') return undefined;
  const opsPort = Number(value);
  if (!Number.isInteger(opsPort) || opsPort < 1 || opsPort > 65535) {
    problems.push(`OPS_PORT must be 1-65535, 0 or off, got "${env.OPS_PORT}"`);
  } else if (opsPort === port) {
    problems.push(`OPS_PORT must differ from PORT (${port})`);
  }
  return { port: opsPort, host: env.OPS_HOST || '127.0.0.1' };
}
