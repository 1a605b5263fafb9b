/**
 * The database without the product's layers, for the ceilings: PostgreSQL through a `pg` pool of
 * the product's size (10) with named (prepared) statements, or a PGlite folder (named statements too).
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { type NamedStatementClient, withNamedStatements } from '../src/db/pglite-statements';

type Row = Record<string, unknown>;
export interface RawQuery {
  /** `name` makes it a prepared statement on PostgreSQL (parsed once per connection). */
  query(name: string, text: string, params: unknown[]): Promise<Row[]>;
}
export interface RawDb extends RawQuery {
  transaction<T>(fn: (tx: RawQuery) => Promise<T>): Promise<T>;
  /** The planner's statistics of every table made again (ANALYZE). */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

export async function openRaw(options: { databaseUrl?: string; dataDir?: string }): Promise<RawDb> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return {
      query: async (name, text, values) => (await pool.query({ name, text, values })).rows,
      async transaction(fn) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          const result = await fn({
            query: async (name, text, values) => (await client.query({ name, text, values })).rows,
          });
          await client.query('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
      analyze: async () => {
        await pool.query('analyze');
      },
      close: () => pool.end(),
    };
  }
  if (!options.dataDir) throw new Error('a raw PGlite needs its folder');
  const client = await PGlite.create({
    dataDir: path.join(options.dataDir, 'pglite'),
    extensions: { pg_trgm },
  });
  // The product's way of running statements on PGlite (each text parsed once, one call per
  // execution): the ceiling is the best the database does, not PGlite's slower `query`.
  const named = withNamedStatements(client);
  const viaPglite =
    (q: Pick<NamedStatementClient, 'query'>): RawQuery['query'] =>
    async (_name, text, params) =>
      (await q.query<Row>(text, params)).rows;
  return {
    query: viaPglite(named),
    transaction: (fn) => named.transaction((tx) => fn({ query: viaPglite(tx) })),
    analyze: async () => {
      await client.exec('analyze');
    },
    close: () => client.close(),
  };
}
