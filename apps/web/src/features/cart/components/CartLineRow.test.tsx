import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../../api/request.ts';
import { fakeServer } from '../../../test/fakeServer.ts';
import { cartLine, logInMember } from '../../../test/fixtures.ts';
import { renderSitePage } from '../../../test/sitePage.tsx';
import type { CartLine } from '../types.ts';
import { CartLineRow } from './CartLineRow.tsx';

const showLine = (line: CartLine, seenPrice?: number) => {
  fakeServer({});
  return renderSitePage(
    <CartLineRow
      line={line}
      selected={false}
      seenPrice={seenPrice}
      onSelect={() => {}}
      onNum={() => {}}
      onRemove={() => {}}
    />,
    '/shoppingCart?siteId=719',
  );
};

const checkbox = () => screen.getByLabelText(/^选择/) as HTMLInputElement;

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('cart line', () => {
  it('says how the price moved since the line was added, and nothing when it did not', async () => {
    showLine(cartLine(1, { price: 1200 }), 1000);
    expect((await screen.findByTestId('price-change')).textContent).toMatch(/^比加入时贵 /);
    cleanup();
    showLine(cartLine(1, { price: 800 }), 1000);
    expect((await screen.findByTestId('price-change')).textContent).toMatch(/^比加入时降 /);
    cleanup();
    showLine(cartLine(1), 1000);
    await screen.findByTestId('cart-line');
    expect(screen.queryByTestId('price-change')).toBeNull();
  });

  it('marks a line that cannot be bought and does not let it be selected', async () => {
    showLine(cartLine(1, { isOnSale: false, isValid: false, msg: '商品已下架' }));
    expect(await screen.findByText('已下架')).toBeTruthy();
    expect(checkbox().disabled).toBe(true);
    cleanup();
    showLine(cartLine(2, { num: 5, stock: 3, isValid: false, msg: '库存不足' }));
    expect(await screen.findByText('库存仅剩 3 件')).toBeTruthy();
    expect(checkbox().disabled).toBe(true);
    cleanup();
    showLine(cartLine(3, { num: 4, limitNum: 2, isValid: false, msg: '超出限购' }));
    expect(await screen.findByText('每单限购 2 件')).toBeTruthy();
    cleanup();
    showLine(cartLine(4));
    await screen.findByTestId('cart-line');
    expect(checkbox().disabled).toBe(false);
  });
});
