import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * A line of a member's cart: one specification with a quantity. One line per specification
 * (spec section 5: adding an existing line adds to its quantity), kept by the unique index.
 * Prices are not stored: the cart always shows the current price.
 */
export const cartLine = pgTable(
  'cart_line',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    productId: integer('product_id').notNull(),
    specificationId: integer('specification_id').notNull(),
    num: integer('num').notNull(),
    isSelected: boolean('is_selected').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cart_line_member_spec_idx').on(t.siteId, t.memberId, t.specificationId),
    index('cart_line_member_idx').on(t.siteId, t.memberId, t.createdAt),
    check('cart_line_num_check', sql`${t.num} between 1 and 999`),
  ],
);
