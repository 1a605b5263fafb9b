import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * A column named with its table, for a subquery inside a select from that one table. Drizzle
 * writes such a select's columns bare, and inside the subquery a bare name means the
 * subquery's own column when its table has one of that name ("order_no", "id").
 */
export const qualified = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/**
 * `jsonb_build_object` of a table's columns under their property names (those in `omit` left
 * out): a row of that table as one JSON value, for a scalar subquery that answers it beside
 * other values in one statement. JSON keeps numbers, booleans, text and arrays as they are;
 * timestamps would come back as text, so callers leave them out.
 */
export function rowJson(table: PgTable, omit: readonly string[] = []) {
  const pairs = Object.entries(getTableColumns(table))
    .filter(([key]) => !omit.includes(key))
    .map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${qualified(column)}`);
  return sql`jsonb_build_object(${sql.join(pairs, sql`, `)})`;
}
