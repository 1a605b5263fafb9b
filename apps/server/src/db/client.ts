import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { SERVER_ROOT } from '../lib/paths';
import { withNamedStatements } from './pglite-statements';
/**
 * The database as the modules use it: the query builders only. No schema is given to drizzle:
 * its relational API (`db.query.*`) is unused, and with a schema every transaction would build
 * a relational query builder for each of the ~100 tables before its first statement.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Where the database layer reports connection trouble (a pino logger fits). */
export interface DbLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const SILENT: DbLog = { info() {}, warn() {} };

/** One database, embedded or server, behind the same Drizzle API. */
export interface Database {
  kind: 'pglite' | 'postgres';
  /** The primary: every write, and every read of a member's own data (read-your-writes). */
  db: Db;
  /**
   * Where public catalogue reads go (routes with `reads: 'catalogue'`, plugins/context.ts): the
   * streaming replica of DATABASE_REPLICA_URL, or the primary (`db`) when there is none. Never
   * written to, and never asked for anything a member wrote: a replica may lag behind.
   */
  catalogue: Db;
  /** Applies the committed migrations; safe when several processes start at once. */
  migrate(): Promise<void>;
  /**
   * LISTEN on a channel; returns a function that stops listening. On PostgreSQL the listening
   * connection is re-opened when it is lost; notifications sent meanwhile are gone, so
   * `onResync` is called once it listens again, and a cache drops everything it holds there.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onResync?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * Succeeds only while the database can serve: a query through the pool and, on PostgreSQL,
   * a new connection (the pool opens them on demand, so a server that refuses them fails requests).
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(SERVER_ROOT, 'drizzle');
const MIGRATION_LOCK = 7_190_110;

export interface PostgresOptions {
  /** A read-only streaming replica for the public catalogue reads (DATABASE_REPLICA_URL). */
  replicaUrl?: string;
  /**
   * A direct connection to the primary for what needs a session of its own: LISTEN and the
   * migrations' advisory lock (DATABASE_DIRECT_URL). Needed when databaseUrl is a pooler in
   * transaction mode (PgBouncer), which hands every transaction another server connection.
   */
  directUrl?: string;
  /**
   * false: no named (server-side) prepared statements (DATABASE_PREPARED=off), for PgBouncer
   * in transaction mode before 1.21 (no max_prepared_statements): a statement prepared on one
   * server connection does not exist on the next.
   */
  namedStatements?: boolean;
}

export interface DatabaseOptions extends PostgresOptions {
  databaseUrl?: string;
  dataDir?: string;
  log?: DbLog;
  /**
   * Called with the text of every statement Drizzle sends (PostgreSQL: `begin` and `commit`
   * too; PGlite opens its transactions itself): how a test counts a path's round trips.
   */
  onStatement?: (text: string) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.log ?? SILENT, options)
    : openPglite(options.dataDir, options.onStatement);
}

/** Drizzle's logger option for an onStatement callback. */
const statementLogger = (onStatement?: (text: string) => void) =>
  onStatement ? { logger: { logQuery: (text: string) => onStatement(text) } } : {};

/** dataDir undefined keeps the database in memory (tests). */
async function openPglite(dataDir?: string, onStatement?: (text: string) => void): Promise<Database> {
  let storage: string | undefined;
  if (dataDir) {
    storage = path.join(dataDir, 'pglite');
    await mkdir(storage, { recursive: true });
  }
  // The options form: PGlite.create(undefined, options) silently drops the extensions.
  const client = await PGlite.create({ dataDir: storage, extensions: { pg_trgm } });
  const db = drizzlePglite({
    client: withNamedStatements(client) as unknown as PGlite,
    ...statementLogger(onStatement),
  }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    catalogue: db,
    // One process owns a PGlite directory, so no lock is needed.
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    // One process owns the database: the notifications cannot be missed, so there is no resync.
    listen: async (channel, onPayload) => client.listen(channel, onPayload),
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

/** A connection attempt that gets no answer fails after this long instead of hanging a request. */
const CONNECT_TIMEOUT_MS = 5_000;
/** The LISTEN connection is re-opened after 0.1 s, 0.2 s, ... up to 10 s between tries. */
const LISTEN_RETRY_MIN_MS = 100;
const LISTEN_RETRY_MAX_MS = 10_000;

const ignore = () => {};

/** A pool of the primary or of the replica, with the same care for lost connections. */
function openPool(url: string, log: DbLog, namedStatements: boolean) {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection that dies (a restart, pg_terminate_backend, a network cut) is dropped by
  // the pool, which then emits 'error'; unhandled, that event would end the process.
  pool.on('error', (err) => log.warn({ err }, 'database connection lost (idle); the pool opens another'));
  pool.on('connect', (client) => {
    // A connection that dies while checked out emits 'error' on its client; the query in
    // flight already fails with it (and so does the request), so here it is only kept from
    // ending the process.
    client.on('error', ignore);
    if (!namedStatements) unnamedStatements(client);
  });
  returnDeadClients(pool);
  return pool;
}

/**
 * Drizzle's prepared queries send a statement name; without it PostgreSQL parses the same SQL
 * as an unnamed statement each time (still one round trip, parameters still bound), which is
 * what a pooler that moves sessions between server connections can carry.
 */
function unnamedStatements(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    if (config && typeof config === 'object' && 'name' in config) {
      const { name: _name, ...unnamed } = config as { name?: string };
      return query(unnamed, ...rest);
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

async function openPostgres(url: string, log: DbLog, options: DatabaseOptions): Promise<Database> {
  const namedStatements = options.namedStatements ?? true;
  const pool = openPool(url, log, namedStatements);
  const db = drizzlePg({ client: pool, ...statementLogger(options.onStatement) }) as unknown as Db;
  const replicaPool = options.replicaUrl ? openPool(options.replicaUrl, log, namedStatements) : undefined;
  const catalogue = replicaPool ? (drizzlePg({ client: replicaPool }) as unknown as Db) : db;
  // LISTEN and the migration lock hold a session: never through a transaction-mode pooler.
  const directUrl = options.directUrl ?? url;
  const listener = createListener(directUrl, log);
  let probing: Promise<void> | undefined;
  // Concurrent probes share one new connection, so /readyz cannot open connections in bulk.
  const probeNewConnection = () => {
    probing ??= (async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      client.on('error', ignore);
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        probing = undefined;
        await client.end().catch(ignore);
      }
    })();
    return probing;
  };
  return {
    kind: 'postgres',
    db,
    catalogue,
    async migrate() {
      const client = new pg.Client({
        connectionString: directUrl,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      });
      client.on('error', ignore);
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(ignore);
        await client.end().catch(ignore);
      }
    },
    listen: listener.listen,
    // A replica that cannot serve fails the catalogue reads: the process is not ready either.
    ping: async () => {
      await Promise.all([pool.query('select 1'), probeNewConnection(), replicaPool?.query('select 1')]);
    },
    async close() {
      await listener.close();
      await pool.end();
      await replicaPool?.end();
    },
  };
}

/**
 * Drizzle's transaction takes a client with `pool.connect()` and releases it in a `finally`
 * that only starts once BEGIN succeeded; a connection that dies under a BEGIN would hold its pool
 * slot for ever, and enough of them would leave every request waiting. A checked-out client
 * whose connection dies is therefore given back (and so removed) at once, and a second release
 * by its holder is a no-op.
 */
function returnDeadClients(pool: pg.Pool) {
  const connect = pool.connect.bind(pool);
  pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
    // pool.query passes a callback and releases on errors itself.
    if (callback) return connect(callback);
    return connect().then((client) => {
      const release = client.release;
      let released = false;
      const giveBack = (err?: Error | boolean) => {
        if (released) return;
        released = true;
        client.removeListener('error', giveBack);
        release(err);
      };
      client.once('error', giveBack);
      client.release = giveBack;
      return client;
    });
  }) as typeof pool.connect;
}

