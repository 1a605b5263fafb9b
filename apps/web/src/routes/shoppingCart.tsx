import { ComingSoon } from '../layout/ComingSoon.tsx';

/** shoppingCart (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="购物车" notice="购物车功能即将开放" />;
}
