// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  nextSearchState,
  parseSearchParams,
  searchParamsOf,
  searchPayload,
  yuanInputText,
  yuanToFen,
} from './searchQuery.ts';

const parse = (query: string) => parseSearchParams(new URLSearchParams(query));

describe('parseSearchParams', () => {
  it('reads the spec parameters itemName, cateId, breadTxt and time', () => {
    expect(
      parse('itemName=%E8%80%B3%E6%9C%BA&cateId=12&breadTxt=%E8%80%B3%E6%9C%BA&time=1700000000000'),
    ).toEqual({
      itemName: '耳机',
      cateId: 12,
      breadTxt: '耳机',
      time: '1700000000000',
      minPrice: undefined,
      maxPrice: undefined,
      sortField: 'relevance',
      sortType: 'desc',
      pageNum: 1,
    });
  });

  it('falls back to defaults for missing or malformed values', () => {
    const state = parse('cateId=abc&pageNum=-3&sortField=cheap&sortType=up&minPrice=x');
    expect(state.cateId).toBeUndefined();
    expect(state.pageNum).toBe(1);
    expect(state.sortField).toBe('relevance');
    expect(state.sortType).toBe('desc');
    expect(state.minPrice).toBeUndefined();
    expect(state.itemName).toBe('');
  });

  it('trims and caps the search words at the server limit', () => {
    expect(parse(`itemName=${encodeURIComponent(`  ${'好'.repeat(80)} `)}`).itemName).toHaveLength(50);
  });

  it('caps the page at the deepest page the server lists', () => {
    expect(parse('pageNum=100').pageNum).toBe(100);
    expect(parse('pageNum=101').pageNum).toBe(1);
  });

  it('sorts by price cheapest first unless told otherwise', () => {
    expect(parse('sortField=price').sortType).toBe('asc');
    expect(parse('sortField=price&sortType=desc').sortType).toBe('desc');
    expect(parse('sortField=sales').sortType).toBe('desc');
  });

  it('reads prices in yuan as fen and swaps a reversed range', () => {
    const state = parse('minPrice=300&maxPrice=99.5');
    expect(state.minPrice).toBe(9950);
    expect(state.maxPrice).toBe(30000);
  });
});

describe('searchParamsOf', () => {
  it('round-trips through the address, leaving defaults out', () => {
    const state = parse(
      'itemName=%E6%89%8B%E6%9C%BA&breadTxt=%E6%89%8B%E6%9C%BA&sortField=price&minPrice=10&pageNum=3',
    );
    const params = searchParamsOf(state);
    expect(params.toString()).toBe(
      'itemName=%E6%89%8B%E6%9C%BA&breadTxt=%E6%89%8B%E6%9C%BA&minPrice=10&sortField=price&pageNum=3',
    );
    expect(parseSearchParams(params)).toEqual(state);
  });
});

describe('nextSearchState', () => {
  it('goes back to page 1 when a filter or sort changes, not when the page changes', () => {
    const state = parse('itemName=a&pageNum=4');
    expect(nextSearchState(state, { sortField: 'sales' }).pageNum).toBe(1);
    expect(nextSearchState(state, { pageNum: 5 }).pageNum).toBe(5);
  });
});

describe('searchPayload', () => {
  it('sends only what the search call takes, prices in fen', () => {
    expect(searchPayload(parse('itemName=tea&cateId=3&breadTxt=x&time=1&maxPrice=20'))).toEqual({
      itemName: 'tea',
      cateId: 3,
      maxPrice: 2000,
      sortField: 'relevance',
      sortType: 'desc',
      pageNum: 1,
    });
  });
});

describe('yuan and fen', () => {
  it('converts both ways without floating point errors', () => {
    expect(yuanToFen('19.9')).toBe(1990);
    expect(yuanToFen('0.07')).toBe(7);
    expect(yuanToFen('12.345')).toBeUndefined();
    expect(yuanToFen('-1')).toBeUndefined();
    expect(yuanInputText(1990)).toBe('19.9');
    expect(yuanInputText(7)).toBe('0.07');
    expect(yuanInputText(3000)).toBe('30');
  });
});
