import { describe, expect, it } from 'vitest';
import { memberUnitPrice } from '../vip/member-price';
import {
  applyVouchers,
  bestCombination,
  type PricingLine,
  splitProportionally,
  type VoucherRule,
} from './pricing';

const line = (specificationId: number, amount: number, extra: Partial<PricingLine> = {}): PricingLine => ({
  specificationId,
  productId: specificationId * 10,
  categoryId: 1,
  source: 1,
  amount,
  ...extra,
});
const all = { type: 'all' as const, ids: [] };
const rule = (id: number, r: Partial<VoucherRule>): VoucherRule => ({
  id,
  kind: 'amount',
  value: 1000,
  cap: null,
  threshold: 0,
  scope: all,
  stackGroup: 'default',
  ...r,
});

describe('splitProportionally', () => {
  it('splits whole fen that sum exactly, largest remainders first', () => {
    expect(splitProportionally(1000, [3333, 3333, 3334])).toEqual([333, 333, 334]);
    expect(splitProportionally(1, [1, 1, 1])).toEqual([1, 0, 0]);
    expect(splitProportionally(0, [5, 5])).toEqual([0, 0]);
    expect(splitProportionally(7, [0, 0])).toEqual([0, 0]);
    const parts = splitProportionally(999, [12345, 678, 91011]);
    expect(parts.reduce((s, p) => s + p, 0)).toBe(999);
  });
});

describe('voucher price pipeline (exact fen)', () => {
  const lines = [
    line(1, 6000),
    line(2, 3000, { categoryId: 2, source: 7 }),
    line(3, 1000, { categoryId: 2 }),
  ];
  it.each([
    [
      'amount over threshold, split by line',
      [rule(1, { value: 1000, threshold: 5000 })],
      [600, 300, 100],
      1000,
    ],
    ['amount below threshold refused', [rule(1, { value: 1000, threshold: 10_001 })], [0, 0, 0], 0],
    ['percent with cap', [rule(1, { kind: 'percent', value: 10, cap: 500 })], [300, 150, 50], 500],
    ['percent without cap', [rule(1, { kind: 'percent', value: 15 })], [900, 450, 150], 1500],
    [
      'percent floors to the fen',
      [rule(1, { kind: 'percent', value: 33, scope: { type: 'products', ids: [30] } })],
      [0, 0, 330],
      330,
    ],
    [
      'category scope',
      [rule(1, { value: 800, scope: { type: 'categories', ids: [2] } })],
      [0, 600, 200],
      800,
    ],
    ['source scope', [rule(1, { value: 5000, scope: { type: 'sources', ids: [7] } })], [0, 3000, 0], 3000],
    [
      'amount larger than the lines takes them to zero',
      [rule(1, { value: 50_000 })],
      [6000, 3000, 1000],
      10_000,
    ],
    [
      'amount then percent multiply (percent of what is left)',
      [rule(1, { value: 2000 }), rule(2, { kind: 'percent', value: 10, stackGroup: 'p' })],
      [1680, 840, 280],
      2800,
    ],
    [
      'points stack with an amount voucher of another group',
      [
        rule(1, { value: 1000, threshold: 5000 }),
        rule(2, { kind: 'points', value: 500, stackGroup: 'points' }),
      ],
      [900, 450, 150],
      1500,
    ],
  ])('%s', (_name, rules, savings, total) => {
    const applied = applyVouchers(lines, rules);
    expect(applied.savings).toEqual(savings);
    expect(applied.total).toBe(total);
    expect(applied.savings.every((s, i) => s >= 0 && s <= (lines[i]?.amount ?? 0))).toBe(true);
  });

  it('refuses a second voucher of one stacking group and says why', () => {
    const applied = applyVouchers(lines, [rule(1, {}), rule(2, {})]);
    expect(applied.refused).toEqual({ id: 2, reason: '同一叠加组的优惠券每单只能使用一张' });
    expect(applyVouchers(lines, [rule(1, { threshold: 20_000 })]).refused?.reason).toBe('未达到使用门槛');
    expect(applyVouchers(lines, [rule(1, { scope: { type: 'products', ids: [99] } })]).refused?.reason).toBe(
      '所选商品不在优惠券适用范围内',
    );
  });

  it('picks the best voucher of each group by default', () => {
    const rules = [
      rule(1, { value: 1000, threshold: 5000 }),
      rule(2, { kind: 'percent', value: 20, cap: 1500 }),
      rule(3, { value: 3000, threshold: 20_000 }),
      rule(4, { kind: 'points', value: 500, stackGroup: 'points' }),
    ];
    expect(bestCombination(lines, rules)).toEqual([2, 4]);
    expect(applyVouchers(lines, [rules[1]!, rules[3]!]).total).toBe(2000);
  });
});

describe('the whole price pipeline: list → member price → vouchers → points/WeChat split (exact fen)', () => {
  // One line of 3 pieces; the member's level takes `pct` % off each piece (floored per piece);
  // a time-limited discount price competes with it (the better wins) unless the site stacks them.
  it.each([
    // list, pct, discount, stack, voucher, points part → unit, vip saving, voucher saving, pay, WeChat part
    [1999, 0, null, false, null, 6000, 1999, 0, 0, 5997, 0],
    [1999, 5, null, false, null, 6000, 1900, 297, 0, 5700, 0],
    [1999, 5, 1800, false, null, 3000, 1800, 597, 0, 5400, 2400],
    [1999, 5, 1950, false, null, 0, 1900, 297, 0, 5700, 5700],
    [1999, 5, 1800, true, null, 0, 1710, 867, 0, 5130, 5130],
    [1999, 5, null, false, rule(1, { value: 1000, threshold: 5000 }), 2000, 1900, 297, 1000, 4700, 2700],
    [
      1999,
      10,
      null,
      false,
      rule(1, { kind: 'percent', value: 15, cap: 700 }),
      4000,
      1800,
      597,
      700,
      4700,
      700,
    ],
    [1999, 10, null, false, rule(1, { kind: 'percent', value: 15 }), 4590, 1800, 597, 810, 4590, 0],
  ] as const)('list %i, %i %% off, discount %s, stack %s', (list, pct, discountPrice, stack, voucher, points, unit, vipSaving, voucherSaving, pay, wechat) => {
    const member = memberUnitPrice(list, pct, { discountPrice, stack });
    expect(member).toBe(unit);
    const lines = [line(1, member * 3)];
    expect(list * 3 - member * 3).toBe(vipSaving);
    const applied = applyVouchers(lines, voucher ? [voucher] : []);
    expect(applied.total).toBe(voucherSaving);
    const payAmount = member * 3 - applied.total;
    expect(payAmount).toBe(pay);
    expect(payAmount - Math.min(points, payAmount)).toBe(wechat);
  });
});
