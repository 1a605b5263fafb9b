import { catalogApi, identityApi, pointsApi } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testSecrets } from '../lib/secrets';
import { serve } from '../lib/serve';
import { createCatalogCache } from '../modules/catalog/catalog.service';
import { buyer, type PickedSpec, pickSpecs } from '../modules/order/order.fixtures';
import { createSiteCache } from '../modules/site/site.service';
import type { TestApp } from '../test/harness';
import { type Database, openDatabase } from './client';
import { seedDemo } from './seed';

/**
 * DATABASE_REPLICA_URL: the public catalogue reads come from the replica, a member's own data
 * from the primary. The "replica" here is a second database that differs on purpose, so the
 * answer says which one served it.
 */

const PG_URL = process.env.TEST_DATABASE_URL;

describe('catalogue reads and the replica (declaration)', () => {
  it('refuses to send a member endpoint to the replica', () => {
    const app = Fastify();
    expect(() =>
      serve(app, pointsApi.balance, async () => ({}) as never, { config: { reads: 'catalogue' } }),
    ).toThrow(/cannot read from the catalogue replica/);
    expect(() =>
      serve(app, identityApi.personalInfo, async () => ({}) as never, { config: { reads: 'catalogue' } }),
    ).toThrow(/cannot read from the catalogue replica/);
  });
});

describe.skipIf(!PG_URL)('catalogue reads and the replica (PostgreSQL)', () => {
  const suffix = `w${process.env.VITEST_POOL_ID ?? '0'}`;
  const base = new URL(PG_URL ?? 'postgres://x/y');
  const dbName = (role: string) => `${base.pathname.slice(1) || 'sitemall_test'}_${role}_${suffix}`;
  const urlOf = (name: string) => {
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const admin = () => new pg.Client({ connectionString: urlOf('postgres') });

  let database: Database;
  let t: TestApp;
  let spec: PickedSpec;
  const post = async <T>(url: string, payload: object, token?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/front-mall-api${url}`,
      payload,
      headers: token ? { token } : {},
    });
    return res.json() as { code: number; data: T };
  };

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    for (const role of ['primary', 'replica']) {
      await client.query(`drop database if exists ${pg.escapeIdentifier(dbName(role))} with (force)`);
      await client.query(`create database ${pg.escapeIdentifier(dbName(role))}`);
    }
    await client.end();
    // The "replica": the same schema and demo data, then one product renamed and restocked.
    const replica = await openDatabase({ databaseUrl: urlOf(dbName('replica')) });
    await replica.migrate();
    await seedDemo(replica.db);
    database = await openDatabase({
      databaseUrl: urlOf(dbName('primary')),
      replicaUrl: urlOf(dbName('replica')),
    });
    await database.migrate();
    await seedDemo(database.db);
    spec = (await pickSpecs(database.db, 719))[0] as PickedSpec;
    await replica.db.execute(
      sql`update product set name = name || ' (replica)' where id = ${spec.productId}`,
    );
    await replica.db.execute(
      sql`update product_specification set stock = stock + 1000 where id = ${spec.specificationId}`,
    );
    await replica.close();

    const secrets = testSecrets();
    const sites = await createSiteCache(database, secrets.hotlineKey);
    const catalogs = await createCatalogCache(database);
    const app = await buildApp({ database, secrets, sites, catalogs, dataDir: '/tmp' });
    t = { app, db: database.db, database, secrets, sites, catalogs } as unknown as TestApp;
  });

  afterAll(async () => {
    await t?.app.close();
    await database?.close();
    const client = admin();
    await client.connect();
    for (const role of ['primary', 'replica'])
      await client.query(`drop database if exists ${pg.escapeIdentifier(dbName(role))} with (force)`);
    await client.end();
  });

  it('serves product detail, list and search from the replica', async () => {
    const detail = await post<{ name: string }>(catalogApi.productDetail.path, {
      siteId: 719,
      productId: spec.productId,
    });
    expect(detail.code).toBe(200);
    expect(detail.data.name).toMatch(/\(replica\)$/);
    const byIds = await post<{ list: { id: number; name: string }[] }>(catalogApi.listByIds.path, {
      siteId: 719,
      ids: String(spec.productId),
    });
    expect(byIds.data.list.find((c) => c.id === spec.productId)?.name).toMatch(/\(replica\)$/);
  });

  it("reads a member's own data, and the stock a purchase checks, from the primary", async () => {
    // The member exists on the primary only: read from the replica, the balance could not be found.
    const member = await buyer(t, 719, 1234);
    const balance = await post<{ balance: number }>(pointsApi.balance.path, { siteId: 719 }, member.token);
    expect(balance).toMatchObject({ code: 200, data: { balance: 1234 } });
    const { rows } = (await database.db.execute(
      sql`select stock from product_specification where id = ${spec.specificationId}`,
    )) as unknown as { rows: { stock: number }[] };
    const [primaryStock] = rows;
    const stock = await post<{ productSpecifications: { id: number; stock: number }[] }>(
      catalogApi.productStock.path,
      { siteId: 719, productId: spec.productId },
    );
    expect(stock.data.productSpecifications.find((s) => s.id === spec.specificationId)?.stock).toBe(
      primaryStock?.stock,
    );
    // The same logged-in member reading the catalogue still gets the replica's answer.
    const detail = await post<{ name: string }>(
      catalogApi.productDetail.path,
      { siteId: 719, productId: spec.productId },
      member.token,
    );
    expect(detail.data.name).toMatch(/\(replica\)$/);
  });
});
