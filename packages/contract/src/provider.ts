import { type Static, Type } from '@sinclair/typebox';

/** Goods a provider issues after payment (issue 15; modules/provider on the server). */

/** E-codes of other brands (spec: 23 messaging-app voucher, 27 payment-app voucher), from a code stock. */
export const ECODE_SOURCES: readonly number[] = [23, 27];
/**
 * Supply sources whose goods a provider issues after payment (movie 20/56/57, top-up 26,
 * e-codes): a paid order of them waits in 24 until issued instead of completing at payment.
 */
export const PROVIDER_ISSUED_SOURCES: readonly number[] = [20, 56, 57, 26, ...ECODE_SOURCES];

export const PROVIDER_KINDS = ['movie', 'topup', 'code'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** A provider order's life (promotions.md section 8). */
export const PROVIDER_STATUS = {
  /** Seats held at the provider; the order waits for payment. */
  locked: 'locked',
  /** Waiting for payment (top-up: nothing held at the provider yet). */
  pending: 'pending',
  /** Paid: the outbox row the issue worker takes. */
  paid: 'paid',
  /** Sent to the provider, answer not known yet (timeout): retried with the same request id. */
  issuing: 'issuing',
  issued: 'issued',
  /** The provider refused or never issued: the order is refunded and the seats released. */
  failed: 'failed',
  /** The order was not paid in time: the seats were released. */
  expired: 'expired',
} as const;
export type ProviderStatus = (typeof PROVIDER_STATUS)[keyof typeof PROVIDER_STATUS];

/**
 * The provider order's state machine as data: (from, to). Enforced by moveProviderOrder on the
 * server, the only writer of provider_order.status.
 */
export const PROVIDER_TRANSITIONS: readonly (readonly [ProviderStatus, ProviderStatus])[] = [
  // The order is paid (in the payment's transaction): the row becomes the issue worker's outbox.
  ['locked', 'paid'],
  ['pending', 'paid'],
  // The order ended unpaid (cancel, expiry): the seats go back to the provider.
  ['locked', 'expired'],
  ['pending', 'expired'],
  // The worker sends the issue request; the answer settles it, a timeout leaves it issuing.
  ['paid', 'issuing'],
  ['issuing', 'issued'],
  // Refused by the provider, or never issued after the retries (checked by query, then cancelled).
  ['issuing', 'failed'],
];

export const canMoveProvider = (from: string, to: string) =>
  PROVIDER_TRANSITIONS.some(([f, t]) => f === from && t === to);

export const PROVIDER_STATUS_LABEL: Record<ProviderStatus, string> = {
  locked: '已锁座，待支付',
  pending: '待支付',
  paid: '出票中',
  issuing: '出票中',
  issued: '已出票',
  failed: '出票失败，已退款',
  expired: '已过期，座位已释放',
};

/** What order detail shows of goods a provider issued (codes masked). */
export const ProviderGoods = Type.Object({
  kind: Type.Union(PROVIDER_KINDS.map((k) => Type.Literal(k))),
  title: Type.String(),
  /** Cinema, hall, time and seats; the phone topped up; the brand of a code. */
  detail: Type.String(),
  status: Type.String(),
  statusName: Type.String(),
  /** The ticket or e-code, masked (first two and last two characters); '' until issued. */
  maskedCodes: Type.Array(Type.String()),
});
export type ProviderGoods = Static<typeof ProviderGoods>;

/** The first two and last two characters; the rest as *. */
export const maskCode = (code: string) =>
  code.length <= 4
    ? '*'.repeat(code.length)
    : `${code.slice(0, 2)}${'*'.repeat(code.length - 4)}${code.slice(-2)}`;

/** Phone of a top-up as shown back: 138****8000. */
export const maskPhone = (phone: string) => phone.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2');