interface Subscriber {
  onPayload: (payload: string) => void;
  onResync?: () => void;
}

/**
 * One connection carries every LISTEN of the process. When it is lost it is opened again with
 * backoff, every channel is listened to again, and then each subscriber resyncs: what was
 * notified while nobody listened is lost, so caches must not trust what they hold.
 */
function createListener(url: string, log: DbLog) {
  const channels = new Map<string, Set<Subscriber>>();
  let current: pg.Client | undefined;
  /** Channels LISTENed on `current`. */
  let listening = new Set<string>();
  let opening: Promise<boolean> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  const listenSql = (channel: string) => `listen ${pg.escapeIdentifier(channel)}`;

  const lose = (client: pg.Client, err: unknown) => {
    if (client !== current) return; // a late error of a connection already given up
    current = undefined;
    listening = new Set();
    client.end().catch(ignore);
    if (closed) return;
    log.warn({ err }, 'LISTEN connection lost; reconnecting');
    scheduleRetry();
  };

  const scheduleRetry = () => {
    if (closed || retryTimer || opening) return;
    const delay = Math.min(LISTEN_RETRY_MIN_MS * 2 ** failures, LISTEN_RETRY_MAX_MS);
    failures += 1;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        void reopen();
      },
      delay * (0.5 + Math.random() / 2),
    );
    retryTimer.unref();
  };

  /** Opens the connection and LISTENs on every channel; true when it is up. */
  const open = async (): Promise<boolean> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    current = client;
    client.on('error', (err) => lose(client, err));
    client.on('notification', (message) => {
      for (const subscriber of channels.get(message.channel) ?? [])
        subscriber.onPayload(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of channels.keys()) {
        await client.query(listenSql(channel));
        listening.add(channel);
      }
    } catch (err) {
      lose(client, err);
      return false;
    }
    return client === current;
  };

  const reopen = async () => {
    if (closed || current) return;
    opening = open();
    const up = await opening;
    opening = undefined;
    if (!up) return scheduleRetry();
    if (failures > 0) log.info({ tries: failures }, 'LISTEN connection restored; caches resynced');
    failures = 0;
    for (const subscribers of channels.values()) for (const s of subscribers) s.onResync?.();
  };

  return {
    async listen(channel: string, onPayload: (payload: string) => void, onResync?: () => void) {
      const subscriber: Subscriber = { onPayload, onResync };
      const subscribers = channels.get(channel) ?? new Set<Subscriber>();
      channels.set(channel, subscribers);
      subscribers.add(subscriber);
      if (!current && !opening && !retryTimer) await reopen();
      else if (opening) await opening;
      const client = current;
      if (client && !opening && !listening.has(channel)) {
        listening.add(channel);
        // A failure here is the connection's: its 'error' starts the reconnect, which LISTENs again.
        await client.query(listenSql(channel)).catch(ignore);
      }
      return async () => {
        subscribers.delete(subscriber);
        if (subscribers.size > 0 || channels.get(channel) !== subscribers) return;
        channels.delete(channel);
        listening.delete(channel);
        await current?.query(`unlisten ${pg.escapeIdentifier(channel)}`).catch(ignore);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      // `current` is also a connection still being opened: ending it fails its connect.
      const client = current;
      current = undefined;
      await client?.end().catch(ignore);
      await opening;
    },
  };
}
