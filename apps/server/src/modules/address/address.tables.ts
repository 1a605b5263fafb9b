import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A member's delivery address; district names are copied from the GB/T 2260 codes at save. */
export const memberAddress = pgTable(
  'member_address',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    consignee: text('consignee').notNull(),
    phone: text('phone').notNull(),
    provinceCode: text('province_code').notNull(),
    provinceName: text('province_name').notNull(),
    cityCode: text('city_code').notNull(),
    cityName: text('city_name').notNull(),
    districtCode: text('district_code').notNull().default(''),
    districtName: text('district_name').notNull().default(''),
    detail: text('detail').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('member_address_member_idx').on(t.siteId, t.memberId),
    // At most one default address per member, whatever the concurrency.
    uniqueIndex('member_address_default_idx')
      .on(t.siteId, t.memberId)
      .where(sql`${t.isDefault}`),
  ],
);
