import { session } from '../site/storage.ts';

/** The order just paid, kept next to the post-pay flag so /success can link to it. */
const PAID_ORDER_KEY = 'paidOrderNo';

export const rememberPaidOrder = (orderNo: string) => session.set(PAID_ORDER_KEY, orderNo);
export const paidOrder = (): string | null => session.get<string>(PAID_ORDER_KEY);
