import { eq, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { approvalRule } from '../modules/approval/approval.tables';
import { productSpecification } from '../modules/catalog/catalog.tables';
import { RolledBack, type TestApp, testApp } from '../test/harness';
import { anyOfArray, idsMatch, prepared, preparedSql } from './prepared';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** A site without an approval rule in the demo data. */
const SITE = 1000;

describe('prepared', () => {
  it('builds a statement once and runs it on the pool and in transactions, where it sees their own writes', async () => {
    let builds = 0;
    const ruleOf = (db: Db) =>
      prepared(db, 'test_rule_of_site', (name) => {
        builds++;
        return db
          .select()
          .from(approvalRule)
          .where(eq(approvalRule.siteId, sql.placeholder('siteId')))
          .prepare(name);
      });
    expect(await ruleOf(t.db).execute({ siteId: SITE })).toEqual([]);
    for (let i = 0; i < 3; i++) {
      const inside = t.db.transaction(async (tx) => {
        await tx.insert(approvalRule).values({ siteId: SITE, minAmount: 100 + i });
        // Bound to the transaction's connection: it sees the row nobody else can see yet.
        expect(await ruleOf(tx).execute({ siteId: SITE })).toMatchObject([
          { siteId: SITE, minAmount: 100 + i },
        ]);
        throw new RolledBack();
      });
      await expect(inside).rejects.toBeInstanceOf(RolledBack);
    }
    expect(await ruleOf(t.db).execute({ siteId: SITE })).toEqual([]);
    expect(builds).toBe(1);
  });

  it('runs a statement written in SQL with its placeholders, in a transaction too', async () => {
    const count = (db: Db) =>
      preparedSql(
        db,
        'test_rule_count',
        () => sql`select count(*)::int as n from approval_rule where site_id = ${sql.placeholder('siteId')}`,
      ).execute({ siteId: SITE });
    const inside = t.db.transaction(async (tx) => {
      await tx.insert(approvalRule).values({ siteId: SITE, minAmount: 1 });
      expect((await count(tx)).rows).toEqual([{ n: 1 }]);
      throw new RolledBack();
    });
    await expect(inside).rejects.toBeInstanceOf(RolledBack);
    expect((await count(t.db)).rows).toEqual([{ n: 0 }]);
  });
});

describe('anyOfArray', () => {
  it('lets PostgreSQL keep one generic plan for a statement over an array, where any($1) is planned at every run', async () => {
    const plansOf = (db: Db, where: (ids: SQL) => SQL, name: string) =>
      db.transaction(async (tx) => {
        // One transaction: one connection, whose plan cache pg_prepared_statements shows.
        for (let i = 0; i < 8; i++)
          await preparedSql(
            tx,
            name,
            () => sql`select id from product_specification where ${where(sql`id`)} -- ${sql.raw(name)}`,
          ).execute({ ids: [1, 2] });
        // node-postgres names it as Drizzle does; PGlite's client by its own name, so the comment.
        const { rows } = (await tx.execute(
          sql`select generic_plans::int as generic, custom_plans::int as custom
            from pg_prepared_statements where name = ${name} or statement like ${`%-- ${name}`}`,
        )) as unknown as { rows: { generic: number; custom: number }[] };
        return rows;
      });
    const plain = await plansOf(
      t.db,
      (id) => sql`${id} = any(${sql.placeholder('ids')}::int[])`,
      'test_any_plain',
    );
    const once = await plansOf(t.db, (id) => sql`${id} = ${anyOfArray('ids', 'int')}`, 'test_any_of_array');
    expect(once).toEqual([{ generic: 3, custom: 5 }]);
    // PostgreSQL 15 plans any($1) at every run; PGlite's PostgreSQL 17 estimates it otherwise and
    // keeps a generic plan for both (the statement is still kept: one row).
    if (t.database.kind === 'postgres') expect(plain).toEqual([{ generic: 0, custom: 8 }]);
    else expect(plain).toHaveLength(1);
  });
});

describe('idsMatch', () => {
  /** The nodes of the generic plan PostgreSQL keeps for the statement, read by EXPLAIN. */
  const genericPlanNodes = (db: Db, where: SQL, values: readonly (number | string)[]) =>
    db.transaction(async (tx) => {
      const text =
        new PgDialect().sqlToQuery(sql`select ${productSpecification.id}, sp.price from ${productSpecification}
        join site_price sp on sp.specification_id = ${productSpecification.id} and sp.site_id = ${sql.placeholder('site')}
        where ${where}`).sql;
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare ids_match_plan as ${text}`));
      const args = values.map((v) => (typeof v === 'number' ? String(v) : `'${v}'`)).join(', ');
      const { rows } = (await tx.execute(
        sql.raw(`explain (format json) execute ids_match_plan(${args})`),
      )) as unknown as {
        rows: { 'QUERY PLAN': unknown }[];
      };
      await tx.execute(sql`deallocate ids_match_plan`);
      return JSON.stringify(rows[0]?.['QUERY PLAN']).match(/"Node Type":"[^"]+"/g) ?? [];
    });

  it('names one id by = $1, whose generic plan probes primary keys; more ids by anyOfArray', async () => {
    const [spec] = await t.db.select({ id: productSpecification.id }).from(productSpecification).limit(1);
    const one = idsMatch(productSpecification.id, 'ids', 'int', [spec?.id ?? 0]);
    expect(one.shape).toBe('1');
    expect(one.params).toEqual({ ids: spec?.id });
    const many = idsMatch(productSpecification.id, 'ids', 'int', [1, 2]);
    expect(many.shape).toBe('n');
    expect(many.params).toEqual({ ids: [1, 2] });
    // The placeholders are numbered in order: the site's, then the ids'.
    const nodes = await genericPlanNodes(t.db, one.where, [SITE, spec?.id ?? 0]);
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.filter((n) => n.includes('Seq Scan') || n.includes('Hash'))).toEqual([]);
  });
});
