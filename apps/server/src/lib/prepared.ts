import { type AnyColumn, type Query, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
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
 * in the name). Name the columns a statement answers, never `*` or `returning *`: a connection
 * keeps its plan, and PostgreSQL refuses a cached plan whose result columns a migration changed
 * under a running server ("cached plan must not change result type").
 */
export function prepared<T>(db: Db, name: string, build: (name: string) => T): T {
  const session = db._.session as unknown as Session;
  let mine = bound.get(session.client);
  if (!mine) {
    mine = new Map();
    bound.set(session.client, mine);
  }
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
      query = build(name) as Built;
      templates.set(name, query);
    }
    mine.set(name, query);
  }
  return query as T;
}

const dialect = new PgDialect();

/** What a statement written in SQL answers: the driver's result (node-postgres or PGlite). */
interface SqlStatement {
  execute(values?: Record<string, unknown>): Promise<{ rows: Record<string, unknown>[] }>;
}

/** A statement written in SQL bound to `db`'s session, under `name` or unnamed. */
const statementOf = (db: Db, query: SQL, name?: string) =>
  (db._.session as unknown as Session).prepareQuery(
    dialect.sqlToQuery(query),
    undefined,
    name,
    false,
  ) as unknown as SqlStatement;

/**
 * A statement written in SQL (`sql` with `sql.placeholder`s for its values), prepared as
 * `prepared` does; answers the driver's rows, as `db.execute` does.
 */
export function preparedSql(db: Db, name: string, build: () => SQL): SqlStatement {
  return prepared(db, name, (statement) => statementOf(db, build(), statement));
}

/**
 * A statement written in SQL with `sql.placeholder`s, sent once and unnamed: a shape too rare
 * to keep prepared on every connection.
 */
export const unnamedSql = (db: Db, query: SQL): SqlStatement => statementOf(db, query);

/**
 * `any(<array placeholder>)` for a prepared statement, planned once per connection. A custom
 * plan sees the array's length, a generic plan assumes ten elements, so to PostgreSQL the
 * generic plan always looks dearer and it plans the statement again at every execution: for
 * the four-table read of an order's specifications that was 0.5 ms of planning for 0.03 ms of
 * work. Read through a scalar subquery, the array is unknown to both plans alike, and after its
 * five trial plans PostgreSQL keeps the generic one.
 */
export const anyOfArray = (name: string, type: 'int' | 'bigint' | 'text') =>
  sql`any(cast((select ${sql.placeholder(name)}::${sql.raw(type)}[]) as ${sql.raw(type)}[]))`;

/**
 * `column = $name` for one id, `column = any(…)` (anyOfArray) for more: a statement over ids is
 * prepared in two shapes (`shape` goes into its name), and `params` fills the one chosen. With
 * one id both of PostgreSQL's plans know the match is one row and probe the primary key. Over
 * an array they guess ten rows: on a small catalogue the generic plan of an order's
 * specifications hashed the site's whole price list (0.29 ms for a read of 0.07 ms), and a plan of
 * a payment's move that saw status 0 took the partial index of unpaid orders for cheaper than
 * the primary key and was made again at every payment.
 */
export function idsMatch<T extends number | string>(
  column: AnyColumn,
  name: string,
  type: 'int' | 'bigint' | 'text',
  ids: readonly T[],
): { shape: '1' | 'n'; where: SQL; params: Record<string, T | T[]> } {
  if (ids.length === 1)
    return { shape: '1', where: sql`${column} = ${sql.placeholder(name)}`, params: { [name]: ids[0] as T } };
  return { shape: 'n', where: sql`${column} = ${anyOfArray(name, type)}`, params: { [name]: [...ids] } };
}
