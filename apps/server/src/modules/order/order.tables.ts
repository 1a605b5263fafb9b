import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The delivery address as it was at submission (architecture.md: orders snapshot). */
export interface AddressSnapshot {
  consignee: string;
  phone: string;
  provinceCode: string;
  provinceName: string;
  cityCode: string;
  cityName: string;
  districtCode: string;
  districtName: string;
  detail: string;
}

/** An order as the member submitted and pays it; split into child orders per supply source. */
export const mallOrder = pgTable(
  'mall_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull(),
    siteId: integer('site_id').notNull(),
    memberId: integer('member_id').notNull(),
    status: smallint('status').notNull(),
    orderType: smallint('order_type').notNull().default(1),
    goodsAmount: integer('goods_amount').notNull(),
    freightAmount: integer('freight_amount').notNull(),
    payAmount: integer('pay_amount').notNull(),
    /** Fen the order's vouchers took off the goods (payAmount = goods + freight - this). */
    voucherAmount: integer('voucher_amount').notNull().default(0),
    /** Only virtual goods: paying completes the order (no delivery). */
    isVirtual: boolean('is_virtual').notNull(),
    address: jsonb('address').$type<AddressSnapshot>(),
    remark: text('remark').notNull().default(''),
    /** The client's idempotency key: a retried submission answers this order. */
    requestKey: text('request_key'),
    payWay: text('pay_way'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expireAt: timestamp('expire_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mall_order_no_idx').on(t.orderNo),
    uniqueIndex('mall_order_request_key_idx').on(t.siteId, t.memberId, t.requestKey),
    index('mall_order_member_idx').on(t.siteId, t.memberId, t.status, t.createdAt),
    index('mall_order_member_time_idx').on(t.siteId, t.memberId, t.createdAt),
    // The console: newest first over all sites or one site (search pages, today's orders), a
    // status within sites (filters, approvals waiting), a day's payments (npm run bench).
    index('mall_order_time_idx').on(t.createdAt, t.id),
    index('mall_order_site_time_idx').on(t.siteId, t.createdAt, t.id),
    index('mall_order_status_site_idx').on(t.status, t.siteId, t.createdAt),
    index('mall_order_paid_idx').on(t.paidAt).where(sql`${t.paidAt} is not null`),
    // The expiry job reads unpaid orders by expiry time only.
    index('mall_order_expire_idx')
      .on(t.expireAt)
      .where(sql`${t.status} = 0`),
    check(
      'mall_order_amounts_check',
      sql`${t.goodsAmount} >= 0 and ${t.freightAmount} >= 0 and ${t.payAmount} >= 0`,
    ),
  ],
);

/** The part of an order one supply source delivers. */
export const childOrder = pgTable(
  'child_order',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => mallOrder.id, { onDelete: 'cascade' }),
    childOrderNo: text('child_order_no').notNull(),
    siteId: integer('site_id').notNull(),
    source: integer('source').notNull(),
    sourceType: integer('source_type').notNull(),
    sourceName: text('source_name').notNull(),
    hasAddress: boolean('has_address').notNull(),
    status: smallint('status').notNull(),
    goodsAmount: integer('goods_amount').notNull(),
    freightAmount: integer('freight_amount').notNull(),
  },
  (t) => [uniqueIndex('child_order_no_idx').on(t.childOrderNo), index('child_order_order_idx').on(t.orderId)],
);

/** A bought line: name, specification and price as they were at submission. */
export const orderLine = pgTable(
  'order_line',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => mallOrder.id, { onDelete: 'cascade' }),
    childOrderId: bigint('child_order_id', { mode: 'number' })
      .notNull()
      .references(() => childOrder.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull(),
    productId: integer('product_id').notNull(),
    specificationId: integer('specification_id').notNull(),
    name: text('name').notNull(),
    image: text('image').notNull().default(''),
    specificationValue: text('specification_value').notNull(),
    price: integer('price').notNull(),
    num: integer('num').notNull(),
    amount: integer('amount').notNull(),
    /** Fen the vouchers took off this line, frozen at submission (amount stays before vouchers). */
    voucherSaving: integer('voucher_saving').notNull().default(0),
    /** Fen the member's VIP price saved on this line against the list price, frozen at submission. */
    vipSaving: integer('vip_saving').notNull().default(0),
  },
  (t) => [
    index('order_line_order_idx').on(t.orderId),
    check('order_line_num_check', sql`${t.num} > 0 and ${t.price} >= 0`),
  ],
);

/** Every status an order went through, with why (the order detail's history). */
export const orderStatusLog = pgTable(
  'order_status_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => mallOrder.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull(),
    fromStatus: smallint('from_status'),
    status: smallint('status').notNull(),
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_status_log_order_idx').on(t.orderId, t.id)],
);

/** A shipment of a child order and its logistics events (written by fulfilment, a later issue). */
export const orderShipment = pgTable(
  'order_shipment',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    childOrderId: bigint('child_order_id', { mode: 'number' })
      .notNull()
      .references(() => childOrder.id, { onDelete: 'cascade' }),
    company: text('company').notNull(),
    trackingNo: text('tracking_no').notNull(),
    events: jsonb('events').$type<{ time: string; text: string }[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_shipment_child_idx').on(t.childOrderId)],
);
