import { ilike, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** LIKE's wildcards in typed text, escaped: an operator's "50%" matches "50%", not "50…". */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The column contains the typed text (case-insensitive). */
export const containsText = (column: PgColumn, text: string): SQL => ilike(column, `%${escapeLike(text)}%`);
