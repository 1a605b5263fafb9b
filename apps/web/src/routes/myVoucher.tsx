import { MyVouchers } from '../features/voucher/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** myVoucher (issue 13): 我的优惠券, by status. */
export function Component() {
  return (
    <RequireMember title="我的优惠券">
      <MyVouchers />
    </RequireMember>
  );
}
