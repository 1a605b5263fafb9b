import {
  type messages,
  type ParserOptions,
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type RowMode,
} from '@electric-sql/pglite';

const { serialize } = protocol;

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

interface Statement {
  name: string;
  /** The parameters' type OIDs, as PostgreSQL inferred them when the statement was parsed. */
  paramTypes: number[];
}

/**
 * Statements kept per database by default; the least recently used is closed beyond this many.
 * Each holds its parse (and, once PostgreSQL keeps one, its plan) in PGlite's WASM memory, which
 * never shrinks: 1,000 statements of three CTEs grew it by 37 MB. The server's hot statements are
 * fewer; one evicted is parsed again at its next use (one more call), as PGlite's query would.
 */
const KEPT = 300;
/** PostgreSQL's refusal of a kept statement whose table a migration changed under it. */
const STALE_PLAN = /cached plan must not change result type/;

/** A database's statements by SQL text, least recently used first (a Map keeps insertion order). */
interface Kept {
  byText: Map<string, Statement>;
  limit: number;
}
/** Statement names are unique in the process, so two clients of one database never collide. */
let named = 0;

/** Rows a command reports in its tag ("INSERT 0 3", "UPDATE 2"), as PGlite counts them. */
function affectedRows(tag: string): number {
  const [command, a, b] = tag.split(' ');
  if (command === 'INSERT') return Number.parseInt(b as string, 10);
  return ['UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command as string)
    ? Number.parseInt(a as string, 10)
    : 0;
}

/**
 * The statement's result from its messages, as PGlite's `parseResults` makes it. That function
 * copies all of PGlite's ~300 type parsers into a new object at every call (0.1 ms, half of a
 * primary-key read): here a value's parser is looked up where it is needed.
 */
function resultOf<T>(
  messages: messages.BackendMessage[],
  own: ParserOptions | undefined,
  parsers: Record<number, (value: string, type: number) => unknown>,
  rowMode: RowMode | undefined,
): Results<T> {
  const rows: unknown[] = [];
  let fields: { name: string; dataTypeID: number }[] = [];
  let affected = 0;
  const parsed = (text: string | null, type: number) => {
    if (text === null) return null;
    const parser = own?.[type] ?? parsers[type];
    return parser ? parser(text, type) : text;
  };
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      fields = (message as messages.RowDescriptionMessage).fields.map((f) => ({
        name: f.name,
        dataTypeID: f.dataTypeID,
      }));
    } else if (message.name === 'dataRow') {
      const values = (message as messages.DataRowMessage).fields;
      if (rowMode === 'array') {
        rows.push(values.map((text, i) => parsed(text, (fields[i] as { dataTypeID: number }).dataTypeID)));
      } else {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < values.length; i++) {
          const field = fields[i] as { name: string; dataTypeID: number };
          row[field.name] = parsed(values[i] as string | null, field.dataTypeID);
        }
        rows.push(row);
      }
    } else if (message.name === 'commandComplete') {
      affected += affectedRows((message as messages.CommandCompleteMessage).text);
    }
  }
  return { rows: rows as T[], fields, affectedRows: affected };
}

/**
 * PGlite's `query` sends every statement unnamed, as six calls into PostgreSQL (parse, describe,
 * bind, describe, execute, sync): 0.4-0.5 ms of JavaScript and WASM around a primary-key read
 * whose own work is ~0.03 ms (docs/performance.md). Here each SQL text is parsed once as a named
 * statement, and every execution after is one call (bind, describe, execute, sync): what
 * node-postgres does with Drizzle's prepared queries on PostgreSQL. The parameters are
 * serialised and the values parsed with PGlite's serialisers and parsers and the query's options,
 * so the rows are those `query` answers. A statement is known by its text alone: Drizzle never
 * sets `paramTypes`.
 */
function run(db: PGlite, state: Kept, inTransaction: boolean): Query {
  const exchange = (message: Uint8Array) => db.execProtocolStream(message, { syncToFs: false });

  async function statementOf(text: string, options?: QueryOptions): Promise<Statement> {
    const known = state.byText.get(text);
    if (known) {
      // Most recently used last.
      state.byText.delete(text);
      state.byText.set(text, known);
      return known;
    }
    const name = `pglite_${named++}`;
    const described = await exchange(
      Buffer.concat([
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described) };
    state.byText.set(text, statement);
    if (state.byText.size > state.limit) {
      const [oldText, oldest] = state.byText.entries().next().value as [string, Statement];
      state.byText.delete(oldText);
      await exchange(Buffer.concat([serialize.close({ type: 'S', name: oldest.name }), serialize.sync()]));
    }
    return statement;
  }

  async function execute<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const statement = await statementOf(text, options);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.paramTypes[i] as number;
      const serializer = options?.serializers?.[type] ?? db.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await exchange(
      Buffer.concat([
        serialize.bind({ statement: statement.name, values: values as string[] }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return resultOf<T>(messages, options?.parsers, db.parsers, options?.rowMode);
  }

  return async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
    const once = () =>
      db._runExclusiveQuery(async () => {
        const result = await execute<T>(text, params, options);
        // What PGlite's own query does outside a transaction (a no-op on its Node file system).
        if (!inTransaction) await db.syncToFs();
        return result;
      });
    if (inTransaction) return once();
    try {
      return await db._runExclusiveTransaction(once);
    } catch (error) {
      // Outside a transaction the kept statement can be parsed again (in one, the error ended it).
      if (!STALE_PLAN.test((error as Error).message)) throw error;
      state.byText.delete(text);
      return db._runExclusiveTransaction(once);
    }
  };
}

/** What Drizzle's PGlite driver uses of a client: `query`, and `transaction` outside one. */
export interface NamedStatementClient {
  query: Query;
  transaction<T>(fn: (tx: { query: Query }) => Promise<T>): Promise<T>;
}

/**
 * The PGlite client to give Drizzle: the same database, whose `query` (also inside its
 * transactions) runs each SQL text as a named statement, parsed once. A plain object rather than
 * a proxy: PGlite keeps its state per instance, so its methods must be called on it. Its
 * transactions are PGlite's (one at a time, queries outside wait), with `begin` and `commit` sent
 * the same way: PGlite's own `transaction` sends them through `exec`, which parses its answer with
 * `parseResults` (the copy of every parser above, twice per order).
 */
export function withNamedStatements(db: PGlite, { kept = KEPT } = {}): NamedStatementClient {
  const state: Kept = { byText: new Map(), limit: kept };
  const inTransaction = { query: run(db, state, true) };
  return {
    query: run(db, state, false),
    // Drizzle's PGlite session calls only `query` on a transaction's client.
    transaction: (fn) =>
      db._runExclusiveTransaction(async () => {
        await inTransaction.query('begin');
        try {
          const result = await fn(inTransaction);
          await inTransaction.query('commit');
          return result;
        } catch (error) {
          await inTransaction.query('rollback');
          throw error;
        } finally {
          await db.syncToFs();
        }
      }),
  };
}
