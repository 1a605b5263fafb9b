import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { transaction } from './context';
import { testDatabase } from './test/harness';

const count = async (db: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> }) => {
  const result = (await db.execute(sql`select count(*)::int as n from ctx_probe`)) as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n;
};

describe('transaction(ctx, work)', () => {
  it('hands the work a context bound to one transaction, which a nested call joins', async () => {
    const { db } = await testDatabase();
    await db.execute(sql`create table if not exists ctx_probe (id serial primary key, at text)`);
    await db.execute(sql`truncate ctx_probe`);
    const ctx = { db, member: 'kept' };

    // A use case spanning two services: the inner one joins, so the failure after it undoes both.
    const inner = (c: typeof ctx) =>
      transaction(c, async (joined) => {
        expect(joined.db).toBe(c.db);
        await joined.db.execute(sql`insert into ctx_probe (at) values ('inner')`);
      });
    await expect(
      transaction(ctx, async (outer) => {
        expect(outer.db).not.toBe(db);
        expect(outer.member).toBe('kept');
        await outer.db.execute(sql`insert into ctx_probe (at) values ('outer')`);
        await inner(outer);
        throw new Error('refused after both writes');
      }),
    ).rejects.toThrow('refused after both writes');
    expect(await count(db)).toBe(0);

    await transaction(ctx, async (outer) => inner(outer));
    expect(await count(db)).toBe(1);
    await db.execute(sql`drop table ctx_probe`);
  });
});
