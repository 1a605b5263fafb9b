import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type App, type AppDeps, buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import { testSecrets } from '../lib/secrets';
import { createCatalogCache } from '../modules/catalog/catalog.service';
import { createSiteCache } from '../modules/site/site.service';
import { freshDemo } from './demo-snapshot';
import { injectFetch } from './inject-fetch';

/**
 * How long a test app waits for a provider's answer. The simulator holds a "timeout" or "late"
 * answer until released, so any wait ends those; it must only outlast an answer the simulator
 * gives at once, which on a 2-core machine running the whole suite beside a browser took more
 * than the 100 ms this was (a seat map and an issue came back as "unavailable").
 */
export const PROVIDER_TEST_TIMEOUT_MS = 1_000;

/** The public URL the test app believes it has (WeChat notifies are built on it). */
export const TEST_PUBLIC_URL = 'http://mall.test';

/**
 * The worker's PostgreSQL database (TEST_DATABASE_URL's database name + `_w<pool id>`), for a
 * test that opens connections of its own to it; undefined on PGlite.
 */
export function workerDatabaseUrl(): string | undefined {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return undefined;
  const url = new URL(base);
  url.pathname = `/${url.pathname.slice(1) || 'sitemall_test'}_w${process.env.VITEST_POOL_ID ?? '0'}`;
  return url.toString();
}

let shared: Promise<Database> | undefined;

/** Who hears the worker's statements now (statementsOf). */
let statementTap: ((text: string) => void) | undefined;
const onStatement = (text: string) => statementTap?.(text);

/**
 * The statements `work` sends through the worker's database, in order: the round trips a path
 * costs. Without the `begin`, `commit` and `rollback` that only PostgreSQL's driver reports,
 * unless `transactions` asks for them. Tests of one file run one at a time, so nothing else is
 * heard.
 */
export async function statementsOf(
  work: () => Promise<unknown>,
  { transactions = false } = {},
): Promise<string[]> {
  const heard: string[] = [];
  await hearingStatements((text) => {
    if (transactions || !/^(begin|commit|rollback)\b/i.test(text)) heard.push(text);
  }, work);
  return heard;
}

/** Runs `work`, `listener` hearing each statement it sends as it is sent. */
export async function hearingStatements<T>(
  listener: (text: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  statementTap = listener;
  try {
    return await work();
  } finally {
    statementTap = undefined;
  }
}

/**
 * The worker's database: in-memory PGlite, or, when TEST_DATABASE_URL is set (CI), a fresh
 * PostgreSQL database of its own per worker named after that URL's database.
 */
export function testDatabase(): Promise<Database> {
  shared ??= (async () => {
    const base = process.env.TEST_DATABASE_URL;
    const workerUrl = workerDatabaseUrl();
    let database: Database;
    if (base && workerUrl) {
      const name = new URL(workerUrl).pathname.slice(1);
      const admin = new pg.Client({ connectionString: base.replace(/\/[^/]*$/, '/postgres') });
      await admin.connect();
      await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await admin.query(`create database ${pg.escapeIdentifier(name)}`);
      await admin.end();
      database = await openDatabase({ databaseUrl: workerUrl, onStatement });
    } else {
      database = await openDatabase({ onStatement });
    }
    await database.migrate();
    return database;
  })();
  return shared;
}

/** Fresh demo data and an app built on the worker's database. */
export async function testApp(overrides: Partial<AppDeps> = {}) {
  const database = await testDatabase();
  await freshDemo(database);
  const secrets = testSecrets();
  const sites = await createSiteCache(database, secrets.hotlineKey);
  const catalogs = await createCatalogCache(database);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sitemall-test-'));
  let app: App | undefined;
  app = await buildApp({
    database,
    secrets,
    sites,
    catalogs,
    dataDir,
    publicUrl: TEST_PUBLIC_URL,
    wechatpayFetch: injectFetch(() => app as App),
    wechatpayRetryDelaysMs: [20, 20, 20],
    ...overrides,
  });
  return {
    app,
    database,
    db: database.db,
    secrets,
    sites,
    catalogs,
    dataDir,
    /** POST a payload as JSON and return the parsed envelope. */
    async post<T = unknown>(url: string, payload: unknown, headers: Record<string, string> = {}) {
      const res = await app.inject({ method: 'POST', url, payload: payload as object, headers });
      return {
        status: res.statusCode,
        body: res.json() as { code: number; msg: string; success: boolean; data: T },
      };
    },
    async close() {
      await app.close();
      await sites.close();
      await catalogs.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof testApp>>;

/** Thrown inside a test's transaction to roll it back (what it wrote is never seen after). */
export class RolledBack extends Error {}
