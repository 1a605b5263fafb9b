import { fenToYuan, GROUP_MSG, ORDER_STATUS } from '@sitemall/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { groupHoldsShipping } from '../activity/group';
import { entryByRequestKey } from '../points/points.service';
import { moveOrders, type OrderRow, statusName } from './order.service';
import { childOrder, mallOrder, orderShipment, orderStatusLog } from './order.tables';
import { payBack, refundKeyOf } from './pay-back';

/**
 * What operators do to paid orders (ops CLI): ship a child order, refund an order.
 *
 * Both lock the order row first (SELECT ... FOR UPDATE), so a shipment and a refund of the
 * same order queue behind each other and the second sees what the first did: an order is never
 * both shipped and refunded.
 *
 * A paid order with physical goods is 24 (确认中: the supplier confirms and prepares it,
 * pay.ts). Shipping records the parcel and moves the child order to 22 (awaiting receipt);
 * the order follows once every physical child order is shipped. The status log says when
 * each child order and the whole order were shipped.
 */

export type ShipmentRow = typeof orderShipment.$inferSelect;

type ChildRow = typeof childOrder.$inferSelect;

/** The parcels of child orders; none for no child orders. */
export async function shipmentsOf(db: Db, children: readonly { id: number }[]): Promise<ShipmentRow[]> {
  if (children.length === 0) return [];
  return db
    .select()
    .from(orderShipment)
    .where(
      inArray(
        orderShipment.childOrderId,
        children.map((c) => c.id),
      ),
    );
}

const TRACKING_NO = /^[A-Za-z0-9-]{6,40}$/;

/** Statuses in which a paid order has not yet been shipped or completed. */
const PAID_OPEN: readonly number[] = [ORDER_STATUS.confirming];

async function lockOrder(tx: Db, id: number): Promise<OrderRow> {
  await tx.execute(sql`select id from mall_order where id = ${id} for update`);
  const [row] = await tx.select().from(mallOrder).where(eq(mallOrder.id, id));
  if (!row) throw failure('订单不存在');
  return row;
}

const refusalOf = (order: OrderRow, verb: string) => {
  if (!order.paidAt) return failure(`订单未支付（${statusName(order.status)}），不能${verb}`);
  return failure(`订单状态为「${statusName(order.status)}」，不能${verb}`);
};

export interface ShipInput {
  siteId: number;
  childOrderNo: string;
  company: string;
  trackingNo: string;
  now?: Date;
}

export interface ShipResult {
  orderNo: string;
  childOrderNo: string;
  shipment: ShipmentRow;
  /** False when this tracking number was recorded before: nothing changed. */
  isNew: boolean;
  /** Every physical child order of the order now has a shipment. */
  isOrderShipped: boolean;
  status: number;
}

/**
 * Records the parcel of a paid child order with its first logistics event. Refused for
 * unpaid, cancelled, completed or virtual child orders, and for a second tracking number (one
 * parcel per child order); the same tracking number again answers the shipment already made.
 */
export async function shipChildOrder(db: Db, input: ShipInput): Promise<ShipResult> {
  const company = input.company.trim();
  const trackingNo = input.trackingNo.trim();
  if (!company || company.length > 40) throw failure('请填写物流公司（最多 40 字）');
  if (!TRACKING_NO.test(trackingNo)) throw failure('运单号须为 6-40 位字母、数字或 -');
  const [found] = await db
    .select()
    .from(childOrder)
    .where(and(eq(childOrder.siteId, input.siteId), eq(childOrder.childOrderNo, input.childOrderNo)));
  if (!found) throw failure(`站点 ${input.siteId} 没有子订单 ${input.childOrderNo}`);

  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, found.orderId);
    const children = await tx.select().from(childOrder).where(eq(childOrder.orderId, order.id));
    const child = children.find((c) => c.id === found.id) as ChildRow;
    const shipments = await shipmentsOf(tx, children);
    const answer = (shipment: ShipmentRow, isNew: boolean, status: number): ShipResult => ({
      orderNo: order.orderNo,
      childOrderNo: child.childOrderNo,
      shipment,
      isNew,
      isOrderShipped: children
        .filter((c) => c.hasAddress)
        .every((c) => c.id === child.id || shipments.some((s) => s.childOrderId === c.id)),
      status,
    });
    const own = shipments.find((s) => s.childOrderId === child.id);
    if (own?.trackingNo === trackingNo) return answer(own, false, order.status);
    if (own) throw failure(`子订单已发货（${own.company} ${own.trackingNo}），不能再登记其他运单号`);
    if (!child.hasAddress) throw failure('虚拟商品子订单无需发货');
    if (!order.paidAt || !PAID_OPEN.includes(order.status)) throw refusalOf(order, '发货');
    if (await groupHoldsShipping(tx, order.orderNo)) throw failure(GROUP_MSG.holdShipping);

    const now = input.now ?? new Date();
    const [shipment] = await tx
      .insert(orderShipment)
      .values({
        childOrderId: child.id,
        company,
        trackingNo,
        events: [{ time: now.toISOString(), text: `商家已发货，${company} 已揽收，运单号 ${trackingNo}` }],
        createdAt: now,
      })
      .returning();
    if (!shipment) throw new Error('shipment not created');
    // A shipped child order awaits receipt (22); the order follows once all its goods are
    // shipped, alone: a virtual child order of a mixed order keeps its status.
    await moveOrders(tx, [child.id], {
      childOrders: true,
      from: ORDER_STATUS.confirming,
      to: ORDER_STATUS.awaitingReceipt,
    });
    const result = answer(shipment, true, ORDER_STATUS.awaitingReceipt);
    // The parcel's line in the order's history; the order's own move writes the next one.
    await tx.insert(orderStatusLog).values({
      orderId: order.id,
      siteId: order.siteId,
      fromStatus: order.status,
      status: result.isOrderShipped ? ORDER_STATUS.awaitingReceipt : order.status,
      note: `子订单 ${child.childOrderNo} 已发货：${company} ${trackingNo}`,
      createdAt: now,
    });
    if (result.isOrderShipped)
      await moveOrders(tx, [order.id], {
        from: order.status,
        to: ORDER_STATUS.awaitingReceipt,
        note: '订单商品已全部发货，待收货',
        at: now,
        withChildren: false,
      });
    return result;
  });
}

