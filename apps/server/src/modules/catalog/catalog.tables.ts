import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
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
import { advert, mallSite } from '../site/site.tables';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const siteRef = () =>
  integer('site_id')
    .notNull()
    .references(() => mallSite.id, { onDelete: 'cascade' });

/** Spec section 3, "Category label" (top level of the category menu), per site. */
export const categoryLabel = pgTable(
  'category_label',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    lableName: text('lable_name').notNull(),
    sort: integer('sort').notNull().default(0),
    /** Hidden by an operator: left out of the storefront's menus (its products stay on sale). */
    hidden: boolean('hidden').notNull().default(false),
  },
  (t) => [index('category_label_site_idx').on(t.siteId, t.sort)],
);

/** The group level of a category (levelId, levelName in section 3), under a label. */
export const categoryGroup = pgTable(
  'category_group',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    labelId: integer('label_id')
      .notNull()
      .references(() => categoryLabel.id, { onDelete: 'cascade' }),
    levelName: text('level_name').notNull(),
    sort: integer('sort').notNull().default(0),
    hidden: boolean('hidden').notNull().default(false),
  },
  (t) => [index('category_group_label_idx').on(t.labelId, t.sort)],
);

/** A category products are listed under (id, catName in section 3), per site. */
export const category = pgTable(
  'category',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    groupId: integer('group_id')
      .notNull()
      .references(() => categoryGroup.id, { onDelete: 'cascade' }),
    catName: text('cat_name').notNull(),
    sort: integer('sort').notNull().default(0),
    hidden: boolean('hidden').notNull().default(false),
  },
  (t) => [index('category_group_idx').on(t.groupId, t.sort), index('category_site_idx').on(t.siteId)],
);

/** A shop (merchant) that supplies products; one shop may sell on many sites. */
export const shop = pgTable('shop', {
  id: serial('id').primaryKey(),
  shopName: text('shop_name').notNull(),
  logo: text('logo').notNull().default(''),
  intro: text('intro').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A term array as lexemes of one weight. Weights belong to positions, and array_to_tsvector
 * gives none, so setweight alone did nothing: every match ranked the same whether the word was
 * in the name or only in the keywords. Each lexeme is put at position 1 through the vector's
 * text form (every step immutable, as a generated column requires; array_to_string is not).
 */
const weighted = (column: string, weight: 'A' | 'B' | 'D') =>
  sql.raw(
    `setweight(regexp_replace(array_to_tsvector(${column})::text, '''(?= |$)', ''':1', 'g')::tsvector, '${weight}')`,
  );

/**
 * A product (SPU) of the shared catalogue; which sites sell it, where and at what price is
 * in site_product and site_price. The three term arrays are the search index: tokens made by
 * the server's segmenter (search.ts), since PostgreSQL's parsers do not segment Chinese.
 */
export const product = pgTable(
  'product',
  {
    id: serial('id').primaryKey(),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shop.id),
    kind: text('kind').notNull(),
    brand: text('brand').notNull().default(''),
    name: text('name').notNull(),
    subtitle: text('subtitle').notNull().default(''),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    detail: text('detail').notNull().default(''),
    /** Supply source code and type (spec section 3, Source types; named by supplyConfig). */
    source: integer('source').notNull(),
    sourceType: integer('source_type').notNull().default(1),
    orderType: smallint('order_type').notNull().default(1),
    marketPrice: integer('market_price').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    nameTerms: text('name_terms').array().notNull().default(sql`'{}'`),
    keywordTerms: text('keyword_terms').array().notNull().default(sql`'{}'`),
    charTerms: text('char_terms').array().notNull().default(sql`'{}'`),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        sql`${weighted('name_terms', 'A')} || ${weighted('keyword_terms', 'B')} || ${weighted('char_terms', 'D')}`,
      ),
  },
  (t) => [
    index('product_search_idx').using('gin', t.searchVector),
    index('product_shop_idx').on(t.shopId),
    check('product_market_price_check', sql`${t.marketPrice} >= 0`),
  ],
);

