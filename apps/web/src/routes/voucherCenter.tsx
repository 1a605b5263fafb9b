import { VoucherCenter } from '../features/voucher/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** voucherCenter (issue 13): 领券中心, the vouchers a member may claim. */
export function Component() {
  return (
    <RequireMember title="领券中心">
      <VoucherCenter />
    </RequireMember>
  );
}
