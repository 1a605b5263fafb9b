/**
 * The money arithmetic of after-sales, pure: how an order's payment splits over its lines and
 * channels, and what a refund of some pieces of a line gives back. Integer fen throughout;
 * sums are exact (largest remainder), never "about right".
 */

/**
 * Splits `total` over `weights` pro rata, largest remainder first (ties to the earlier
 * weight). The parts add up to `total` exactly, and each part is at most its weight when
 * `total` is at most the sum of the weights.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((s, p) => s + p, 0);
  const order = exact
    .map((x, i) => ({ i, rest: x - Math.floor(x) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] = (parts[i] as number) + 1;
    left -= 1;
  }
  return parts;
}

export interface PaidOrder {
  /** What the member paid for the order (goods and freight, after any discount). */
  payAmount: number;
  /** The WeChat part of it; the rest was paid with points. */
  cash: number;
  freightAmount: number;
}

export interface LineShare {
  paidCash: number;
  paidPoints: number;
}

/**
 * Each line's share of the payment per channel. The payment first splits over the lines and
 * the freight by their amounts (freight is not given back by after-sales), then each line's
 * share splits into WeChat and points in the order's proportion.
 */
export function lineShares(order: PaidOrder, lineAmounts: readonly number[]): LineShare[] {
  const paid = allocate(order.payAmount, [...lineAmounts, order.freightAmount]);
  const cash = allocate(order.cash, paid);
  return lineAmounts.map((_, i) => ({
    paidCash: cash[i] as number,
    paidPoints: (paid[i] as number) - (cash[i] as number),
  }));
}

export interface LineAccount {
  qty: number;
  paidCash: number;
  paidPoints: number;
  refundedCash: number;
  refundedPoints: number;
  refundedQty: number;
}

/**
 * What refunding `qty` more pieces of a line gives back per channel: the paid share of all
 * pieces refunded so far (rounded down until the last piece, which takes what is left) minus
 * what was refunded before. So partial refunds never add up to more or less than was paid.
 */
export function refundFor(line: LineAccount, qty: number): { cash: number; points: number } {
  const after = line.refundedQty + qty;
  const upTo = (paid: number) => (after >= line.qty ? paid : Math.floor((paid * after) / line.qty));
  return {
    cash: upTo(line.paidCash) - line.refundedCash,
    points: upTo(line.paidPoints) - line.refundedPoints,
  };
}
