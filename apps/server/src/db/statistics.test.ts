import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../test/harness';
import { startStatistics, statisticsLeftToUs } from './statistics';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await t.db.execute(sql`create table if not exists statistics_probe (id int)`);
});
afterAll(async () => {
  await t.db.execute(sql`drop table if exists statistics_probe`);
  await t.close();
});

/** The planner's idea of the probe table's rows (-1 or 0 until it is analyzed). */
async function plannedRows() {
  const { rows } = (await t.db.execute(
    sql`select reltuples::int as n from pg_class where relname = 'statistics_probe'`,
  )) as unknown as { rows: { n: number }[] };
  return rows[0]?.n;
}

describe('planner statistics', () => {
  it('are left to the server on PGlite, and on PostgreSQL when autovacuum is off', async () => {
    const { rows } = (await t.db.execute(
      sql`select current_setting('autovacuum') as setting`,
    )) as unknown as {
      rows: { setting: string }[];
    };
    expect(await statisticsLeftToUs(t.database)).toBe(
      t.database.kind === 'pglite' || rows[0]?.setting === 'off',
    );
  });

  it('are made again on the interval where nobody else makes them', async () => {
    await t.db.execute(sql`insert into statistics_probe select generate_series(1, 1000)`);
    expect(await plannedRows()).toBeLessThan(1000);
    const job = await startStatistics(t.database, { intervalMs: 50 });
    // Where autovacuum runs, the server leaves it alone (this machine's PostgreSQL has it off).
    if (!job) return expect(await statisticsLeftToUs(t.database)).toBe(false);
    try {
      await expect.poll(plannedRows, { timeout: 10_000, interval: 50 }).toBe(1000);
    } finally {
      await job.stop();
    }
  });
});
