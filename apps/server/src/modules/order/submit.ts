import { randomInt } from 'node:crypto';
import {
  BARGAIN_MSG,
  type Fare,
  type FareBody,
  GROUP_MSG,
  ORDER_MSG,
  ORDER_STATUS,
  ORDER_TYPE_BARGAIN,
  ORDER_TYPE_GROUP,
  ORDER_TYPE_SECKILL,
  PROVIDER_ISSUED_SOURCES,
  SECKILL_MSG,
  type SubmitOrderBody,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { and, eq, getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { chinaTime } from '../../lib/china-time';
import { badRequest, failure } from '../../lib/errors';
import { prepared, preparedSql, unnamedSql } from '../../lib/prepared';
import { bargainOffer, takeBargain } from '../activity/bargain';
import { groupOffer, takeGroupSlot } from '../activity/group';
import { seckillOffer, takeSeckill } from '../activity/seckill';
import { enterSeckill } from '../activity/seckill-gate';
import { openSeckillPass, type RedisSeckillGate, type SeckillPass } from '../activity/seckill-redis';
import { approvalFor } from '../approval/approval.service';
import {
  type CartLineValue,
  cartLinesOf,
  type MemberCtx,
  parseCartLines,
  parseIdList,
  removeOrderedLines,
} from '../cart/cart.service';
import { sourceOf } from '../catalog/catalog.service';
import { stockTaking } from '../catalog/inventory';
import type { SpecificationOnSite } from '../catalog/products';
import { purchaseProblem } from '../catalog/purchasable';
import { lockVouchers, parseVoucherIds, voucherSavings } from '../voucher/voucher.service';
import { type CheckoutFacts, deliveryAddressOf, readCheckout } from './checkout-facts';
import { type FareGroup, fareList, fareOf } from './freight';
import type { AddressSnapshot } from './order.tables';
import { childOrder, mallOrder, orderLine, orderStatusLog } from './order.tables';

/** The lines of a checkout: from cart lines (cartIds) or bought now (productInfos). */
async function checkoutLines(ctx: MemberCtx, input: { cartIds?: number[] | string; productInfos?: unknown }) {
  if (input.cartIds !== undefined && input.cartIds !== '') {
    const ids = parseIdList(input.cartIds);
    const rows = await cartLinesOf(ctx, ids);
    return {
      cartIds: ids,
      lines: rows.map(({ productId, specificationId, num }) => ({ productId, specificationId, num })),
    };
  }
  if (input.productInfos !== undefined && input.productInfos !== '') {
    return { cartIds: [], lines: parseCartLines(input.productInfos) };
  }
  throw failure(ORDER_MSG.noLines);
}

interface PricedLine {
  spec: SpecificationOnSite;
  num: number;
  amount: number;
  /** The member's price of a piece (the list price without a VIP level). */
  unitPrice: number;
  /** Fen the member price saves on this line against the list price (frozen on the order line). */
  vipSaving: number;
  /** Fen the order's vouchers take off this line (frozen on the order line). */
  voucherSaving: number;
}

interface PricedGroup extends FareGroup {
  sourceType: number;
  lines: PricedLine[];
}

/**
 * Prices lines from the server's own data (the client never sends a price) and checks each
 * against sale state, stock and the per-order purchase limit, at the member's price; groups
 * them per supply source. Answers the member's level too, which priced them (approval rules
 * may name it), and the other facts the same read gave (the address, the approval rule).
 */
async function priceLines(
  ctx: MemberCtx,
  input: CartLineValue[],
  addressId: number | undefined,
  sale?: { specificationId: number; price: number },
) {
  const merged = new Map<number, { productId: number; specificationId: number; num: number }>();
  for (const l of input) {
    const earlier = merged.get(l.specificationId);
    if (earlier && earlier.productId !== l.productId) throw badRequest('参数 productInfos 格式不正确');
    merged.set(l.specificationId, { ...l, num: (earlier?.num ?? 0) + l.num });
  }
  const { specs, facts } = await readCheckout(ctx, [...merged.keys()], addressId);
  const { levelId, priceOf: memberPrice } = facts.pricing;
  const perProduct = new Map<number, number>();
  for (const l of merged.values()) perProduct.set(l.productId, (perProduct.get(l.productId) ?? 0) + l.num);
  const groups = new Map<number, PricedGroup>();
  for (const l of merged.values()) {
    const listed = specs.get(l.specificationId);
    // A flash sale's, group buy's or bargain's line is priced at the activity's price.
    const spec =
      listed && sale?.specificationId === l.specificationId ? { ...listed, price: sale.price } : listed;
    const problem = purchaseProblem(spec, { ...l, perOrder: perProduct.get(l.productId) });
    if (!spec || problem) throw failure(spec ? `${spec.name}：${problem}` : problem);
    const source = sourceOf(ctx.site, spec.source, spec.sourceType);
    const group = groups.get(spec.source) ?? {
      source: spec.source,
      sourceType: spec.sourceType,
      sourceName: source.name,
      hasAddress: source.hasAddressTab,
      goodsAmount: 0,
      lines: [],
    };
    const unitPrice = memberPrice(spec.price);
    const amount = unitPrice * l.num;
    const vipSaving = (spec.price - unitPrice) * l.num;
    group.lines.push({ spec, num: l.num, amount, unitPrice, vipSaving, voucherSaving: 0 });
    group.goodsAmount += amount;
    groups.set(spec.source, group);
  }
  return { groups: [...groups.values()], levelId, facts };
}

// ---- vouchers (issue 13): the voucher module prices and locks them; the lines keep the savings.
/** Applies the named vouchers to the priced lines (sets each line's saving); answers the total. */
async function applyOrderVouchers(ctx: MemberCtx, ids: number[], groups: PricedGroup[]): Promise<number> {
  const lines = groups.flatMap((g) => g.lines);
  const { savings, total } = await voucherSavings(
    ctx,
    ids,
    lines.map((l) => ({
      specificationId: l.spec.specificationId,
      productId: l.spec.productId,
      categoryId: l.spec.categoryId,
      source: l.spec.source,
      amount: l.amount,
    })),
  );
  lines.forEach((l, i) => {
    l.voucherSaving = savings[i] ?? 0;
  });
  return total;
}
// ---- end vouchers

/** What an order keeps of its delivery address (the address book's entry may change later). */
function addressSnapshot(facts: CheckoutFacts, addressId?: number): AddressSnapshot {
  const { id, isDefault, ...snapshot } = deliveryAddressOf(facts, addressId);
  return snapshot;
}

/** Freight of lines to an address or province (spec section 7, fares). */
export async function computeFare(ctx: MemberCtx, input: FareBody): Promise<Fare> {
  const { lines } = await checkoutLines(ctx, input);
  const { groups, facts } = await priceLines(ctx, lines, input.addressId);
  const province = input.addressId
    ? deliveryAddressOf(facts, input.addressId).provinceCode
    : (input.provinceCode ?? '');
  const list = fareList(groups, province);
  return {
    list,
    totalFare: list.reduce((s, l) => s + l.fare, 0),
    goodsAmount: groups.reduce((s, g) => s + g.goodsAmount, 0),
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/**
 * The China wall clock of the last second an order number was made: formatting it (dayjs's
 * time zone, Intl underneath) cost a fifth of a flash-sale refusal's CPU, and it changes once
 * a second.
 */
let stamped = { second: Number.NaN, text: '' };
/** SO + time to the second (China time, the mall's days) + 8 random digits. */
export function newOrderNo(now = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== stamped.second) stamped = { second, text: chinaTime(now, 'YYYYMMDDHHmmss') };
  return `SO${stamped.text}${pad(randomInt(0, 100_000_000), 8)}`;
}

/**
 * The order a member's request key made before, if any (a retried submission, batch group,
 * lockSeats or top-up).
 */
export async function orderOfRequestKey(ctx: MemberCtx, requestKey: string) {
  const [row] = await prepared(ctx.db, 'order_of_request_key', (name) =>
    ctx.db
      .select()
      .from(mallOrder)
      .where(
        and(
          eq(mallOrder.siteId, sql.placeholder('siteId')),
          eq(mallOrder.memberId, sql.placeholder('memberId')),
          eq(mallOrder.requestKey, sql.placeholder('requestKey')),
        ),
      )
      .prepare(name),
  ).execute({ siteId: ctx.site.row.id, memberId: ctx.member.id, requestKey });
  return row;
}

/** The order a request key already made, answered as its submission was. */
export async function answerOf(ctx: MemberCtx, requestKey: string): Promise<SubmitOrderResult | undefined> {
  const order = await orderOfRequestKey(ctx, requestKey);
  if (!order) return undefined;
  const children = await ctx.db
    .select({ childOrderNo: childOrder.childOrderNo })
    .from(childOrder)
    .where(eq(childOrder.orderId, order.id));
  return {
    orderNo: order.orderNo,
    childOrderNo: children.map((c) => c.childOrderNo).sort(),
    payAmount: order.payAmount,
    status: order.status,
    expireTime: order.expireAt.toISOString(),
    msg: ORDER_MSG.submitted,
  };
}

type OrderInsert = typeof mallOrder.$inferInsert;
type ChildInsert = typeof childOrder.$inferInsert;
type LineInsert = typeof orderLine.$inferInsert;
interface NewOrder {
  order: Omit<OrderInsert, 'address'>;
  address: AddressSnapshot | null;
  children: { row: Omit<ChildInsert, 'orderId'>; lines: Omit<LineInsert, 'orderId' | 'childOrderId'>[] }[];
  log: Omit<typeof orderStatusLog.$inferInsert, 'orderId'>;
}

type Row = Record<string, unknown>;

/** The columns a row writes: those with a value (the others take their defaults). */
const written = (row: Row) => Object.keys(row).filter((key) => row[key] !== undefined);

/**
 * Puts the plain values of rows into `values`, named prefix + row index + _ + column, for the
 * placeholders insertFrom writes.
 */
function fillValues(prefix: string, rows: Row[], values: Row): void {
  rows.forEach((row, i) => {
    for (const key of written(row)) if (!is(row[key], SQL)) values[`${prefix}${i}_${key}`] = row[key];
  });
}

/**
 * `insert into <table> (<columns>) select <row> <tail> union all …`: rows that exist only when
 * `tail` answers a row (`from new_order`: the order's CTE, itself written only when its stock
 * was taken). Plain values are placeholders (fillValues), each cast to its column's type, for
 * a parameter in a select list has no type of its own; SQL values are the statement's own.
 */
function insertFrom(table: PgTable, prefix: string, rows: Row[], tail: SQL): SQL {
  const columns = getTableColumns(table);
  const keys = written(rows[0] ?? {});
  const column = (key: string) => columns[key] as PgColumn;
  const selects = rows.map((row, i) => {
    const cells = keys.map((key) => {
      const value = row[key];
      if (is(value, SQL)) return value;
      const param = sql.param(sql.placeholder(`${prefix}${i}_${key}`), column(key));
      return sql`${param}::${sql.raw(column(key).getSQLType())}`;
    });
    return sql`select ${sql.join(cells, sql`, `)} ${tail}`;
  });
  const names = keys.map((key) => sql.identifier(column(key).name));
  return sql`insert into ${table} (${sql.join(names, sql`, `)}) ${sql.join(selects, sql` union all `)}`;
}

/** Orders of up to this many lines are submitted by a prepared statement of their shape (63 shapes). */
const PREPARED_ORDER_LINES = 6;

/**
 * Takes the order's stock and writes the order, its child orders, their lines and the first
 * log line, as one statement of data-modifying CTEs (one round trip): the rows exist only when
 * every specification's stock was taken (catalog/inventory.ts stockTaking), each naming its
 * parent by the CTE that made it. Answers the specification that was short, if one was.
 */
async function insertOrder(tx: Db, rows: NewOrder): Promise<number | undefined> {
  const stock = stockTaking(
    rows.children.flatMap((c) => c.lines.map((l) => ({ specificationId: l.specificationId, num: l.num }))),
  );
  const orderId = sql`new_order.id`;
  const order: Row[] = [{ ...rows.order, address: sql`${sql.placeholder('address')}::jsonb` }];
  const children: Row[] = rows.children.map((c) => ({ ...c.row, orderId }));
  const lines: Row[] = rows.children.flatMap((c, i) =>
    c.lines.map((l) => ({
      ...l,
      orderId,
      childOrderId: sql`(select id from new_children where child_order_no = ${sql.placeholder(`c${i}_childOrderNo`)}::text)`,
    })),
  );
  const log: Row[] = [{ ...rows.log, orderId }];
  const values: Row = { ...stock.params, address: rows.address && JSON.stringify(rows.address) };
  fillValues('o', order, values);
  fillValues('c', children, values);
  fillValues('l', lines, values);
  fillValues('s', log, values);
  const build = () => {
    const fromOrder = sql`from new_order`;
    const taking = stock.parts();
    const ctes: Record<string, SQL> = {
      ...taking.ctes,
      new_order: sql`${insertFrom(mallOrder, 'o', order, sql`where ${taking.all}`)} returning id`,
      new_children: sql`${insertFrom(childOrder, 'c', children, fromOrder)} returning id, child_order_no`,
      new_lines: insertFrom(orderLine, 'l', lines, fromOrder),
      new_log: insertFrom(orderStatusLog, 's', log, fromOrder),
    };
    const withs = Object.entries(ctes).map(([name, query]) => sql`${sql.identifier(name)} as (${query})`);
    return sql`with ${sql.join(withs, sql`, `)} select ${taking.taken} as taken`;
  };
  // Most orders have a few lines: their shapes (how many lines each child order has) are few.
  // A larger order is built for itself and sent unnamed, so members cannot fill every
  // connection with statements of shapes nobody else orders.
  const statement =
    lines.length > PREPARED_ORDER_LINES
      ? unnamedSql(tx, build())
      : preparedSql(tx, `order_submit_${rows.children.map((c) => c.lines.length).join('_')}`, build);
  const { rows: answered } = await statement.execute(values);
  return stock.shortAt(Number(answered[0]?.taken));
}

export interface SubmitOptions {
  /** The Idempotency-Key header, when the payload has no requestId. */
  idempotencyKey?: string;
  expireMinutes: number;
  /**
   * Deliver to this address instead of one of the member's book (batch ordering: each
   * recipient of a sheet is no entry of the address book). Already validated by the caller.
   */
  address?: AddressSnapshot;
  /** The flash sale's Redis admission gate (REDIS_URL); without it the database alone decides. */
  seckillGate?: RedisSeckillGate;
}

/**
 * Submits an order: prices the lines, checks limits, takes the stock of every line or of
 * none, snapshots names, prices and the address, splits per source with its freight, and
 * removes the cart lines it was made from, all in one transaction. A request key seen before
 * answers the order it made, so a double click or a retry makes one order.
 */
export async function submitOrder(
  ctx: MemberCtx,
  input: SubmitOrderBody,
  options: SubmitOptions,
): Promise<SubmitOrderResult> {
  const requestKey = input.requestId ?? options.idempotencyKey;
  if (requestKey !== undefined && !/^[\w.:-]{8,64}$/.test(requestKey))
    throw badRequest(ORDER_MSG.badRequestId);
  try {
    return await submitNew(ctx, input, options, requestKey);
  } catch (error) {
    // A key that made an order answers that order, whatever refused this attempt: the unique
    // index (a parallel twin won), or what its order changed since (the goods it took sold
    // out, its cart lines and vouchers used). Asked only when the attempt fails, so a new
    // order costs no read for it.
    // (A read that fails too leaves the attempt's own error to answer.)
    const earlier = requestKey ? await answerOf(ctx, requestKey).catch(() => undefined) : undefined;
    if (earlier) return earlier;
    throw error;
  }
}

async function submitNew(
  ctx: MemberCtx,
  input: SubmitOrderBody,
  options: SubmitOptions,
  requestKey: string | undefined,
): Promise<SubmitOrderResult> {
  const voucherIds = parseVoucherIds(input.accVoucherIds);
  const { cartIds, lines } = await checkoutLines(ctx, input);
  const orderNo = newOrderNo();
  // Flash sale (activity module): refused before any database work when sold out here or by
  // the Redis gate; checked by the database next, stock and member count taken in the transaction.
  const pass =
    input.orderType === ORDER_TYPE_SECKILL
      ? await openSeckillPass(
          options.seckillGate,
          { activityId: input.activityId, memberId: ctx.member.id, lines },
          orderNo,
          { db: ctx.db, offer: () => seckillOffer(ctx, lines, input.activityId) },
        )
      : undefined;
  let committed = false;
  try {
    const result = await submitChecked(ctx, input, options, {
      requestKey,
      voucherIds,
      cartIds,
      lines,
      orderNo,
      pass,
    });
    committed = true;
    return result;
  } finally {
    await pass?.close(committed);
  }
}

async function submitChecked(
  ctx: MemberCtx,
  input: SubmitOrderBody,
  options: SubmitOptions,
  {
    requestKey,
    voucherIds,
    cartIds,
    lines,
    orderNo,
    pass,
  }: {
    requestKey: string | undefined;
    voucherIds: number[];
    cartIds: number[];
    lines: CartLineValue[];
    orderNo: string;
    pass: SeckillPass | undefined;
  },
): Promise<SubmitOrderResult> {
  const sale =
    input.orderType === ORDER_TYPE_SECKILL ? await seckillOffer(ctx, lines, input.activityId) : undefined;
  if (sale) await pass?.confirm(sale);
  // Group buy (activity module): checked here, the team's slot taken in the transaction.
  const group =
    input.orderType === ORDER_TYPE_GROUP
      ? await groupOffer(ctx, lines, { activityId: input.activityId, teamId: input.teamId })
      : undefined;
  // Bargain (activity module): the member's successful bargain, taken in the transaction.
  const bargain =
    input.orderType === ORDER_TYPE_BARGAIN ? await bargainOffer(ctx, lines, input.bargainId) : undefined;
  const { groups, levelId, facts } = await priceLines(ctx, lines, input.addressId, sale ?? group ?? bargain);
  // A flash-sale, group or bargain price takes no other discount.
  if (sale && voucherIds.length > 0) throw failure(SECKILL_MSG.noVoucher);
  if (group && voucherIds.length > 0) throw failure(GROUP_MSG.noVoucher);
  if (bargain && voucherIds.length > 0) throw failure(BARGAIN_MSG.noVoucher);
  const voucherAmount = await applyOrderVouchers(ctx, voucherIds, groups);
  const needsAddress = groups.some((g) => g.hasAddress);
  const address = needsAddress ? (options.address ?? addressSnapshot(facts, input.addressId)) : null;
  const fares = groups.map((g) => fareOf(g, address?.provinceCode ?? ''));
  const goodsAmount = groups.reduce((s, g) => s + g.goodsAmount, 0);
  const freightAmount = fares.reduce((s, f) => s + f, 0);
  const payAmount = goodsAmount + freightAmount - voucherAmount;
  if (!Number.isSafeInteger(payAmount) || payAmount > 2_147_483_647)
    throw failure('订单金额过大，请分开下单');
  // Approval (modules/approval): a site's rule may send the order to approvers first (11).
  const ordered = groups.flatMap((g) => g.lines);
  const approval = approvalFor(facts.rule, {
    siteId: ctx.site.row.id,
    payAmount,
    qty: ordered.reduce((sum, l) => sum + l.num, 0),
    sources: ordered.map((l) => l.spec.source),
    vipLevelId: levelId,
  });
  const status = approval?.status ?? ORDER_STATUS.pendingPayment;
  const unpaidEnd = Date.now() + (sale?.expireMinutes ?? options.expireMinutes) * 60_000;
  // A group-buy order must be paid before its team ends (the team is settled after that).
  const expireAt =
    approval?.expireAt ?? new Date(Math.min(unpaidEnd, group?.teamEndsAt.getTime() ?? unpaidEnd));
  const orderType = Math.max(...groups.flatMap((g) => g.lines.map((l) => l.spec.orderType)));

  const childNo = (i: number) => `${orderNo}${pad(i + 1, 2)}`;

  // Most orders are one statement alone (one specification, nothing else to write): no `begin`
  // and `commit`. Another write, or the stock of more than one specification, is written with
  // it in a transaction, rolled back when a specification is short.
  const alone =
    !sale && !group && !bargain && voucherIds.length === 0 && cartIds.length === 0 && ordered.length === 1;
  const write = async ({ db: tx }: MemberCtx) => {
    // First, so that a rush's losers are refused before they queue on the product's stock row.
    if (sale) await takeSeckill(tx, sale, orderNo);
    if (group) await takeGroupSlot(tx, group, orderNo);
    if (bargain) await takeBargain(tx, bargain, orderNo);
    await lockVouchers(tx, ctx, voucherIds, orderNo);
    await removeOrderedLines(tx, ctx, cartIds);
    // Last: the order's stock rows are locked from its statement to the commit, so parallel
    // buyers of the same goods queue on them for that statement only.
    const short = await insertOrder(tx, {
      order: {
        orderNo,
        siteId: ctx.site.row.id,
        memberId: ctx.member.id,
        status,
        orderType,
        goodsAmount,
        freightAmount,
        payAmount,
        voucherAmount,
        // Goods a provider issues (cinema, top-up, e-codes) wait in 24 until issued (modules/provider).
        isVirtual: !needsAddress && !groups.some((g) => PROVIDER_ISSUED_SOURCES.includes(g.source)),
        remark: input.remark ?? '',
        requestKey: requestKey ?? null,
        expireAt,
      },
      address,
      children: groups.map((g, i) => ({
        row: {
          childOrderNo: childNo(i),
          siteId: ctx.site.row.id,
          source: g.source,
          sourceType: g.sourceType,
          sourceName: g.sourceName,
          hasAddress: g.hasAddress,
          status,
          goodsAmount: g.goodsAmount,
          freightAmount: fares[i] ?? 0,
        },
        lines: g.lines.map((l) => ({
          siteId: ctx.site.row.id,
          productId: l.spec.productId,
          specificationId: l.spec.specificationId,
          name: l.spec.name,
          image: l.spec.image,
          specificationValue: l.spec.specificationValue,
          price: l.unitPrice,
          num: l.num,
          amount: l.amount,
          vipSaving: l.vipSaving,
          voucherSaving: l.voucherSaving,
        })),
      })),
      log: { siteId: ctx.site.row.id, status, note: approval ? '提交订单，待审批' : '提交订单' },
    });
    if (short !== undefined) {
      const name = ordered.find((l) => l.spec.specificationId === short)?.spec.name;
      throw failure(name ? `${name}：${ORDER_MSG.soldOut}` : ORDER_MSG.soldOut);
    }
  };
  const leaveSeckill = sale ? await enterSeckill(sale, { admitted: pass?.admitted }) : undefined;
  try {
    await (alone ? write(ctx) : transaction(ctx, write));
  } finally {
    leaveSeckill?.();
  }
  return {
    orderNo,
    childOrderNo: groups.map((_, i) => childNo(i)),
    payAmount,
    status,
    expireTime: expireAt.toISOString(),
    msg: ORDER_MSG.submitted,
  };
}
