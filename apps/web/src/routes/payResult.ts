import { SESSION_KEYS, session } from '../site/storage.ts';

/** The points payment stores this flag before going to /payresultvalid (spec section 4, "Post-pay"). */
export function markPaid(): void {
  session.set(SESSION_KEYS.payResult, true);
}

/**
 * /payresultvalid: to /success only when the post-payment flag exists; the flag is consumed,
 * so coming back (reload, history) lands on the home page instead.
 */
export function payResultTarget(): '/success' | '/home' {
  return session.take<boolean>(SESSION_KEYS.payResult) ? '/success' : '/home';
}