/** A specification (SKU) of a product: spec section 3, productSpecifications. */
export const productSpecification = pgTable(
  'product_specification',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    specificationValue: text('specification_value').notNull(),
    stock: integer('stock').notNull().default(0),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('product_specification_product_idx').on(t.productId, t.sort),
    check('product_specification_stock_check', sql`${t.stock} >= 0`),
  ],
);

/**
 * A product on sale on a site: its category there, its lowest price there (for lists and
 * sorting), its sales there and its purchase limit.
 */
export const siteProduct = pgTable(
  'site_product',
  {
    siteId: siteRef(),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => category.id, { onDelete: 'cascade' }),
    price: integer('price').notNull(),
    sales: integer('sales').notNull().default(0),
    /** Most pieces of one product per order; 0 = no limit. */
    limitNum: integer('limit_num').notNull().default(0),
    isOnSale: boolean('is_on_sale').notNull().default(true),
    listedAt: timestamp('listed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.productId] }),
    // The product id ends each index: it breaks ties in every list order, so a page is read
    // straight off the index (no sort) in either direction.
    index('site_product_cat_sales_idx').on(t.siteId, t.categoryId, t.sales, t.productId),
    index('site_product_cat_price_idx').on(t.siteId, t.categoryId, t.price, t.productId),
    index('site_product_cat_new_idx').on(t.siteId, t.categoryId, t.listedAt, t.productId),
    index('site_product_sales_idx').on(t.siteId, t.sales, t.productId),
    index('site_product_price_idx').on(t.siteId, t.price, t.productId),
    index('site_product_new_idx').on(t.siteId, t.listedAt, t.productId),
    index('site_product_product_idx').on(t.productId),
    check('site_product_price_check', sql`${t.price} >= 0`),
  ],
);

/** The price of a specification on a site: one product may sell on several sites at different prices. */
export const sitePrice = pgTable(
  'site_price',
  {
    siteId: siteRef(),
    specificationId: integer('specification_id')
      .notNull()
      .references(() => productSpecification.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    price: integer('price').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.specificationId] }),
    index('site_price_product_idx').on(t.siteId, t.productId),
    check('site_price_price_check', sql`${t.price} >= 0`),
  ],
);

/** The products a special (an advert of type 1) lists. */
export const advertProduct = pgTable(
  'advert_product',
  {
    advertId: integer('advert_id')
      .notNull()
      .references(() => advert.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => product.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.advertId, t.productId] })],
);

/** A micro page ("tiny page") made of blocks: banners, advert links, product lists. */
export interface TinyPageBlockRow {
  kind: 'banner' | 'adverts' | 'products';
  title: string;
  image?: string;
  advertPosition?: string;
  productIds?: number[];
}
export const tinyPage = pgTable(
  'tiny_page',
  {
    id: serial('id').primaryKey(),
    siteId: siteRef(),
    title: text('title').notNull(),
    blocks: jsonb('blocks').$type<TinyPageBlockRow[]>().notNull().default([]),
    isHome: boolean('is_home').notNull().default(false),
  },
  (t) => [index('tiny_page_site_idx').on(t.siteId)],
);

/**
 * The stock ledger of operators' adjustments: each console change of a specification's stock
 * with its delta, the stock after it, the site it was made through, who and why. (Orders move
 * stock too, recorded by their own rows.)
 */
export const stockMove = pgTable(
  'stock_move',
  {
    id: serial('id').primaryKey(),
    specificationId: integer('specification_id')
      .notNull()
      .references(() => productSpecification.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull(),
    delta: integer('delta').notNull(),
    stockAfter: integer('stock_after').notNull(),
    reason: text('reason').notNull(),
    operatorId: integer('operator_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stock_move_spec_idx').on(t.specificationId, t.id),
    check('stock_move_check', sql`${t.delta} <> 0 and ${t.stockAfter} >= 0`),
  ],
);
