import { CartPage } from '../features/cart/index.ts';

/** shoppingCart (spec section 2): the member's cart, or a visitor's device cart on guest-cart sites. */
export function Component() {
  return <CartPage />;
}
