import { isIP } from 'node:net';
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
  /** TRUST_PROXY: proxies whose X-Forwarded-For names the client (addresses/CIDRs, or a hop count). */
  trustProxy: false | number | string[];
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
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  if (typeof trustProxy === 'string') problems.push(trustProxy);
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
    trustProxy: trustProxy as Config['trustProxy'],
  };
}
