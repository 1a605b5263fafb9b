/**
 * The member-price step of the price pipeline (design promotions.md section 6): list price →
 * the better of the member price and a time-limited discount price (or both, where the site
 * stacks them: percentages multiply, never both off the list price). Integer fen per piece.
 */
export function memberUnitPrice(
  list: number,
  discountPct: number,
  options: { discountPrice?: number | null; stack?: boolean } = {},
): number {
  const off = (price: number) => price - Math.floor((price * discountPct) / 100);
  const discount = options.discountPrice ?? null;
  if (discount === null || discount >= list) return off(list);
  return options.stack ? off(discount) : Math.min(off(list), discount);
}
