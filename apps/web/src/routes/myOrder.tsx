import { ComingSoon } from '../layout/ComingSoon.tsx';

/** myOrder (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="我的订单" notice="订单功能即将开放" />;
}
