import type { OrderTabKey } from '@sitemall/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { chinaTime } from '../../lib/china-time';
import { tableFile } from '../../lib/xlsx';
import type { MemberCtx } from '../cart/cart.service';
import { statusFilter, statusName } from './order.service';
import { mallOrder, orderLine } from './order.tables';

/** The most orders one export holds, newest first: a member's history, not a data dump. */
export const EXPORT_MAX_ORDERS = 5000;

/**
 * The member's orders as an .xlsx workbook: order no, time, status, amount (two decimals),
 * items and consignee; one status, one tab or all. Only the member's own orders of this site.
 */
export async function exportOrderList(
  ctx: MemberCtx,
  query: { status?: number; tab?: OrderTabKey },
): Promise<Buffer> {
  const orders = await ctx.db
    .select()
    .from(mallOrder)
    .where(
      and(
        eq(mallOrder.siteId, ctx.site.row.id),
        eq(mallOrder.memberId, ctx.member.id),
        statusFilter(query.status, query.tab),
      ),
    )
    .orderBy(desc(mallOrder.createdAt), desc(mallOrder.id))
    .limit(EXPORT_MAX_ORDERS);
  const lines =
    orders.length === 0
      ? []
      : await ctx.db
          .select({
            orderId: orderLine.orderId,
            name: orderLine.name,
            spec: orderLine.specificationValue,
            num: orderLine.num,
          })
          .from(orderLine)
          .where(
            inArray(
              orderLine.orderId,
              orders.map((o) => o.id),
            ),
          )
          .orderBy(orderLine.id);
  const items = new Map<number, string[]>();
  for (const l of lines) {
    const list = items.get(l.orderId) ?? [];
    list.push(`${l.name}${l.spec ? `（${l.spec}）` : ''} ×${l.num}`);
    items.set(l.orderId, list);
  }

  return tableFile(
    '订单',
    [
      { header: '订单号', key: 'orderNo', width: 26 },
      { header: '下单时间', key: 'time', width: 20 },
      { header: '订单状态', key: 'status', width: 12 },
      { header: `实付金额（${ctx.site.row.cashUnit}）`, key: 'amount', width: 14, style: { numFmt: '0.00' } },
      { header: '商品', key: 'items', width: 60 },
      { header: '收货人', key: 'consignee', width: 50 },
    ],
    orders.map((o) => {
      const a = o.address;
      return {
        orderNo: o.orderNo,
        time: chinaTime(o.createdAt, 'YYYY-MM-DD HH:mm:ss'),
        status: statusName(o.status),
        amount: o.payAmount / 100,
        items: (items.get(o.id) ?? []).join('；'),
        consignee: a
          ? `${a.consignee} ${a.phone} ${a.provinceName}${a.cityName}${a.districtName}${a.detail}`
          : '（虚拟商品，无需收货）',
      };
    }),
  );
}
