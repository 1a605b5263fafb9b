import { AddressBook } from '../features/address/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** myAddress (spec section 2): the member's delivery addresses. */
export function Component() {
  return (
    <RequireMember title="收货地址">
      <AddressBook />
    </RequireMember>
  );
}
