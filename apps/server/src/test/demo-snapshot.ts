import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { resetData, seedDemo } from '../db/seed';
import { rowsOf } from '../lib/rows';

/**
 * Fresh demo data for every test file, at the cost of a copy: the worker seeds once (seedDemo,
 * about 0.7 s on PGlite: hashing, thousands of inserts through the services), keeps a copy of
 * every table in the schema `test_demo`, and afterwards restores that copy (a tenth of the cost).
 * The seed itself stays tested on its own (db/seed.test.ts).
 */
const COPY = 'test_demo';

interface Copy {
  /** insert … select per table, the columns a row can be given (generated ones excluded). */
  restores: string[];
  /** setval per sequence, to where the seed left it. */
  sequences: string[];
}

let copy: Promise<Copy> | undefined;
let copiedFrom: Database | undefined;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function takeCopy(database: Database): Promise<Copy> {
  const { db } = database;
  await resetData(db);
  await seedDemo(db);
  const columns = rowsOf<{ table_name: string; columns: string }>(
    await db.execute(sql`
      select c.table_name, string_agg(format('%I', c.column_name), ', ' order by c.ordinal_position) as columns
      from information_schema.columns c
      join pg_tables t on t.schemaname = c.table_schema and t.tablename = c.table_name
      where c.table_schema = 'public' and c.is_generated = 'NEVER'
      group by c.table_name`),
  );
  const sequences = rowsOf<{ name: string }>(
    await db.execute(sql`select sequencename as name from pg_sequences where schemaname = 'public'`),
  );
  await db.execute(sql.raw(`drop schema if exists ${COPY} cascade`));
  await db.execute(sql.raw(`create schema ${COPY}`));
  const restores: string[] = [];
  for (const { table_name: table, columns: list } of columns) {
    await db.execute(
      sql.raw(`create table ${COPY}.${quote(table)} as select ${list} from public.${quote(table)}`),
    );
    const [{ rows }] = rowsOf<{ rows: number }>(
      await db.execute(sql.raw(`select count(*)::int as rows from ${COPY}.${quote(table)}`)),
    ) as [{ rows: number }];
    if (rows > 0)
      restores.push(
        `insert into public.${quote(table)} (${list}) overriding system value select ${list} from ${COPY}.${quote(table)}`,
      );
  }
  const setvals: string[] = [];
  for (const { name } of sequences) {
    const [state] = rowsOf<{ last_value: string; is_called: boolean }>(
      await db.execute(sql.raw(`select last_value, is_called from public.${quote(name)}`)),
    );
    if (state)
      setvals.push(`select setval('public.${quote(name)}', ${state.last_value}, ${state.is_called})`);
  }
  return { restores, sequences: setvals };
}

/** Empties the worker's database and puts the demo data back, as seedDemo left it. */
export async function freshDemo(database: Database): Promise<void> {
  if (copiedFrom !== database) {
    copiedFrom = database;
    copy = takeCopy(database);
    await copy;
    return;
  }
  const { restores, sequences } = await (copy as Promise<Copy>);
  await resetData(database.db);
  await database.db.transaction(async (tx) => {
    // Foreign keys are triggers: off while the tables are filled in any order (superuser only,
    // as the test databases are), on again at commit.
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const statement of [...restores, ...sequences]) await tx.execute(sql.raw(statement));
  });
}
