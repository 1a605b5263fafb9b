import { getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A column named with its table, for a subquery inside a select from that one table. Drizzle
 * writes such a select's columns bare, and inside the subquery a bare name means the
 * subquery's own column when its table has one of that name ("order_no", "id").
 */
export const qualified = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
