import { describe, expect, it } from 'vitest';
import { allocate, lineShares, refundFor } from './split';

describe('allocate', () => {
  it.each([
    { total: 100, weights: [1, 1, 1], parts: [34, 33, 33] },
    { total: 0, weights: [5, 7], parts: [0, 0] },
    { total: 10, weights: [0, 0], parts: [0, 0] },
    { total: 7, weights: [3, 4], parts: [3, 4] },
    { total: 1, weights: [999, 1], parts: [1, 0] },
    { total: 5, weights: [1, 1, 1, 1, 1, 1, 1], parts: [1, 1, 1, 1, 1, 0, 0] },
  ])('$total over $weights → $parts', ({ total, weights, parts }) => {
    expect(allocate(total, weights)).toEqual(parts);
  });
});

describe('lineShares (payment split over lines and channels)', () => {
  it.each([
    // Points only: each line paid its amount in points.
    {
      payAmount: 3500,
      cash: 0,
      freight: 500,
      lines: [1000, 2000],
      shares: [
        [0, 1000],
        [0, 2000],
      ],
    },
    // WeChat only.
    {
      payAmount: 3000,
      cash: 3000,
      freight: 0,
      lines: [1001, 1999],
      shares: [
        [1001, 0],
        [1999, 0],
      ],
    },
    // Mixed, with fen to round: 1000 fen of 3000 by WeChat, lines 1001 / 1001 / 998.
    {
      payAmount: 3000,
      cash: 1000,
      freight: 0,
      lines: [1001, 1001, 998],
      shares: [
        [334, 667],
        [334, 667],
        [332, 666],
      ],
    },
    // Mixed with freight: freight takes its share, lines never more than their amount.
    {
      payAmount: 1100,
      cash: 1099,
      freight: 100,
      lines: [500, 500],
      shares: [
        [500, 0],
        [499, 1],
      ],
    },
  ])('pays $payAmount ($cash WeChat) for $lines + $freight freight', ({
    payAmount,
    cash,
    freight,
    lines,
    shares,
  }) => {
    const got = lineShares({ payAmount, cash, freightAmount: freight }, lines);
    expect(got.map((s) => [s.paidCash, s.paidPoints])).toEqual(shares);
    expect(got.map((s) => s.paidCash + s.paidPoints)).toEqual(lines);
    expect(got.reduce((s, x) => s + x.paidCash, 0)).toBeLessThanOrEqual(cash);
    expect(got.reduce((s, x) => s + x.paidPoints, 0)).toBeLessThanOrEqual(payAmount - cash);
  });
});

describe('refundFor (partial quantities)', () => {
  const line = { qty: 3, paidCash: 1000, paidPoints: 1, refundedCash: 0, refundedPoints: 0, refundedQty: 0 };
  it.each([
    { step: 'one of three', before: line, qty: 1, back: { cash: 333, points: 0 } },
    { step: 'all three', before: line, qty: 3, back: { cash: 1000, points: 1 } },
    {
      step: 'second of three',
      before: { ...line, refundedCash: 333, refundedQty: 1 },
      qty: 1,
      back: { cash: 333, points: 0 },
    },
    {
      step: 'the last piece takes what is left',
      before: { ...line, refundedCash: 666, refundedQty: 2 },
      qty: 1,
      back: { cash: 334, points: 1 },
    },
    {
      step: 'after a deduction the rest still adds up to what was paid',
      before: { ...line, refundedCash: 100, refundedQty: 1 },
      qty: 2,
      back: { cash: 900, points: 1 },
    },
  ])('$step', ({ before, qty, back }) => {
    expect(refundFor(before, qty)).toEqual(back);
  });
});
