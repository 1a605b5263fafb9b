import { ComingSoon } from '../layout/ComingSoon.tsx';

/** orderSubmission (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="提交订单" notice="下单功能即将开放" />;
}
