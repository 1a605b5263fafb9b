import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { mallSite } from '../modules/site/site.tables';
import { testDatabase, workerDatabaseUrl } from '../test/harness';
import { type Database, openDatabase } from './client';

/**
 * Behind PgBouncer < 1.21 in transaction mode (Debian 12 ships 1.18) a statement prepared by
 * name on one server connection is missing on the next: DATABASE_PREPARED=off sends none.
 */

const PG_URL = workerDatabaseUrl();

describe.skipIf(!PG_URL)('named prepared statements (PostgreSQL)', () => {
  const opened: Database[] = [];
  afterAll(() => Promise.all(opened.map((d) => d.close())));

  /** Runs a drizzle prepared query and says whether the server now holds it by name. */
  async function leavesNamedStatement(namedStatements: boolean) {
    await testDatabase(); // the worker's database, created and migrated
    const database = await openDatabase({ databaseUrl: PG_URL, namedStatements });
    opened.push(database);
    const name = `pooler_probe_${namedStatements ? 'on' : 'off'}`;
    return database.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: mallSite.id })
        .from(mallSite)
        .where(eq(mallSite.id, sql.placeholder('id')))
        .prepare(name)
        .execute({ id: 719 });
      expect(Array.isArray(rows)).toBe(true);
      const held = await tx.execute(
        sql`select count(*)::int as n from pg_prepared_statements where name = ${name}`,
      );
      return (held as unknown as { rows: { n: number }[] }).rows[0]?.n === 1;
    });
  }

  it('prepares by name by default, and not at all with namedStatements off', async () => {
    expect(await leavesNamedStatement(true)).toBe(true);
    expect(await leavesNamedStatement(false)).toBe(false);
  });
});
