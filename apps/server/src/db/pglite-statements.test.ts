import { PGlite, type QueryOptions, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withNamedStatements } from './pglite-statements';

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
  await db.exec(`
    create table item (
      id int primary key, name text not null, price numeric(12, 2), tags text[], data jsonb,
      big bigint, on_sale boolean, made timestamptz, day date
    );
    insert into item values
      (1, '华为手机', 3999.00, '{phone,hot}', '{"a": [1, 2]}', 9007199254740993, true,
       '2026-12-06 08:00:00+00', '2026-12-06'),
      (2, 'plain', null, null, null, null, null, null, null);
  `);
});
afterAll(() => db.close());

/** The statements this session keeps, as PostgreSQL lists them. */
const keptStatements = async () =>
  (
    await db.query<{ n: number }>(
      `select count(*)::int as n from pg_prepared_statements where name like 'pglite_%'`,
    )
  ).rows[0]?.n;

/** What Drizzle's PGlite driver asks for a select with fields: arrays of values, dates as text. */
const DRIZZLE_ARRAYS: QueryOptions = {
  rowMode: 'array',
  parsers: { [types.TIMESTAMPTZ]: (v: string) => v, [types.DATE]: (v: string) => v },
};

describe('PGlite with named statements', () => {
  it('answers the rows, fields and counts PGlite’s own query answers, for every kind of value', async () => {
    const client = withNamedStatements(db);
    const text =
      'select id, name, price, tags, data, big, on_sale, made, day from item where id = any($1) order by id';
    for (const options of [undefined, DRIZZLE_ARRAYS]) {
      const own = await db.query(text, [[1, 2]], options);
      const mine = await client.query(text, [[1, 2]], options);
      expect(mine.rows).toEqual(own.rows);
      expect(mine.fields).toEqual(own.fields);
      expect(mine.rows).toHaveLength(2);
    }
    // Values written through it arrive as PGlite's query writes them (JSON, arrays, null, bigint).
    await client.query('insert into item (id, name, tags, data, big) values ($1, $2, $3, $4, $5)', [
      3,
      '坚果',
      ['a', 'b'],
      { k: '值' },
      9007199254740993n,
    ]);
    const [row] = (await db.query('select name, tags, data, big::text as big from item where id = 3')).rows;
    expect(row).toEqual({ name: '坚果', tags: ['a', 'b'], data: { k: '值' }, big: '9007199254740993' });
    for (const [text, params] of [
      ['update item set name = $1 where id >= $2', ['x', 2]],
      ['delete from item where id = $1', [3]],
      ['insert into item (id, name) select g, $1 from generate_series(10, 12) g', ['y']],
    ] as const) {
      const affected = (await client.query(text, [...params])).affectedRows;
      expect(affected).toBe(text.startsWith('update') ? 2 : text.startsWith('delete') ? 1 : 3);
    }
  });

  it('parses each text once and closes the least recently used beyond its limit', async () => {
    const client = withNamedStatements(db, { kept: 3 });
    const before = await keptStatements();
    for (let i = 0; i < 5; i++) await client.query('select name from item where id = $1', [i]);
    expect(await keptStatements()).toBe((before ?? 0) + 1);
    for (let i = 0; i < 6; i++) await client.query(`select ${i} as n, name from item where id = $1`, [1]);
    expect(await keptStatements()).toBe((before ?? 0) + 3);
    // The evicted ones are parsed again when asked for: still right.
    expect(
      (await client.query<{ n: number }>('select 0 as n, name from item where id = $1', [1])).rows,
    ).toEqual([{ n: 0, name: '华为手机' }]);
  });

  it('reports a database error with its code and goes on; a transaction that fails leaves nothing', async () => {
    const client = withNamedStatements(db);
    const insert = 'insert into item (id, name) values ($1, $2)';
    await expect(client.query(insert, [1, 'again'])).rejects.toMatchObject({ code: '23505' });
    expect((await client.query('select name from item where id = $1', [1])).rows).toEqual([
      { name: '华为手机' },
    ]);

    const failing = client.transaction(async (tx) => {
      await tx.query(insert, [20, 'first']);
      await tx.query(insert, [1, 'duplicate']);
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    expect((await client.query('select id from item where id = $1', [20])).rows).toEqual([]);
    expect(db.isInTransaction()).toBe(false);
  });

  it('runs one transaction at a time: a query outside waits for its commit', async () => {
    const client = withNamedStatements(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inside = client.transaction(async (tx) => {
      await tx.query('update item set name = $1 where id = $2', ['in transaction', 2]);
      await held;
    });
    const outside = client.query<{ name: string }>('select name from item where id = $1', [2]);
    let answered = false;
    void outside.then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    release();
    await inside;
    expect((await outside).rows).toEqual([{ name: 'in transaction' }]);
  });

  it('parses a kept statement again when a migration changed its table under it', async () => {
    const client = withNamedStatements(db);
    await db.exec(
      'create table changing (id int primary key, label text); insert into changing values (1, $$a$$)',
    );
    const text = 'select * from changing where id = $1';
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'a' }]);
    await db.exec('alter table changing add column extra int default 7');
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'a', extra: 7 }]);
  });
});
