import type { CartItem } from '@sitemall/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetRequest } from '../../../api/request.ts';
import { SiteProvider } from '../../../site/SiteProvider.tsx';
import { LOCAL_KEYS, setItem, setSiteId } from '../../../site/storage.ts';
import { fakeServer } from '../../../test/fakeServer.ts';
import { renderPage } from '../../../test/render.tsx';
import { CartPage } from './CartPage.tsx';

const line = (id: number, over: Partial<CartItem> = {}): CartItem => ({
  id,
  itemId: 100 + id,
  num: 1,
  specificationId: 200 + id,
  specificationValue: '默认',
  productSpecifications: [],
  name: `商品${id}`,
  image: '',
  orderType: 0,
  source: { source: 1, type: 1, name: '自营', hasAddressTab: true },
  price: 1000,
  stock: 50,
  limitNum: 0,
  isOnSale: true,
  isSelected: true,
  isValid: true,
  msg: '',
  ...over,
});

/** The member's cart on the fake server: reads answer what the writes left. */
function cartServer(initial: CartItem[]) {
  let lines = initial;
  const cart = () => ({
    obj: { list: lines, count: lines.reduce((s, l) => s + l.num, 0), selectedCount: 0, selectedAmount: 0 },
  });
  return fakeServer({
    '/api/productCarts/getCartProduct': cart,
    '/api/productCarts/cartCount': () => ({ count: lines.length }),
    '/api/productCarts/updateNum': (body) => {
      lines = lines.map((l) => (l.id === Number(body.id) ? { ...l, num: Number(body.num) } : l));
      return cart();
    },
    '/api/productCarts/deleteCart': (body) => {
      const ids = String(body.ids).split(',').map(Number);
      lines = lines.filter((l) => !ids.includes(l.id));
      return cart();
    },
  });
}

const showCart = () =>
  renderPage(
    <SiteProvider>
      <CartPage />
    </SiteProvider>,
    { path: '/shoppingCart?siteId=719' },
  );

/** The OK button of the confirmation open last (antd writes 确定 as "确 定"). */
const confirmButton = async () => {
  await screen.findAllByText('确 定');
  return screen.getAllByText('确 定').at(-1)?.closest('button') as HTMLElement;
};

const lineOf = (name: string) =>
  screen.getAllByTestId('cart-line').find((el) => el.textContent?.includes(name)) as HTMLElement;

beforeEach(() => {
  localStorage.clear();
  setSiteId('719');
  setItem(LOCAL_KEYS.token, 'member-token', { siteId: '719' });
});
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
    expect(server.bodiesOf('/api/productCarts/updateNum')).toEqual([]);

    page.unmount();
    await waitFor(() =>
      expect(server.bodiesOf('/api/productCarts/updateNum')).toEqual([{ siteId: '719', id: '1', num: '4' }]),
    );
    expect(server.unanswered).toEqual([]);
  });

  it('removes a line after confirmation, and shows the empty cart when the last one goes', async () => {
    const server = cartServer([line(1), line(2)]);
    showCart();
    expect(await screen.findByText('商品2')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('删除 商品1'));
    // Nothing goes before the member confirms.
    expect(server.bodiesOf('/api/productCarts/deleteCart')).toEqual([]);
    fireEvent.click(await confirmButton());
    await waitFor(() => expect(screen.queryByText('商品1')).toBeNull());
    expect(server.bodiesOf('/api/productCarts/deleteCart')).toEqual([{ siteId: '719', ids: '1' }]);
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
