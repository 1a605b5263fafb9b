import { beforeEach, describe, expect, it } from 'vitest';
import {
  addGuestLine,
  clearGuestCart,
  GUEST_CART_KEY,
  mergePayload,
  readGuestCart,
  removeGuestLines,
  setGuestQuantity,
} from './guestCart.ts';

const source = { source: 2, type: 1, name: '自营', hasAddressTab: true };
const item = (productId: number, specificationId: number, num: number) => ({
  productId,
  specificationId,
  specificationValue: `规格${specificationId}`,
  num,
  name: `商品${productId}`,
  image: '',
  price: 1000,
  source,
});

beforeEach(() => localStorage.clear());

describe('guest cart on the device', () => {
  it('is kept per site, and adding the same specification sums the quantity', () => {
    addGuestLine('719', item(1, 11, 1));
    addGuestLine('719', item(1, 11, 2));
    addGuestLine('719', item(1, 12, 1));
    addGuestLine('1000', item(5, 51, 1));
    expect(readGuestCart('719').map((l) => [l.productId, l.specificationId, l.num])).toEqual([
      [1, 11, 3],
      [1, 12, 1],
    ]);
    expect(localStorage.getItem(`719_${GUEST_CART_KEY}`)).not.toBeNull();
    expect(readGuestCart('1000')).toHaveLength(1);
  });

  it('sets quantities, removes lines and clears', () => {
    addGuestLine('719', item(1, 11, 1));
    addGuestLine('719', item(2, 21, 1));
    setGuestQuantity('719', { productId: 1, specificationId: 11 }, 4);
    removeGuestLines('719', [{ productId: 2, specificationId: 21 }]);
    expect(readGuestCart('719').map((l) => l.num)).toEqual([4]);
    clearGuestCart('719');
    expect(readGuestCart('719')).toEqual([]);
    expect(localStorage.getItem(`719_${GUEST_CART_KEY}`)).toBeNull();
  });

  it('the merge payload has one line per specification with summed quantities and no display data', () => {
    expect(mergePayload([item(1, 11, 1), item(2, 21, 2), item(1, 11, 3)])).toEqual([
      { productId: 1, specificationId: 11, specificationValue: '规格11', num: 4 },
      { productId: 2, specificationId: 21, specificationValue: '规格21', num: 2 },
    ]);
  });

  it('ignores what is not a list', () => {
    localStorage.setItem(`719_${GUEST_CART_KEY}`, JSON.stringify({ value: 'oops' }));
    expect(readGuestCart('719')).toEqual([]);
  });
});
