import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, smallint, timestamp } from 'drizzle-orm/pg-core';

/**
 * A site's order approval rule (spec statuses 11/12 → 15 or 21): an order paying at least
 * min_amount, or of at least min_qty pieces, or with a line of a listed supply source (of a
 * member in a listed VIP level when levels are listed) waits for one approver (levels 1) or two
 * (levels 2) before it may be paid, and expires when nobody decides within expire_hours.
 */
export const approvalRule = pgTable(
  'approval_rule',
  {
    siteId: integer('site_id').primaryKey(),
    minAmount: integer('min_amount').notNull(),
    levels: smallint('levels').notNull().default(1),
    expireHours: integer('expire_hours').notNull().default(48),
    isEnabled: boolean('is_enabled').notNull().default(true),
    /** Also an order of at least this many pieces (null: pieces do not matter). */
    minQty: integer('min_qty'),
    /** Also an order with a line from one of these supply sources (spec section 3 source codes). */
    sources: integer('sources').array().notNull().default(sql`'{}'`),
    /** Only members of these VIP levels (the site's member groups); empty: every member. */
    vipLevelIds: integer('vip_level_ids').array().notNull().default(sql`'{}'`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'approval_rule_check',
      sql`${t.minAmount} >= 0 and ${t.levels} in (1, 2) and ${t.expireHours} between 1 and 720
        and (${t.minQty} is null or ${t.minQty} > 0)`,
    ),
  ],
);
