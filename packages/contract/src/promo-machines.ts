import { VOUCHER_STATUS, type VoucherStatus } from './voucher.ts';

/**
 * The state machines of vouchers and gift cards as data (issue 13; design promotions.md
 * sections 1 and 2), like ORDER_TRANSITIONS: every move of a status with the event that causes
 * it. The server's moveVouchers (modules/voucher) and moveCards (modules/packs) are the only
 * writers of those statuses and refuse any move not listed here. A `from` of null is a new row.
 */

export interface Transition<S extends string, E extends string> {
  readonly from: S | null;
  readonly to: S;
  readonly event: E;
}

export const VOUCHER_EVENTS = [
  'claim',
  'claimForReview',
  'approve',
  'reject',
  'lock',
  'use',
  'release',
  'expire',
  'refundBack',
  'void',
] as const;
export type VoucherEvent = (typeof VOUCHER_EVENTS)[number];

const V = VOUCHER_STATUS;

export const VOUCHER_TRANSITIONS: readonly Transition<VoucherStatus, VoucherEvent>[] = [
  // A member claims (centre, code, ticket) or an operator issues; review templates wait first.
  { from: null, to: V.unused, event: 'claim' },
  { from: null, to: V.pendingReview, event: 'claimForReview' },
  { from: V.pendingReview, to: V.unused, event: 'approve' },
  { from: V.pendingReview, to: V.void, event: 'reject' },
  // Order submission locks it; payment uses it.
  { from: V.unused, to: V.locked, event: 'lock' },
  { from: V.locked, to: V.used, event: 'use' },
  // The order ends unpaid (cancel, expiry): back to unused, or expired when past its end.
  { from: V.locked, to: V.unused, event: 'release' },
  { from: V.locked, to: V.expired, event: 'release' },
  // The expiry job.
  { from: V.unused, to: V.expired, event: 'expire' },
  // A full refund of the order gives it back where its template says so (expired when past its end).
  { from: V.used, to: V.unused, event: 'refundBack' },
  { from: V.used, to: V.expired, event: 'refundBack' },
  // An operator voids an unused voucher.
  { from: V.unused, to: V.void, event: 'void' },
];

export const CARD_STATUS = {
  /** Issued in a batch, not sold or bound yet. */
  unsold: 'unsold',
  /** Bought as a gift: its buyer holds the code. */
  sold: 'sold',
  bound: 'bound',
  frozen: 'frozen',
  expired: 'expired',
  void: 'void',
} as const;
export type CardStatus = (typeof CARD_STATUS)[keyof typeof CARD_STATUS];

export const CARD_EVENTS = [
  'issue',
  'buy',
  'buyAsGift',
  'bind',
  'freeze',
  'unfreeze',
  'expire',
  'void',
] as const;
export type CardEvent = (typeof CARD_EVENTS)[number];

const C = CARD_STATUS;

export const CARD_TRANSITIONS: readonly Transition<CardStatus, CardEvent>[] = [
  // An operator's batch; a member's purchase (bound to the buyer, or sold for the buyer to give).
  { from: null, to: C.unsold, event: 'issue' },
  { from: null, to: C.bound, event: 'buy' },
  { from: null, to: C.sold, event: 'buyAsGift' },
  // A member binds a code and PIN.
  { from: C.unsold, to: C.bound, event: 'bind' },
  { from: C.sold, to: C.bound, event: 'bind' },
  // An operator freezes a card (a lost code, a dispute) and lifts the freeze back to the
  // status the card had, which card_freeze keeps.
  { from: C.unsold, to: C.frozen, event: 'freeze' },
  { from: C.sold, to: C.frozen, event: 'freeze' },
  { from: C.bound, to: C.frozen, event: 'freeze' },
  { from: C.frozen, to: C.unsold, event: 'unfreeze' },
  { from: C.frozen, to: C.sold, event: 'unfreeze' },
  { from: C.frozen, to: C.bound, event: 'unfreeze' },
  // The expiry job (the balance goes with a ledger entry).
  { from: C.unsold, to: C.expired, event: 'expire' },
  { from: C.sold, to: C.expired, event: 'expire' },
  { from: C.bound, to: C.expired, event: 'expire' },
  { from: C.frozen, to: C.expired, event: 'expire' },
  // An operator voids a card nobody holds.
  { from: C.unsold, to: C.void, event: 'void' },
];

/** A member's purchase of a pack product (pack_order.status). */
export const PACK_ORDER_STATUS = {
  /** Submitted with WeChat (wx_pc): waits for the scan until it expires. */
  unpaid: 'unpaid',
  paid: 'paid',
  /** Not paid in time: its WeChat code is closed. */
  closed: 'closed',
  refunded: 'refunded',
} as const;
export type PackOrderStatus = (typeof PACK_ORDER_STATUS)[keyof typeof PACK_ORDER_STATUS];

export const PACK_ORDER_EVENTS = ['buyWithPoints', 'submit', 'pay', 'expire', 'refund'] as const;
export type PackOrderEvent = (typeof PACK_ORDER_EVENTS)[number];

const PO = PACK_ORDER_STATUS;

export const PACK_ORDER_TRANSITIONS: readonly Transition<PackOrderStatus, PackOrderEvent>[] = [
  // Points pay in the purchase's own transaction; WeChat leaves the order waiting for the scan.
  { from: null, to: PO.paid, event: 'buyWithPoints' },
  { from: null, to: PO.unpaid, event: 'submit' },
  // WeChat reports the payment (notify, the pay page's query, the reconciliation), once.
  { from: PO.unpaid, to: PO.paid, event: 'pay' },
  // The expiry job, after the payment module closed the code.
  { from: PO.unpaid, to: PO.closed, event: 'expire' },
  { from: PO.paid, to: PO.refunded, event: 'refund' },
];

/** The statuses `event` may move to `to` from; empty when the table has no such move. */
export function movableFrom<S extends string, E extends string>(
  table: readonly Transition<S, E>[],
  event: E,
  to: S,
): S[] {
  return table.filter((t) => t.event === event && t.to === to && t.from !== null).map((t) => t.from as S);
}
