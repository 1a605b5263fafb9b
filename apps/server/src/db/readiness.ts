import type { Database, DbLog } from './client';

/** A probe must answer even when a connection attempt hangs (a host that drops packets). */
export const READINESS_TIMEOUT_MS = 2_000;

export type Readiness = { ready: true } | { ready: false; error: unknown };

/**
 * Whether the database can serve requests now: `database.ping()` (a real query through the pool
 * and, on PostgreSQL, a new connection), bounded by a timeout. Mountable on any listener.
 */
export async function checkReadiness(
  database: Database,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([database.ping(), timeout]);
    return { ready: true };
  } catch (error) {
    return { ready: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Start-up waits for the database instead of exiting at once (it may start after us, or be
 * restarting): tries again with backoff, logging each failure, until `timeoutMs` has passed
 * (plus the last try, at most 4 s), then throws the last error. `sleep` is injectable so tests need not wait.
 */
export async function waitForDatabase(
  database: Database,
  options: { timeoutMs: number; log: DbLog; sleep?: (ms: number) => Promise<void> },
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    const check = await checkReadiness(database, READINESS_TIMEOUT_MS * 2);
    if (check.ready) {
      if (attempt > 1) options.log.info({ attempt }, 'database reachable');
      return;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      const reason = check.error instanceof Error ? check.error.message : String(check.error);
      throw new Error(`database not reachable after ${Math.round(options.timeoutMs / 1000)} s: ${reason}`);
    }
    const delay = Math.min(250 * 2 ** (attempt - 1), 5_000, left);
    options.log.warn(
      { err: check.error, attempt, retryInMs: delay },
      'waiting for the database (DB_CONNECT_TIMEOUT bounds the wait)',
    );
    await sleep(delay);
  }
}
