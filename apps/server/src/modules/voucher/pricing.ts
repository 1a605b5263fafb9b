import { VOUCHER_MSG, type VoucherKind, type VoucherScope } from '@sitemall/contract';

/**
 * The voucher step of the price pipeline (design promotions.md sections 1 and 6): list price →
 * member price → vouchers → payment split. Pure arithmetic on integer fen, so the checkout
 * preview, the submission and the tests compute the same numbers.
 */

/** A checkout line as vouchers see it: its amount is after the member price. */
export interface PricingLine {
  specificationId: number;
  productId: number;
  categoryId: number | null;
  source: number;
  amount: number;
}

export interface VoucherRule {
  id: number;
  kind: VoucherKind;
  value: number;
  cap: number | null;
  threshold: number;
  scope: VoucherScope;
  stackGroup: string;
}

export const inScope = (scope: VoucherScope, line: PricingLine): boolean => {
  switch (scope.type) {
    case 'all':
      return true;
    case 'categories':
      return line.categoryId !== null && scope.ids.includes(line.categoryId);
    case 'products':
      return scope.ids.includes(line.productId);
    case 'sources':
      return scope.ids.includes(line.source);
  }
};

/**
 * Splits `total` fen over `weights` in proportion, whole fen only: floors first, then the fen
 * left go one each to the largest remainders (earlier lines first on ties). The parts sum to
 * `total` exactly and none exceeds its weight when total <= sum of weights.
 */
export function splitProportionally(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - parts.reduce((s, p) => s + p, 0);
  const order = weights
    .map((w, i) => ({ i, rest: (total * w) % sum }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

/**
 * Fen a voucher takes off, or why it takes nothing. The threshold is checked against the
 * in-scope lines before any voucher; the value comes off what is left of them (`left`), so a
 * percent after an amount-off multiplies instead of counting the list price twice.
 */
export function voucherValue(rule: VoucherRule, base: number, left = base): { off: number; reason: string } {
  if (base <= 0) return { off: 0, reason: VOUCHER_MSG.outOfScope };
  if (base < rule.threshold) return { off: 0, reason: VOUCHER_MSG.belowThreshold };
  if (rule.kind === 'percent') {
    const off = Math.floor((left * rule.value) / 100);
    return { off: rule.cap === null ? off : Math.min(off, rule.cap), reason: '' };
  }
  return { off: Math.min(rule.value, left), reason: '' };
}

export interface Applied {
  /** Per line, in the order given: fen the vouchers took off. */
  savings: number[];
  total: number;
  /** Per voucher id: fen it took off. */
  byVoucher: Map<number, number>;
  /** The first voucher that could not be applied, and why. */
  refused?: { id: number; reason: string };
}

/**
 * Applies vouchers in the order given (voucherValue), each split over its in-scope lines in
 * proportion to what is left of them. One voucher per stacking group.
 */
export function applyVouchers(lines: readonly PricingLine[], rules: readonly VoucherRule[]): Applied {
  const left = lines.map((l) => l.amount);
  const byVoucher = new Map<number, number>();
  const groups = new Set<string>();
  for (const rule of rules) {
    if (groups.has(rule.stackGroup))
      return { ...result(lines, left, byVoucher), refused: { id: rule.id, reason: VOUCHER_MSG.sameGroup } };
    groups.add(rule.stackGroup);
    const eligible = lines.flatMap((l, i) => (inScope(rule.scope, l) ? [i] : []));
    const listBase = eligible.reduce((s, i) => s + (lines[i]?.amount ?? 0), 0);
    const room = eligible.map((i) => left[i] ?? 0);
    const { off: taken, reason } = voucherValue(
      rule,
      listBase,
      room.reduce((s, r) => s + r, 0),
    );
    if (reason) return { ...result(lines, left, byVoucher), refused: { id: rule.id, reason } };
    const parts = splitProportionally(taken, room);
    eligible.forEach((i, k) => {
      left[i] = (left[i] ?? 0) - (parts[k] ?? 0);
    });
    byVoucher.set(rule.id, taken);
  }
  return result(lines, left, byVoucher);
}

function result(lines: readonly PricingLine[], left: number[], byVoucher: Map<number, number>): Applied {
  const savings = lines.map((l, i) => l.amount - (left[i] ?? 0));
  return { savings, total: savings.reduce((s, x) => s + x, 0), byVoucher };
}

/**
 * The best combination by default: each voucher alone is valued, then the best of each stacking
 * group is taken, largest first. Answers the ids in the order to apply.
 */
export function bestCombination(lines: readonly PricingLine[], rules: readonly VoucherRule[]): number[] {
  const valued = rules
    .map((r) => ({ r, off: applyVouchers(lines, [r]) }))
    .filter((v) => !v.off.refused && v.off.total > 0)
    .sort((a, b) => b.off.total - a.off.total || a.r.id - b.r.id);
  const picked: VoucherRule[] = [];
  for (const { r } of valued) {
    if (picked.some((p) => p.stackGroup === r.stackGroup)) continue;
    picked.push(r);
  }
  // What is left after the first may make a later one worth less (or nothing): keep those that add.
  const kept: VoucherRule[] = [];
  let total = 0;
  for (const r of picked) {
    const next = applyVouchers(lines, [...kept, r]);
    if (!next.refused && next.total > total) {
      kept.push(r);
      total = next.total;
    }
  }
  return kept.map((r) => r.id);
}
