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
  if (problems.length > 0) throw new Error(`Invalid configuration:\n- ${problems.join('\n- ')}`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl,
    redisUrl,
    logLevel,
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
  };
}
