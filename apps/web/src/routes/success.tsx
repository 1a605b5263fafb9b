import { ComingSoon } from '../layout/ComingSoon.tsx';

/** success (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="下单成功" notice="订单功能即将开放" />;
}
