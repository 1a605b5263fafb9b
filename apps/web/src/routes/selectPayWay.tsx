import { ComingSoon } from '../layout/ComingSoon.tsx';

/** selectPayWay (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="选择支付方式" notice="支付功能即将开放" />;
}
