import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A VIP level of a site: a percent off list prices for its members. */
export const vipLevel = pgTable(
  'vip_level',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    rank: integer('rank').notNull(),
    name: text('name').notNull(),
    discountPct: integer('discount_pct').notNull(),
    /** How members reach it: points_spent (rule), manual (operator), partner (SSO claims). */
    thresholdType: text('threshold_type').notNull().default('manual'),
    threshold: integer('threshold').notNull().default(0),
    status: text('status').notNull().default('active'),
  },
  (t) => [
    uniqueIndex('vip_level_rank_idx').on(t.siteId, t.rank),
    check('vip_level_pct_check', sql`${t.discountPct} >= 0 and ${t.discountPct} < 100`),
  ],
);

/** A member's level on a site, who set it, and until when (partner and manual levels may end). */
export const memberVip = pgTable(
  'member_vip',
  {
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    levelId: integer('level_id')
      .notNull()
      .references(() => vipLevel.id),
    source: text('source').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.memberId] })],
);

/** Every change of a member's level, with why and by whom. */
export const memberVipLog = pgTable(
  'member_vip_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    fromLevel: integer('from_level'),
    toLevel: integer('to_level'),
    reason: text('reason').notNull(),
    actor: text('actor').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('member_vip_log_member_idx').on(t.siteId, t.memberId, t.id)],
);
