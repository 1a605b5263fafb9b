import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { mallSite } from '../site/site.tables';

const siteRef = () =>
  integer('site_id')
    .notNull()
    .references(() => mallSite.id, { onDelete: 'cascade' });

/** A site's customer service channels (hotline, online service, e-mail ...). */
export const serviceChannel = pgTable(
  'service_channel',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    hours: text('hours').notNull().default(''),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('service_channel_site_idx').on(t.siteId, t.sort)],
);

/** A message left through the mall customer service form. */
export const serviceMessage = pgTable(
  'service_message',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    memberId: integer('member_id'),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    topic: text('topic').notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Customer service's answer (plain text), written once from the console. */
    reply: text('reply').notNull().default(''),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** The operator's name as the member and the console show it. */
    repliedBy: text('replied_by').notNull().default(''),
  },
  (t) => [
    index('service_message_site_idx').on(t.siteId, t.createdAt),
    index('service_message_member_idx').on(t.siteId, t.memberId, t.id),
    // Replied exactly when a reply is written.
    check('service_message_reply_check', sql`(${t.reply} = '') = (${t.repliedAt} is null)`),
  ],
);

/** The PC notice (client tips) a site shows between two times. */
export const mallNotice = pgTable(
  'mall_notice',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
  },
  (t) => [index('mall_notice_site_idx').on(t.siteId, t.startAt)],
);
