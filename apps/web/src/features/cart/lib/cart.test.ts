// @vitest-environment node
import type { CartItem } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { cartLine } from '../../../test/fixtures.ts';
import {
  cartPieces,
  cartTotals,
  groupBySource,
  isAllSelected,
  isBuyable,
  maxNum,
  priceChange,
  toggleAll,
} from './cart.ts';

/** A line of the shared fixture, with the stock and source these cases count on. */
const line = ({ id, ...over }: Partial<CartItem> & { id: number }): CartItem =>
  cartLine(id, {
    itemId: id * 10,
    source: { source: 2, type: 1, name: '自营', hasAddressTab: true },
    stock: 10,
    ...over,
  });

const jd = { source: 1, type: 1, name: '电商直供', hasAddressTab: true };

describe('cart grouping and totals', () => {
  it('groups lines per source in order of first appearance', () => {
    const groups = groupBySource([line({ id: 1 }), line({ id: 2, source: jd }), line({ id: 3 })]);
    expect(groups.map((g) => [g.name, g.lines.map((l) => l.id)])).toEqual([
      ['自营', [1, 3]],
      ['电商直供', [2]],
    ]);
  });

  it('totals only selected, buyable lines', () => {
    const lines = [
      line({ id: 1, num: 2, price: 1250 }),
      line({ id: 2, num: 1, price: 999, stock: 0 }),
      line({ id: 3, num: 3, price: 100 }),
      line({ id: 4, num: 5, price: 100, stock: 3 }),
    ];
    expect(cartTotals(lines, new Set([1, 2, 4]))).toEqual({ lineCount: 1, pieces: 2, amount: 2500 });
    expect(cartTotals(lines, new Set([1, 3]))).toEqual({ lineCount: 2, pieces: 5, amount: 2800 });
  });

  it('sold out, short of stock, over the limit and off sale lines are not buyable', () => {
    expect(isBuyable(line({ id: 1, stock: 0 }))).toBe(false);
    expect(isBuyable(line({ id: 1, stock: 2, num: 3 }))).toBe(false);
    expect(isBuyable(line({ id: 1, limitNum: 2, num: 3 }))).toBe(false);
    expect(isBuyable(line({ id: 1, isOnSale: false }))).toBe(false);
    expect(isBuyable(line({ id: 1, num: 3 }))).toBe(true);
    // The server's judgement of the saved line counts too.
    expect(isBuyable(line({ id: 1, isValid: false, msg: '超出限购' }))).toBe(false);
  });

  it('select all covers buyable lines only', () => {
    const lines = [line({ id: 1 }), line({ id: 2, stock: 0 })];
    const all = toggleAll(lines, new Set(), true);
    expect([...all]).toEqual([1]);
    expect(isAllSelected(lines, all)).toBe(true);
    expect(toggleAll(lines, all, false).size).toBe(0);
  });

  it('the most a line may take is stock, limit and cart maximum', () => {
    expect(maxNum({ stock: 5, limitNum: 0 }, 999)).toBe(5);
    expect(maxNum({ stock: 50, limitNum: 3 }, 999)).toBe(3);
    expect(maxNum({ stock: 5000, limitNum: 0 }, 999)).toBe(999);
    expect(maxNum({ stock: 0, limitNum: 0 }, 999)).toBe(1);
  });

  it('price change against the price seen before', () => {
    expect(priceChange(1200, 1000)).toBe(200);
    expect(priceChange(900, 1000)).toBe(-100);
    expect(priceChange(900, undefined)).toBe(0);
  });

  it('counts pieces for the header', () => {
    expect(cartPieces([{ num: 2 }, { num: 3 }])).toBe(5);
  });
});
