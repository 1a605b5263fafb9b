import { MyOrders } from '../features/order/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** myOrder (spec section 2): the member's orders by status. */
export function Component() {
  return (
    <RequireMember title="我的订单">
      <MyOrders />
    </RequireMember>
  );
}
