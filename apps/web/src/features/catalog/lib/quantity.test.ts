// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { clampQuantity, maxQuantity, quantityHint } from './quantity.ts';

describe('maxQuantity', () => {
  it('is the stock when there is no purchase limit', () => {
    expect(maxQuantity(37, 0)).toBe(37);
  });
  it('is the smaller of stock and purchase limit', () => {
    expect(maxQuantity(37, 5)).toBe(5);
    expect(maxQuantity(3, 5)).toBe(3);
  });
  it('is 0 without stock, whatever the limit', () => {
    expect(maxQuantity(0, 5)).toBe(0);
    expect(maxQuantity(-2, 0)).toBe(0);
  });
});

describe('clampQuantity', () => {
  it('keeps a quantity inside [1, max]', () => {
    expect(clampQuantity(3, 5)).toBe(3);
    expect(clampQuantity(9, 5)).toBe(5);
    expect(clampQuantity(0, 5)).toBe(1);
    expect(clampQuantity(-4, 5)).toBe(1);
  });
  it('treats missing or odd input as 1 and drops fractions', () => {
    expect(clampQuantity(null, 5)).toBe(1);
    expect(clampQuantity(undefined, 5)).toBe(1);
    expect(clampQuantity(Number.NaN, 5)).toBe(1);
    expect(clampQuantity(2.7, 5)).toBe(2);
  });
  it('stays 1 when nothing can be bought', () => {
    expect(clampQuantity(4, 0)).toBe(1);
  });
});

describe('quantityHint', () => {
  it('names what bounds the quantity', () => {
    expect(quantityHint(0, 5)).toBe('暂时无货');
    expect(quantityHint(100, 5)).toBe('每单限购 5 件');
    expect(quantityHint(3, 5)).toBe('库存 3 件');
    expect(quantityHint(12, 0)).toBe('库存 12 件');
  });
});
