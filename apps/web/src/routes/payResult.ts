import { SESSION_KEYS, session } from '../site/storage.ts';

/**
 * Post-pay (spec section 4): a payment stores the flag, naming the order just paid, before going
 * to /payresultvalid.
 */
export function markPaid(orderNo: string): void {
  session.set(SESSION_KEYS.payResult, orderNo);
}

/** The order /success may celebrate, handed from /payresultvalid to /success once. */
const JUST_PAID_KEY = 'justPaidOrderNo';

const orderNoOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/**
 * /payresultvalid: to /success only when the post-payment flag names an order; the flag is
 * consumed, so coming back (reload, history) lands on the home page instead.
 */
export function payResultTarget(): '/success' | '/home' {
  const orderNo = orderNoOf(session.take<unknown>(SESSION_KEYS.payResult));
  if (!orderNo) return '/home';
  session.set(JUST_PAID_KEY, orderNo);
  return '/success';
}

/**
 * /success: the order just paid, or null when the page was opened any other way (typed,
 * refreshed, bookmarked, by a visitor). Read once: the page shows success for one arrival only.
 */
export const takeJustPaid = (): string | null => orderNoOf(session.take<unknown>(JUST_PAID_KEY));

/** Where /success sends anyone who did not just pay: their orders, or home for a visitor. */
export const notJustPaidTarget = (isMember: boolean): '/myOrder' | '/home' =>
  isMember ? '/myOrder' : '/home';