export interface RefundResult {
  orderNo: string;
  status: number;
  refunded: number;
  /** False when the order had been refunded before: nothing changed. */
  isNew: boolean;
}

/**
 * The refund rule: an operator cancels a paid order of which nothing has shipped. In one
 * transaction the order moves from 24 to 4 (order withdrawn) with a status log line and each
 * part of the payment goes back the way it came (refundLocked below); the vouchers whose
 * template says so are unused again. Refused for unpaid orders (the member cancels those), for
 * shipped or completed ones (after-sales), and for orders with virtual goods (delivered at
 * payment). Running it again on a refunded order answers that refund.
 */
export async function refundOrder(
  db: Db,
  input: { siteId: number; orderNo: string; reason?: string },
): Promise<RefundResult> {
  const reason = (input.reason ?? '').trim();
  if (reason.length > 200) throw failure('退款原因不能超过 200 字');
  const [found] = await db
    .select({ id: mallOrder.id })
    .from(mallOrder)
    .where(and(eq(mallOrder.siteId, input.siteId), eq(mallOrder.orderNo, input.orderNo)));
  if (!found) throw failure(`站点 ${input.siteId} 没有订单 ${input.orderNo}`);
  return db.transaction((tx) =>
    refundLocked(tx, found.id, (amount) => `运营取消订单并退款 ${amount}${reason ? `：${reason}` : ''}`),
  );
}

/**
 * Refunds a paid, unshipped order whole in the caller's transaction (a group-buy team that
 * failed, modules/activity/group-settle.ts): the same rule and paths as an operator's refund.
 */
export async function refundPaidOrder(tx: Db, orderNo: string, reason: string): Promise<RefundResult> {
  const [found] = await tx.select({ id: mallOrder.id }).from(mallOrder).where(eq(mallOrder.orderNo, orderNo));
  if (!found) throw failure(`没有订单 ${orderNo}`);
  return refundLocked(tx, found.id, (amount) => `${reason}：${amount}`);
}

/**
 * The refund itself, under the order's row lock: the order moves 24 -> 4, then each part of the
 * payment goes back by the way it came, once: WeChat through the refund outbox (one refund
 * number per order), cards to the same cards, the rest in points (ledger request key
 * refund:<orderNo>); stock, flash-sale stock and the group-buy place return.
 */
async function refundLocked(
  tx: Db,
  orderId: number,
  noteOf: (amount: string) => string,
): Promise<RefundResult> {
  const order = await lockOrder(tx, orderId);
  const earlier = await entryByRequestKey(tx, {
    siteId: order.siteId,
    memberId: order.memberId,
    requestKey: refundKeyOf(order.orderNo),
  });
  // Refunded before (whole, by whatever ways it was paid): answer that refund, change nothing.
  if (earlier || (order.paidAt && order.status === ORDER_STATUS.withdrawn))
    return { orderNo: order.orderNo, status: order.status, refunded: order.payAmount, isNew: false };
  if (!order.paidAt) throw refusalOf(order, '退款');
  const children = await tx.select().from(childOrder).where(eq(childOrder.orderId, order.id));
  if (children.some((c) => !c.hasAddress)) throw failure('订单含已发放的虚拟商品，不能整单退款');
  const [shipped] = await shipmentsOf(tx, children);
  if (shipped) throw failure(`订单已发货（运单号 ${shipped.trackingNo}），请走售后流程`);
  if (!PAID_OPEN.includes(order.status)) throw refusalOf(order, '退款');

  const note = noteOf(fenToYuan(order.payAmount));
  await moveOrders(tx, [order.id], { from: order.status, to: ORDER_STATUS.withdrawn, note });
  await payBack(tx, order, { outRefundNo: `RF${order.orderNo}`, reason: note });
  return { orderNo: order.orderNo, status: ORDER_STATUS.withdrawn, refunded: order.payAmount, isNew: true };
}
