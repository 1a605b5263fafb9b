import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  FINITE_KEYWORD,
  finiteKeyword,
  Id,
  Int,
  idOf,
  isRowId,
  listFrom,
  malformedInteger,
  readIntegers,
} from './numbers.ts';

describe('Int', () => {
  it('always carries both bounds and the finite keyword', () => {
    expect(Int(1, 99)).toMatchObject({ type: 'integer', minimum: 1, maximum: 99, [FINITE_KEYWORD]: true });
    expect(Id()).toMatchObject({ minimum: 1, maximum: 2_147_483_647 });
    expect(() => Int(0, 2 ** 60)).toThrow('bad range');
    expect(() => Int(5, 1)).toThrow('bad range');
  });

  it('the keyword refuses what coercion makes of Infinity and 1e400', () => {
    const check = (data: unknown) => finiteKeyword.validate(true, data);
    expect([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN].map(check)).toEqual([
      false,
      false,
      false,
    ]);
    expect([1, 0, -5, 'x', null].map(check)).toEqual([true, true, true, true, true]);
  });
});

describe('malformedInteger', () => {
  const Body = Type.Object({
    siteId: Id(),
    num: Type.Optional(Int(1, 999)),
    ids: Type.Optional(Type.Union([Type.Array(Id()), Type.String({ maxLength: 100 })])),
    lines: Type.Optional(Type.Array(Type.Object({ productId: Id() }))),
  });

  it.each([
    [{ siteId: '719' }, undefined],
    [{ siteId: 719, num: '-3' }, undefined],
    [{ siteId: 719, ids: '1,2,3' }, undefined],
    [{ siteId: 719, ids: ['1', 2] }, undefined],
    [{ siteId: '0x1F' }, 'siteId'],
    [{ siteId: '1e3' }, 'siteId'],
    [{ siteId: ' 7' }, 'siteId'],
    [{ siteId: '7.0' }, 'siteId'],
    [{ siteId: 'Infinity' }, 'siteId'],
    [{ siteId: true }, 'siteId'],
    [{ siteId: null }, 'siteId'],
    [{ siteId: 1, num: null }, 'num'],
    [{ siteId: 1, num: '' }, 'num'],
    [{ siteId: 1, ids: ['1', '0x2'] }, 'ids.1'],
    [{ siteId: 1, lines: [{ productId: 1 }, { productId: '+2' }] }, 'lines.1.productId'],
  ])('%j → %s', (value, path) => expect(malformedInteger(Body, value)).toBe(path));
});

describe('isRowId', () => {
  it.each([
    [1, true],
    [2_147_483_647, true],
    [2_147_483_648, false],
    [0, false],
    [1.5, false],
    [Number.POSITIVE_INFINITY, false],
    ['1', false],
  ])('%s → %s', (value, expected) => expect(isRowId(value)).toBe(expected));
});

describe('readIntegers', () => {
  const Line = Type.Object({
    productId: Id(),
    num: Type.Optional(Int(1, 9)),
    note: Type.Optional(Type.String()),
  });
  it('reads digits as numbers and leaves everything else for the schema check to refuse', () => {
    expect(readIntegers(Line, { productId: '12', num: '3', note: '7' })).toEqual({
      productId: 12,
      num: 3,
      note: '7',
    });
    expect(readIntegers(Type.Array(Line), [{ productId: '0x1F', num: 1.9 }])).toEqual([
      { productId: '0x1F', num: 1.9 },
    ]);
    expect(readIntegers(Line, { productId: true })).toEqual({ productId: true });
  });
});

describe('idOf', () => {
  it.each([
    ['12', 12],
    [' 12 ', 12],
    [12, 12],
    ['0x1F', undefined],
    ['1e1', undefined],
    ['1.0', undefined],
    [1.5, undefined],
    ['2147483648', undefined],
    [true, undefined],
    ['', undefined],
  ])('%j → %s', (value, expected) => expect(idOf(value)).toBe(expected));
});

describe('listFrom: the one reading of a list a client sends', () => {
  it.each([
    [[1, 2], true, [1, 2]],
    ['1,2', true, ['1', '2']],
    [' 1, 2 ', true, ['1', ' 2']],
    ['', true, []],
    ['[3,4]', true, [3, 4]],
    ['[3,4', true, undefined],
    ['[{"productId":1}]', false, [{ productId: 1 }]],
    ['{"productId":1}', false, { productId: 1 }],
    ['1,2', false, undefined],
    [{ a: 1 }, true, { a: 1 }],
    [null, true, null],
    [undefined, true, undefined],
  ])('%j (commas %s) → %j', (value, commas, expected) => expect(listFrom(value, commas)).toEqual(expected));
});
