import { ORDER_STATUS, ORDER_STATUS_LABEL } from '@sitemall/contract';

export interface OrderStatusView {
  /** The status as the shopper reads it on the order. */
  label: string;
  /** Who ended the order, or why; null for an order still going. */
  reason: string | null;
  /** 实付款 only for an order that was paid; an order never paid shows what it would have cost. */
  amountLabel: '实付款' | '应付';
}

/**
 * How an order's status reads (spec section 4 labels). Status 4 is both the member cancelling an
 * unpaid order and the merchant withdrawing a paid one (a refund): only the merchant's is
 * 订单已撤回; the member's own cancellation reads 已取消, and the reason line says who ended it.
 */
export function orderStatusView(order: {
  status: number;
  statusName: string;
  payTime: string | null;
}): OrderStatusView {
  const isPaid = order.payTime !== null;
  const amountLabel = isPaid ? '实付款' : '应付';
  const label = ORDER_STATUS_LABEL[order.status] ?? order.statusName;
  if (order.status === ORDER_STATUS.withdrawn)
    return isPaid
      ? { label, reason: '商家已撤回该订单，已付款项原路退回', amountLabel }
      : { label: '已取消', reason: '您已取消该订单', amountLabel };
  if (order.status === ORDER_STATUS.expired)
    return { label, reason: '超时未支付，订单已自动取消', amountLabel };
  return { label, reason: null, amountLabel };
}
