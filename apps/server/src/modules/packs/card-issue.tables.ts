import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { packBatch, packCard, packProduct } from './packs.tables';

/**
 * A console request to issue cards (four eyes): submitted by its maker, approved by a second
 * operator with the finance permission (the cards are generated then, as a pack_batch) or
 * rejected. The codes and PINs wait sealed (AES-GCM under the master key) for their one
 * download; the export empties `sealed_codes`, after which only masks exist.
 */
export const cardIssue = pgTable(
  'card_issue',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    packProductId: integer('pack_product_id')
      .notNull()
      .references(() => packProduct.id),
    quantity: integer('quantity').notNull(),
    status: text('status').notNull().default('submitted'),
    makerId: integer('maker_id').notNull(),
    approverId: integer('approver_id'),
    reason: text('reason').notNull(),
    packBatchId: integer('pack_batch_id').references(() => packBatch.id),
    sealedCodes: text('sealed_codes'),
    exportedAt: timestamp('exported_at', { withTimezone: true }),
    exportedBy: integer('exported_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('card_issue_site_idx').on(t.siteId, t.id),
    check(
      'card_issue_check',
      sql`${t.status} in ('submitted','approved','rejected') and ${t.quantity} between 1 and 5000
        and (${t.approverId} is null or ${t.approverId} <> ${t.makerId})
        and (${t.sealedCodes} is null or ${t.exportedAt} is null)`,
    ),
  ],
);

/**
 * A frozen card and the status it had: unfreezing puts that back. The primary key makes a
 * second freeze of one card fail instead of losing the first status.
 */
export const cardFreeze = pgTable('card_freeze', {
  cardId: integer('card_id')
    .primaryKey()
    .references(() => packCard.id),
  siteId: integer('site_id').notNull(),
  fromStatus: text('from_status').notNull(),
  reason: text('reason').notNull(),
  operatorId: integer('operator_id').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});
