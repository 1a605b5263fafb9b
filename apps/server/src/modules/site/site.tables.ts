import type { AdvancedConfig, SiteConfigJson } from '@sitemall/contract';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

interface SupplyConfigRow {
  source: number;
  type: number;
  excludeSupply: boolean;
  name: string;
}

/** A site (tenant): spec section 3 "Site config (mallSite)". The id is the public siteId. */
export const mallSite = pgTable('mall_site', {
  id: integer('id').primaryKey(),
  siteName: text('site_name').notNull(),
  hotline: text('hotline').notNull().default(''),
  spareHotline: text('spare_hotline').notNull().default(''),
  loginWay: smallint('login_way').notNull().default(1),
  paywayConf: jsonb('payway_conf').$type<string[]>().notNull().default(['ye']),
  cashUnit: text('cash_unit').notNull().default('积分'),
  configJson: jsonb('config_json').$type<SiteConfigJson>().notNull(),
  customServicePcSwitch: smallint('custom_service_pc_switch').notNull().default(0),
  isUsable: smallint('is_usable').notNull().default(1),
  loginOrder: text('login_order').notNull().default('1'),
  dingtalkAuthSwitch: smallint('dingtalk_auth_switch').notNull().default(0),
  supplyConfig: jsonb('supply_config').$type<SupplyConfigRow[]>().notNull().default([]),
  advancedConfig: jsonb('advanced_config').$type<AdvancedConfig>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Home page templates (homePageModes): head and foot; the menu comes from adverts. */
export const siteTemplate = pgTable(
  'site_template',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => mallSite.id, { onDelete: 'cascade' }),
    templateName: text('template_name').notNull(),
    value: jsonb('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.templateName] })],
);

/** Regions a site serves (mallSiteDistrict), by GB/T 2260 code. */
export const siteDistrict = pgTable(
  'site_district',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => mallSite.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.code] })],
);

/** An advert: type 1 opens a special list of products, type 2 an external URL. */
export const advert = pgTable(
  'advert',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => mallSite.id, { onDelete: 'cascade' }),
    position: text('position').notNull(),
    type: smallint('type').notNull(),
    title: text('title').notNull(),
    adName: text('ad_name').notNull(),
    url: text('url').notNull().default(''),
    image: text('image').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    isEnabled: boolean('is_enabled').notNull().default(true),
  },
  (t) => [index('advert_site_position_idx').on(t.siteId, t.position, t.sort)],
);
