import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { mallSite } from '../site/site.tables';

const siteRef = () =>
  integer('site_id')
    .notNull()
    .references(() => mallSite.id, { onDelete: 'cascade' });

/** Merchant onboarding applications (spec section 1, merchant onboarding). */
export const merchantApplication = pgTable(
  'merchant_application',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    memberId: integer('member_id'),
    phone: text('phone').notNull(),
    contactName: text('contact_name').notNull(),
    companyName: text('company_name').notNull(),
    shopName: text('shop_name').notNull(),
    creditCode: text('credit_code').notNull(),
    licenceUrl: text('licence_url').notNull(),
    mainCategory: text('main_category').notNull(),
    intro: text('intro').notNull().default(''),
    status: smallint('status').notNull().default(0),
    rejectReason: text('reject_reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('merchant_application_phone_idx').on(t.siteId, t.phone),
    index('merchant_application_member_idx').on(t.siteId, t.memberId),
    // MERCHANT_STATUS: 0 pending, 1 approved, 2 rejected; a rejection carries its reason.
    check('merchant_application_status_check', sql`${t.status} in (0, 1, 2)`),
    check('merchant_application_reason_check', sql`${t.status} <> 2 or ${t.rejectReason} <> ''`),
  ],
);
