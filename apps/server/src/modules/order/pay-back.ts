import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { releaseGroup } from '../activity/group';
import { releaseSeckill } from '../activity/seckill';
import { returnStock } from '../catalog/inventory';
import { refundToCards } from '../packs/packs.service';
import { cashPaidFor, queueWechatRefund } from '../payment/refunds';
import { postEntry } from '../points/points.service';
import { refundOrderVouchers } from '../voucher/voucher.service';
import type { OrderRow } from './order.service';
import { orderLine } from './order.tables';

/** The request key of an order's whole refund: its points entry carries it, so twice is once. */
export const refundKeyOf = (orderNo: string) => `refund:${orderNo}`;

/**
 * Gives back all a paid order took, the way it was paid, in the transaction that has just moved
 * the order out (an operator's refund, a provider that could not issue): the WeChat part as a
 * queued refund under `outRefundNo`, the pack cards' part to the same cards, the rest as points;
 * then its stock, its flash-sale and group places, and the vouchers that come back on a refund.
 * One function for every whole-order refund, so no path forgets a way of paying.
 */
export async function payBack(
  tx: Db,
  order: OrderRow,
  refund: { outRefundNo: string; reason: string },
): Promise<void> {
  const requestKey = refundKeyOf(order.orderNo);
  const cash = await cashPaidFor(tx, order);
  if (cash > 0)
    await queueWechatRefund(tx, {
      orderId: order.id,
      outRefundNo: refund.outRefundNo,
      amount: cash,
      reason: refund.reason,
    });
  const cards = await refundToCards(tx, {
    orderNo: order.orderNo,
    amount: order.payAmount - cash,
    refundId: requestKey,
    actor: 'operator',
  });
  const points = order.payAmount - cash - cards;
  if (points > 0)
    await postEntry(tx, {
      siteId: order.siteId,
      memberId: order.memberId,
      amount: points,
      type: 'refund',
      orderNo: order.orderNo,
      note: `订单退款 ${order.orderNo}：${refund.reason}`,
      requestKey,
    });
  const lines = await tx
    .select({ specificationId: orderLine.specificationId, num: orderLine.num })
    .from(orderLine)
    .where(eq(orderLine.orderId, order.id));
  await returnStock(tx, lines);
  await releaseSeckill(tx, [order.orderNo]);
  await releaseGroup(tx, [order.orderNo]);
  await refundOrderVouchers(tx, order.orderNo);
}
