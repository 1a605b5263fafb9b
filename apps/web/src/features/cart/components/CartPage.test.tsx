import { type CartItem, cartApi } from '@sitemall/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../../api/request.ts';
import { fakeServer } from '../../../test/fakeServer.ts';
import { cartAnswer, cartLine as line, logInMember } from '../../../test/fixtures.ts';
import { renderSitePage } from '../../../test/sitePage.tsx';
import { CartPage } from './CartPage.tsx';

/** The member's cart on the fake server: reads answer what the writes left. */
function cartServer(initial: CartItem[]) {
  let lines = initial;
  const cart = () => cartAnswer(lines);
  return fakeServer({
    [cartApi.getCartProduct.path]: cart,
    [cartApi.cartCount.path]: () => ({ count: lines.length }),
    [cartApi.updateNum.path]: (body) => {
      lines = lines.map((l) => (l.id === Number(body.id) ? { ...l, num: Number(body.num) } : l));
      return cart();
    },
    [cartApi.deleteCart.path]: (body) => {
      const ids = String(body.ids).split(',').map(Number);
      lines = lines.filter((l) => !ids.includes(l.id));
      return cart();
    },
  });
}

const showCart = () => renderSitePage(<CartPage />, '/shoppingCart?siteId=719');

/** The OK button of the confirmation open last (antd writes 确定 as "确 定"). */
const confirmButton = async () => {
  await screen.findAllByText('确 定');
  return screen.getAllByText('确 定').at(-1)?.closest('button') as HTMLElement;
};

const lineOf = (name: string) =>
  screen.getAllByTestId('cart-line').find((el) => el.textContent?.includes(name)) as HTMLElement;

beforeEach(() => logInMember());
afterEach(() => {
  cleanup();
  resetRequest();
});

describe('cart page', () => {
  it('changes a quantity at once on the page and saves it once, when the member leaves', async () => {
    const server = cartServer([line(1, { num: 2 }), line(2, { price: 500 })]);
    const page = showCart();
    expect(await screen.findByText('商品1')).toBeTruthy();
    expect(screen.getByTestId('cart-total').textContent).toBe('25.00积分');

    const first = within(lineOf('商品1'));
    fireEvent.click(first.getByLabelText('数量加一'));
    fireEvent.click(first.getByLabelText('数量加一'));
    expect((first.getByLabelText('商品1 数量') as HTMLInputElement).value).toBe('4');
    expect(screen.getByTestId('cart-pieces').textContent).toBe('5');
    expect(screen.getByTestId('cart-total').textContent).toBe('45.00积分');
    // Debounced: nothing saved while the member is still clicking.
    expect(server.bodiesOf(cartApi.updateNum.path)).toEqual([]);

    page.unmount();
    await waitFor(() =>
      expect(server.bodiesOf(cartApi.updateNum.path)).toEqual([{ siteId: '719', id: '1', num: '4' }]),
    );
    expect(server.unanswered).toEqual([]);
  });

  it('removes a line after confirmation, and shows the empty cart when the last one goes', async () => {
    const server = cartServer([line(1), line(2)]);
    showCart();
    expect(await screen.findByText('商品2')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('删除 商品1'));
    // Nothing goes before the member confirms.
    expect(server.bodiesOf(cartApi.deleteCart.path)).toEqual([]);
    fireEvent.click(await confirmButton());
    await waitFor(() => expect(screen.queryByText('商品1')).toBeNull());
    expect(server.bodiesOf(cartApi.deleteCart.path)).toEqual([{ siteId: '719', ids: '1' }]);
    expect(await screen.findByText('已删除')).toBeTruthy();
    expect(screen.getByText('共 1 种商品')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('删除 商品2'));
    fireEvent.click(await confirmButton());
    expect(await screen.findByText('购物车空空如也')).toBeTruthy();
    expect(screen.getByText('去逛逛')).toBeTruthy();
    expect(server.unanswered).toEqual([]);
  });

  it('shows the empty state for an empty cart, and a login prompt to a visitor', async () => {
    cartServer([]);
    showCart();
    expect(await screen.findByTestId('cart-empty')).toBeTruthy();
    expect(screen.queryByTestId('checkout')).toBeNull();
    cleanup();

    localStorage.removeItem('719_token');
    showCart();
    expect(await screen.findByText('登录后查看购物车')).toBeTruthy();
  });
});
