import { BillDetails } from '../features/bills/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** billDetails (spec section 2): the member's points ledger. */
export function Component() {
  return (
    <RequireMember title="账单明细">
      <BillDetails />
    </RequireMember>
  );
}
