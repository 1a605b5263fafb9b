import { getItem, removeItem, setItem } from '../../../site/storage.ts';
import type { GuestLine, ProductInfo } from '../types.ts';

/**
 * The visitor's cart on sites with configJson.guestCart = 'Y' (spec section 6): kept in local
 * storage namespaced by site, synced to the server only when the visitor logs in.
 */
export const GUEST_CART_KEY = 'guestCart';

/** A product specification: what makes two lines the same line. */
export type LineKey = Pick<ProductInfo, 'productId' | 'specificationId'>;

const sameLine = (a: LineKey, b: LineKey) =>
  a.productId === b.productId && a.specificationId === b.specificationId;

export function readGuestCart(siteId: string | null): GuestLine[] {
  const lines = getItem<GuestLine[]>(GUEST_CART_KEY, { siteId });
  return Array.isArray(lines) ? lines.filter((l) => l && l.num > 0) : [];
}

function write(siteId: string | null, lines: GuestLine[]): GuestLine[] {
  if (lines.length === 0) removeItem(GUEST_CART_KEY, siteId);
  else setItem(GUEST_CART_KEY, lines, { siteId });
  return lines;
}

/** Adding a line that exists increases its quantity (spec section 5). */
export function addGuestLine(
  siteId: string | null,
  line: Omit<GuestLine, 'addedAt'>,
  now = Date.now(),
): GuestLine[] {
  const lines = readGuestCart(siteId);
  const existing = lines.find((l) => sameLine(l, line));
  if (existing) existing.num += line.num;
  else lines.push({ ...line, addedAt: now });
  return write(siteId, lines);
}

export function setGuestQuantity(siteId: string | null, key: LineKey, num: number): GuestLine[] {
  return write(
    siteId,
    readGuestCart(siteId).map((l) => (sameLine(l, key) ? { ...l, num } : l)),
  );
}

export function removeGuestLines(siteId: string | null, keys: LineKey[]): GuestLine[] {
  return write(
    siteId,
    readGuestCart(siteId).filter((l) => !keys.some((k) => sameLine(l, k))),
  );
}

export const clearGuestCart = (siteId: string | null): void => removeItem(GUEST_CART_KEY, siteId);

/** The merge call's payload: one productInfo per product and specification, quantities summed. */
export function mergePayload(lines: readonly ProductInfo[]): ProductInfo[] {
  const merged: ProductInfo[] = [];
  for (const line of lines) {
    const existing = merged.find((m) => sameLine(m, line));
    if (existing) existing.num += line.num;
    else
      merged.push({
        productId: line.productId,
        specificationId: line.specificationId,
        specificationValue: line.specificationValue,
        num: line.num,
      });
  }
  return merged;
}

/** A stable negative id for a guest line so the cart page can treat it like a server line. */
export const guestLineId = (line: LineKey): number => -(line.productId * 100_000 + line.specificationId);
