import { ComingSoon } from '../layout/ComingSoon.tsx';

/** batchOrder (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="批量下单" notice="批量下单功能即将开放" />;
}
