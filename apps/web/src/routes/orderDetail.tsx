import { ComingSoon } from '../layout/ComingSoon.tsx';

/** orderDetail (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="订单详情" notice="订单详情功能即将开放" />;
}
