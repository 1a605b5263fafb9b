/**
 * How many pieces a shopper may choose: at least 1, at most the stock of the chosen
 * specification and the product's purchase limit (limitNum 0 = no limit). 0 when nothing
 * can be bought (no stock).
 */
export function maxQuantity(stock: number, limitNum: number): number {
  const byStock = Math.max(0, Math.floor(stock));
  return limitNum > 0 ? Math.min(byStock, Math.floor(limitNum)) : byStock;
}

/** A chosen quantity brought inside [1, max]; 1 when the input is not a number. */
export function clampQuantity(value: number | null | undefined, max: number): number {
  if (max < 1) return 1;
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : 1;
  return Math.min(Math.max(n, 1), max);
}

/** Why the quantity cannot go higher, for the hint beside the input. */
export function quantityHint(stock: number, limitNum: number): string {
  if (stock <= 0) return '暂时无货';
  if (limitNum > 0 && limitNum < stock) return `每单限购 ${limitNum} 件`;
  return `库存 ${stock} 件`;
}
