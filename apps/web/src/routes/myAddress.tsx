import { ComingSoon } from '../layout/ComingSoon.tsx';

/** myAddress (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="收货地址" notice="收货地址管理功能即将开放" />;
}
