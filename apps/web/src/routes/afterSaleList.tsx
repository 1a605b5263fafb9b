import { AfterSaleList } from '../features/aftersale/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** afterSaleList: the member's after-sales cases (spec section 7, after-sales list). */
export function Component() {
  return (
    <RequireMember title="我的售后">
      <AfterSaleList />
    </RequireMember>
  );
}
