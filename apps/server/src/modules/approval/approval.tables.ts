import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, smallint, timestamp } from 'drizzle-orm/pg-core';

/**
 * A site's order approval rule (spec statuses 11/12 → 15 or 21): an order paying at least
 * min_amount waits for one approver (levels 1) or two (levels 2) before it may be paid, and
 * expires when nobody decides within expire_hours.
 */
export const approvalRule = pgTable(
  'approval_rule',
  {
    siteId: integer('site_id').primaryKey(),
    minAmount: integer('min_amount').notNull(),
    levels: smallint('levels').notNull().default(1),
    expireHours: integer('expire_hours').notNull().default(48),
    isEnabled: boolean('is_enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'approval_rule_check',
      sql`${t.minAmount} >= 0 and ${t.levels} in (1, 2) and ${t.expireHours} between 1 and 720`,
    ),
  ],
);
