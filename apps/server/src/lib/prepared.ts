import { createHash } from 'node:crypto';
import type { Query } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * What a Drizzle prepared query (node-postgres or PGlite) holds beyond its public type: enough
 * to make the same query on another session without building its SQL again.
 */
interface Built {
  client: object;
  getQuery(): Query;
  fields?: unknown;
  _isResponseInArrayMode: boolean;
  customResultMapper?: unknown;
  joinsNotNullableMap?: unknown;
  /** node-postgres: the statement's name. */
  rawQueryConfig?: { name?: string };
}

interface Session {
  client: object;
  prepareQuery(
    query: Query,
    fields: unknown,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    customResultMapper?: unknown,
  ): Built;
}

/** PostgreSQL cuts identifiers at 63 bytes: a longer name is sent shortened, with its hash. */
const wireName = (name: string) =>
  name.length <= 63
    ? name
    : `${name.slice(0, 46)}_${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;

/** The first query built under each name: its SQL, parameters and result mapping. */
const templates = new Map<string, Built>();
/** Each name's query bound to a connection (a pool, a pooled client, PGlite or its transaction). */
const bound = new WeakMap<object, Map<string, Built>>();

/**
 * A prepared statement, built once per process and run on any database or transaction.
 * Building a query with Drizzle costs more CPU than PostgreSQL spends running a primary-key
 * statement (0.2-0.4 ms for a select of an order, a move with its CTEs: docs/performance.md),
 * so a hot path's statements are built once with `sql.placeholder` for their values, and sent
 * by name: PostgreSQL parses and plans each once per connection. Drizzle binds a prepared
 * query to the session it was made on; here the first one is kept as a template and the same
 * SQL is bound to the session of `db`, so it also runs inside a transaction (`ctx.db` there).
 *
 * `name` is the statement's identity and its name on the wire (`build` prepares it under it): one
 * SQL text per name for the life of the process (a statement whose shape varies puts its shape
 * in the name).
 */
export function prepared<T>(db: Db, name: string, build: (name: string) => T): T {
  const session = db._.session as unknown as Session;
  let mine = bound.get(session.client);
  if (!mine) bound.set(session.client, (mine = new Map()));
  let query = mine.get(name);
  if (!query) {
    const template = templates.get(name);
    if (template) {
      query = session.prepareQuery(
        template.getQuery(),
        template.fields,
        template.rawQueryConfig?.name,
        template._isResponseInArrayMode,
        template.customResultMapper,
      );
      query.joinsNotNullableMap = template.joinsNotNullableMap;
    } else {
      query = build(wireName(name)) as Built;
      templates.set(name, query);
    }
    mine.set(name, query);
  }
  return query as T;
}
