import { ORDER_STATUS, type OrderStatus } from './order.ts';

/**
 * The order state machine as data (style rule 16): every move of an order's status, with the
 * event that causes it. The server's moveOrders refuses any move not listed here, and
 * ARCHITECTURE.md draws this table (a test keeps the two equal).
 *
 * Spec section 4 lists the statuses but not the transitions; the edges below are the ones the
 * server performs, plus (marked "coming") the ones approval, after-sales and supplier failure
 * will need. A `from` of null is a new order: submission creates it in that status.
 */
export const ORDER_EVENTS = [
  'submit',
  'submitForApproval',
  'passOn',
  'approve',
  'reject',
  'pay',
  'payVirtual',
  'cancel',
  'expire',
  'ship',
  'confirm',
  'refund',
  'fail',
  'issue',
  'openAfterSales',
  'closeAfterSales',
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

export interface OrderTransition {
  readonly from: OrderStatus | null;
  readonly to: OrderStatus;
  readonly event: OrderEvent;
}

const S = ORDER_STATUS;

export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  // The member submits an order (submit.ts).
  { from: null, to: S.pendingPayment, event: 'submit' },
  // Approval (modules/approval): an order that needs approval waits for the approver, who may pass it
  // on to a second approver; approved it waits for payment (15), rejected it ends (21). Its
  // submitter may withdraw it while it waits.
  { from: null, to: S.pendingApproval, event: 'submitForApproval' },
  { from: S.pendingApproval, to: S.pendingFinalApproval, event: 'passOn' },
  { from: S.pendingApproval, to: S.approvedPendingPayment, event: 'approve' },
  { from: S.pendingFinalApproval, to: S.approvedPendingPayment, event: 'approve' },
  { from: S.pendingApproval, to: S.notApproved, event: 'reject' },
  { from: S.pendingFinalApproval, to: S.notApproved, event: 'reject' },
  { from: S.pendingApproval, to: S.withdrawn, event: 'cancel' },
  { from: S.pendingFinalApproval, to: S.withdrawn, event: 'cancel' },
  // An order nobody approved within the site's approval time expires (modules/approval).
  { from: S.pendingApproval, to: S.expired, event: 'expire' },
  { from: S.pendingFinalApproval, to: S.expired, event: 'expire' },
  // Payment (pay.ts, wechat-pay.ts): physical goods wait for the supplier (24); an order of
  // virtual goods only is delivered at payment and so completed (23). From 15: coming.
  { from: S.pendingPayment, to: S.confirming, event: 'pay' },
  { from: S.pendingPayment, to: S.completed, event: 'payVirtual' },
  { from: S.approvedPendingPayment, to: S.confirming, event: 'pay' },
  { from: S.approvedPendingPayment, to: S.completed, event: 'payVirtual' },
  // The member cancels an unpaid order; the expiry job ends one whose time is up (expiry.ts).
  // From 15: coming.
  { from: S.pendingPayment, to: S.withdrawn, event: 'cancel' },
  { from: S.pendingPayment, to: S.expired, event: 'expire' },
  { from: S.approvedPendingPayment, to: S.withdrawn, event: 'cancel' },
  { from: S.approvedPendingPayment, to: S.expired, event: 'expire' },
  // Operators ship a paid order or cancel and refund it before shipping (fulfilment.ts); the
  // member confirms receipt (order.service.ts).
  { from: S.confirming, to: S.awaitingReceipt, event: 'ship' },
  { from: S.confirming, to: S.withdrawn, event: 'refund' },
  { from: S.awaitingReceipt, to: S.completed, event: 'confirm' },
  // Coming (supplier failure): the supplier cannot take a paid order; it fails and is refunded.
  { from: S.confirming, to: S.failed, event: 'fail' },
  // Provider goods (modules/provider): a paid order of cinema tickets, top-ups or e-codes waits
  // in 24 while the provider issues them; issued, it is completed; a failed issue is refunded (51).
  { from: S.confirming, to: S.completed, event: 'issue' },
  // Coming (after-sales): a delivered order goes to after-sales and, once settled, is completed.
  { from: S.awaitingReceipt, to: S.afterSales, event: 'openAfterSales' },
  { from: S.completed, to: S.afterSales, event: 'openAfterSales' },
  { from: S.afterSales, to: S.completed, event: 'closeAfterSales' },
];

/** Statuses an order never leaves. */
export const ORDER_FINAL_STATUSES: readonly OrderStatus[] = [S.withdrawn, S.expired, S.notApproved, S.failed];

/** Whether the table has a move from `from` to `to` (null: a new order). */
export const canMove = (from: number | null, to: number): boolean =>
  ORDER_TRANSITIONS.some((t) => t.from === from && t.to === to);

/** The status `event` moves an order in status `from` to; undefined when the event does not apply. */
export const transitionOf = (from: number | null, event: OrderEvent): OrderStatus | undefined =>
  ORDER_TRANSITIONS.find((t) => t.from === from && t.event === event)?.to;
