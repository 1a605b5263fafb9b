import type { AdminOrderDetail } from '@sitemall/contract';
import { and, asc, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { CHINA_TZ, chinaDay } from '../../lib/china-time';
import { emptyPage, listPage } from '../../lib/paging';
import { inSites } from '../admin/console-kit';
import { shipmentsOf } from './fulfilment';
import { type OrderRow, statusName } from './order.service';
import { childOrder, mallOrder, orderLine, orderStatusLog } from './order.tables';

/** Orders as the operator console searches and shows them, always within a set of sites. */

export interface OrderSearch {
  orderNo?: string;
  /** Members to match (the console resolves a phone first); an empty list matches nothing. */
  memberIds?: number[];
  status?: number;
  /** Any of these statuses (the approval queue: 11 and 12). */
  statuses?: number[];
  from?: string;
  to?: string;
  pageNum?: number;
}

export async function searchOrders(db: Db, scope: 'all' | number[], query: OrderSearch) {
  const pageNum = query.pageNum ?? 1;
  const none = (scope !== 'all' && scope.length === 0) || query.memberIds?.length === 0;
  if (none) return emptyPage<OrderRow>(pageNum);
  const where = and(
    inSites(mallOrder.siteId, scope),
    query.orderNo ? eq(mallOrder.orderNo, query.orderNo.trim()) : undefined,
    query.memberIds ? inArray(mallOrder.memberId, query.memberIds) : undefined,
    query.status === undefined ? undefined : eq(mallOrder.status, query.status),
    query.statuses ? inArray(mallOrder.status, query.statuses) : undefined,
    query.from ? gte(mallOrder.createdAt, chinaDay(query.from).start) : undefined,
    query.to ? lt(mallOrder.createdAt, chinaDay(query.to).end) : undefined,
  );
  return listPage({
    pageNum,
    rows: db.select().from(mallOrder).where(where).orderBy(desc(mallOrder.createdAt), desc(mallOrder.id)),
    total: db.select({ n: count() }).from(mallOrder).where(where),
    // A site's orders are the console's biggest list: 100,000 took 15-90 ms to count a page.
    totalKey: JSON.stringify(['orders', scope, { ...query, pageNum: undefined }]),
  });
}

export async function orderByNo(db: Db, orderNo: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo));
  return row;
}

/** An order with its child orders, lines, parcels and status history (member phone left to the caller). */
export async function orderDetailOf(db: Db, order: OrderRow, memberPhone: string): Promise<AdminOrderDetail> {
  const [children, lines, logs] = await Promise.all([
    db.select().from(childOrder).where(eq(childOrder.orderId, order.id)).orderBy(asc(childOrder.id)),
    db.select().from(orderLine).where(eq(orderLine.orderId, order.id)).orderBy(asc(orderLine.id)),
    db
      .select()
      .from(orderStatusLog)
      .where(eq(orderStatusLog.orderId, order.id))
      .orderBy(asc(orderStatusLog.createdAt), asc(orderStatusLog.id)),
  ]);
  const shipments = await shipmentsOf(db, children);
  return {
    ...adminOrder(order, memberPhone),
    goodsAmount: order.goodsAmount,
    freightAmount: order.freightAmount,
    address: order.address ? { ...order.address } : null,
    children: children.map((c) => {
      const parcel = shipments.find((s) => s.childOrderId === c.id);
      return {
        childOrderNo: c.childOrderNo,
        status: c.status,
        statusName: statusName(c.status),
        hasAddress: c.hasAddress,
        shipment: parcel ? { company: parcel.company, trackingNo: parcel.trackingNo } : null,
        lines: lines
          .filter((l) => l.childOrderId === c.id)
          .map((l) => ({ name: l.name, num: l.num, price: l.price })),
      };
    }),
    timeline: logs.map((l) => ({
      status: l.status,
      statusName: statusName(l.status),
      note: l.note,
      at: l.createdAt.toISOString(),
    })),
  };
}

export const adminOrder = (o: OrderRow, memberPhone: string) => ({
  orderNo: o.orderNo,
  siteId: o.siteId,
  memberId: o.memberId,
  memberPhone,
  status: o.status,
  statusName: statusName(o.status),
  payAmount: o.payAmount,
  createdAt: o.createdAt.toISOString(),
  paidAt: o.paidAt?.toISOString() ?? null,
});

/** Today's figures of the console's dashboard: orders placed, and the amount paid, within the sites. */
export async function dayFigures(db: Db, scope: 'all' | number[], day: { start: Date; end: Date }) {
  const sites = inSites(mallOrder.siteId, scope);
  const [[placed], [paid]] = await Promise.all([
    db
      .select({ n: count(), members: sql<number>`count(distinct ${mallOrder.memberId})::int` })
      .from(mallOrder)
      .where(and(sites, gte(mallOrder.createdAt, day.start), lt(mallOrder.createdAt, day.end))),
    db
      .select({ sum: sql<string | null>`sum(${mallOrder.payAmount})` })
      .from(mallOrder)
      .where(and(sites, gte(mallOrder.paidAt, day.start), lt(mallOrder.paidAt, day.end))),
  ]);
  return {
    orders: placed?.n ?? 0,
    activeMembers: Number(placed?.members ?? 0),
    paidAmount: Number(paid?.sum ?? 0),
  };
}

/**
 * Orders placed and amount paid per China day from `since` (a China midnight) on, as two grouped
 * reads over the time indexes; days without any are absent (the caller lays out the days).
 */
export async function dailyFigures(db: Db, scope: 'all' | number[], since: Date) {
  const sites = inSites(mallOrder.siteId, scope);
  // The zone is written into the text (a constant): as a parameter, the select's and the group
  // by's expressions would be two different parameters, and PostgreSQL refuses the grouping.
  const dayOf = (column: typeof mallOrder.createdAt | typeof mallOrder.paidAt) =>
    sql<string>`to_char(${column} at time zone ${sql.raw(`'${CHINA_TZ}'`)}, 'YYYY-MM-DD')`;
  const [placed, paid] = await Promise.all([
    db
      .select({ day: dayOf(mallOrder.createdAt), n: count() })
      .from(mallOrder)
      .where(and(sites, gte(mallOrder.createdAt, since)))
      .groupBy(dayOf(mallOrder.createdAt)),
    db
      .select({ day: dayOf(mallOrder.paidAt), sum: sql<string>`sum(${mallOrder.payAmount})` })
      .from(mallOrder)
      .where(and(sites, gte(mallOrder.paidAt, since)))
      .groupBy(dayOf(mallOrder.paidAt)),
  ]);
  return {
    orders: new Map(placed.map((r) => [r.day, Number(r.n)])),
    paidAmount: new Map(paid.map((r) => [r.day, Number(r.sum)])),
  };
}

/** How many orders of the sites are in any of these statuses (the approvals waiting). */
export async function countInStatuses(db: Db, scope: 'all' | number[], statuses: number[]) {
  const [row] = await db
    .select({ n: count() })
    .from(mallOrder)
    .where(and(inSites(mallOrder.siteId, scope), inArray(mallOrder.status, statuses)));
  return row?.n ?? 0;
}
