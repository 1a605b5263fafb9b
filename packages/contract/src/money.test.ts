import { describe, expect, it } from 'vitest';
import { fenToYuan, formatMoney } from './money.ts';

describe('fenToYuan', () => {
  it('writes two decimals from whole fen', () => {
    expect([fenToYuan(0), fenToYuan(1), fenToYuan(7), fenToYuan(100), fenToYuan(1990)]).toEqual([
      '0.00',
      '0.01',
      '0.07',
      '1.00',
      '19.90',
    ]);
  });

  it('groups thousands only when asked', () => {
    expect(fenToYuan(123456)).toBe('1234.56');
    expect(fenToYuan(123456, { grouped: true })).toBe('1,234.56');
    expect(fenToYuan(100_000_000, { grouped: true })).toBe('1,000,000.00');
    expect(fenToYuan(99_999, { grouped: true })).toBe('999.99');
  });

  it('keeps the sign of negatives in front of the grouped digits', () => {
    expect(fenToYuan(-150)).toBe('-1.50');
    expect(fenToYuan(-5)).toBe('-0.05');
    expect(fenToYuan(-123_456_789, { grouped: true })).toBe('-1,234,567.89');
  });

  it('shows float-prone amounts exactly', () => {
    // 1005 / 100 and 0.1 + 0.2 style errors would show as 10.049999… without integer parts.
    expect(fenToYuan(1005)).toBe('10.05');
    expect(fenToYuan(2_147_483_647)).toBe('21474836.47');
  });
});

describe('formatMoney', () => {
  it('is the grouped amount followed by the cash unit', () => {
    expect(formatMoney(1_000_000, '积分')).toBe('10,000.00积分');
    expect(formatMoney(-2500, '元')).toBe('-25.00元');
    expect(formatMoney(7)).toBe('0.07');
  });
});
