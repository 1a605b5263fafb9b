import { CART_MSG } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { purchaseProblem } from './purchasable';

/** The one rule cart, submission, limit check and batch orders share. */
describe('purchaseProblem', () => {
  const spec = { productId: 7, isOnSale: true, stock: 5, limitNum: 4 };
  it.each([
    ['buyable', spec, { productId: 7, num: 2 }, {}, ''],
    ['unknown specification', undefined, { productId: 7, num: 1 }, {}, CART_MSG.notOnSale],
    ['specification of another product', spec, { productId: 8, num: 1 }, {}, CART_MSG.notOnSale],
    [
      'off sale, with the caller’s words',
      { ...spec, isOnSale: false },
      { productId: 7, num: 1 },
      { offSale: '该商品已下架' },
      '该商品已下架',
    ],
    ['sold out', { ...spec, stock: 0 }, { productId: 7, num: 1 }, {}, '该规格已售罄'],
    ['short of stock', spec, { productId: 7, num: 6 }, {}, '库存不足，仅剩 5 件'],
    ['stock left to the submission', { ...spec, stock: 0 }, { productId: 7, num: 1 }, { stock: false }, ''],
    [
      'over the limit with the product’s other specifications',
      spec,
      { productId: 7, num: 2, perOrder: 5 },
      {},
      '该商品每单限购 4 件',
    ],
    ['no limit', { ...spec, limitNum: 0, stock: 99 }, { productId: 7, num: 50 }, {}, ''],
  ] as const)('%s', (_, s, line, options, expected) => {
    expect(purchaseProblem(s, line, options)).toBe(expected);
  });
});
