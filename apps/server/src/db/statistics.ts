import { sql } from 'drizzle-orm';
import { type Job, startJob } from '../lib/job';
import type { Database } from './client';

/** How often the server analyzes a database nobody else analyzes. */
export const STATISTICS_INTERVAL_MS = 3_600_000;

/**
 * Whether the planner's statistics are left to the server: PGlite has no autovacuum (and counts
 * no changes: n_mod_since_analyze stays 0), and a PostgreSQL may run with autovacuum off (this
 * machine's does). Then every plan is made on the tables as the seed or the last migration left
 * them: planned on an empty mall_order, reading an order by its number scanned all of the
 * member's orders (521 of them for one in the bench).
 */
export async function statisticsLeftToUs(database: Database): Promise<boolean> {
  if (database.kind === 'pglite') return true;
  const { rows } = (await database.db.execute(
    sql`select current_setting('autovacuum') = 'off' as off`,
  )) as unknown as { rows: { off: boolean }[] };
  return rows[0]?.off === true;
}

/**
 * ANALYZE every `intervalMs` where nobody else does (statisticsLeftToUs); undefined where
 * autovacuum does. On PGlite it holds the one connection for as long as it runs: the statistics
 * sample at most 30,000 rows of a table, so that is bounded, not growing with the data.
 */
export async function startStatistics(
  database: Database,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): Promise<Job | undefined> {
  if (!(await statisticsLeftToUs(database))) return undefined;
  return startJob(() => database.db.execute(sql`analyze`), {
    intervalMs: options.intervalMs ?? STATISTICS_INTERVAL_MS,
    onError: options.onError,
  });
}
