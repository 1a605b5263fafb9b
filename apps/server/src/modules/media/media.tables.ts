import { bigint, date, pgTable } from 'drizzle-orm/pg-core';

/** Bytes of uploads stored per UTC day: the daily disk quota holds across restarts and processes. */
export const uploadDay = pgTable('upload_day', {
  day: date('day', { mode: 'string' }).primaryKey(),
  bytes: bigint('bytes', { mode: 'number' }).notNull(),
});
