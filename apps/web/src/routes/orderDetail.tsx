import { useSearchParams } from 'react-router';
import { OrderDetailView } from '../features/order/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** orderDetail (spec section 2; query orderNo). */
export function Component() {
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  return (
    <RequireMember title="订单详情">
      <OrderDetailView key={orderNo} orderNo={orderNo} />
    </RequireMember>
  );
}
