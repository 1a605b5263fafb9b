import { ComingSoon } from '../layout/ComingSoon.tsx';

/** billDetails (spec section 2): filled by a later issue. */
export function Component() {
  return <ComingSoon title="账单明细" notice="账单明细功能即将开放" />;
}
