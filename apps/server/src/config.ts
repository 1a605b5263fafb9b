import { availableParallelism } from 'node:os';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Absent: embedded PGlite under dataDir. */
  databaseUrl?: string;
  redisUrl?: string;
  logLevel: string;
  /** Built storefront served at /shoppingmall/. */
  webDist: string;
  /** Expose the simulators' own endpoints (/simulator/...: SMS outbox, partner tickets). */
  simulators: boolean;
  /** Login-type calls one client IP may make per minute (brute-force guard). */
  loginsPerIpMinute: number;
  /** Minutes an unpaid order waits for payment before it expires (status 41). */
  orderExpireMinutes: number;
  /** Where WeChat Pay's notifies reach this server (notify_url is built on it). */
  publicUrl: string;
  /** Seconds start-up waits for the database before it gives up (DB_CONNECT_TIMEOUT). */
  dbConnectTimeoutSeconds: number;
  /** Server processes `npm run start:cluster` keeps running (WORKERS; default: one per CPU). */
  workers: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const repoRoot = path.resolve(import.meta.dirname, '../../..');

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
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    problems.push('REDIS_URL must start with redis:// or rediss://');
  const simulators = (env.SIMULATORS ?? 'on').toLowerCase();
  if (!['on', 'off'].includes(simulators)) problems.push('SIMULATORS must be on or off');
  const loginsPerIpMinute = Number(env.LOGIN_LIMIT_PER_IP ?? 30);
  if (!Number.isInteger(loginsPerIpMinute) || loginsPerIpMinute < 1)
    problems.push('LOGIN_LIMIT_PER_IP must be a positive integer');
  const orderExpireMinutes = Number(env.ORDER_EXPIRE_MINUTES ?? 30);
  if (!Number.isInteger(orderExpireMinutes) || orderExpireMinutes < 1 || orderExpireMinutes > 10_080)
    problems.push('ORDER_EXPIRE_MINUTES must be an integer from 1 to 10080');
  const publicUrl = (env.PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) problems.push('PUBLIC_URL must be an http(s) URL');
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
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl,
    redisUrl,
    logLevel,
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    simulators: simulators === 'on',
    loginsPerIpMinute,
    orderExpireMinutes,
    publicUrl,
    dbConnectTimeoutSeconds,
    workers: databaseUrl ? workers : 1,
  };
}
