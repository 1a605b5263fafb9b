import { getItem, setItem } from '../../../site/storage.ts';

/**
 * The price a shopper last saw for each product specification (when adding it, or on the last
 * visit to the cart), so the cart can say "the price changed" when the live price differs.
 * Kept per site on the device; the server never needs it (prices are always the server's).
 */
const KEY = 'cartSeenPrices';
const MAX_ENTRIES = 200;

export type SeenPrices = Record<string, number>;

export const readSeenPrices = (siteId: string | null): SeenPrices =>
  getItem<SeenPrices>(KEY, { siteId }) ?? {};

export function rememberPrices(siteId: string | null, prices: SeenPrices): void {
  const merged = { ...readSeenPrices(siteId), ...prices };
  const keys = Object.keys(merged);
  // Oldest entries first in insertion order: keep the store small.
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete merged[key];
  setItem(KEY, merged, { siteId });
}
