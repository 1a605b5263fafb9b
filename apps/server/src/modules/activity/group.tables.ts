import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Group buy (design promotions.md §3). An activity sells one specification at the group price
 * to teams of `team_size` members that must fill within `team_hours` of opening.
 */
export const groupActivity = pgTable(
  'group_activity',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    name: text('name').notNull(),
    productId: integer('product_id').notNull(),
    specificationId: integer('specification_id').notNull(),
    price: integer('price').notNull(),
    teamSize: smallint('team_size').notNull(),
    teamHours: smallint('team_hours').notNull(),
    memberLimit: smallint('member_limit').notNull().default(1),
    /** A team still unfilled at its end succeeds anyway (the missing members are virtual). */
    virtualFill: boolean('virtual_fill').notNull().default(false),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('group_activity_site_idx').on(t.siteId, t.endAt),
    check('group_activity_size_check', sql`${t.teamSize} between 2 and 50`),
    check('group_activity_hours_check', sql`${t.teamHours} between 1 and 720`),
    check('group_activity_limit_check', sql`${t.memberLimit} between 1 and 99`),
    check('group_activity_price_check', sql`${t.price} >= 0`),
    check('group_activity_window_check', sql`${t.startAt} < ${t.endAt}`),
  ],
);

/**
 * A team. `reserved` counts the slots taken at order submission (a full team takes no further
 * order), `paid` those paid; both only move by guarded updates, the CHECK is the backstop.
 * Status 0 forming, 1 succeeded, 2 failed (GROUP_TEAM_STATUS).
 */
export const groupTeam = pgTable(
  'group_team',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => groupActivity.id, { onDelete: 'cascade' }),
    leaderMemberId: integer('leader_member_id').notNull(),
    size: smallint('size').notNull(),
    reserved: smallint('reserved').notNull().default(0),
    paid: smallint('paid').notNull().default(0),
    status: smallint('status').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('group_team_activity_idx').on(t.activityId, t.status),
    index('group_team_due_idx').on(t.status, t.expiresAt),
    check(
      'group_team_counts_check',
      sql`${t.paid} >= 0 and ${t.paid} <= ${t.reserved} and ${t.reserved} <= ${t.size}`,
    ),
    check('group_team_status_check', sql`${t.status} in (0, 1, 2)`),
  ],
);

/**
 * A member's place in a team, made with the order that reserves it. One live place per member
 * and team (a released place does not count, so the member may come back).
 */
export const groupMember = pgTable(
  'group_member',
  {
    orderNo: text('order_no').primaryKey(),
    teamId: integer('team_id')
      .notNull()
      .references(() => groupTeam.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').notNull(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    nickname: text('nickname').notNull(),
    isLeader: boolean('is_leader').notNull().default(false),
    num: smallint('num').notNull(),
    status: text('status').notNull().default('reserved'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('group_member_live_idx').on(t.teamId, t.memberId).where(sql`${t.status} <> 'released'`),
    index('group_member_member_idx').on(t.siteId, t.memberId),
    check('group_member_status_check', sql`${t.status} in ('reserved', 'paid', 'released', 'refunded')`),
  ],
);

/** Pieces a member holds in an activity: the per-member limit is a capped upsert of this row. */
export const groupPurchase = pgTable(
  'group_purchase',
  {
    activityId: integer('activity_id').notNull(),
    memberId: integer('member_id').notNull(),
    siteId: integer('site_id').notNull(),
    qty: integer('qty').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.activityId, t.memberId] }),
    check('group_purchase_qty_check', sql`${t.qty} >= 0`),
  ],
);
