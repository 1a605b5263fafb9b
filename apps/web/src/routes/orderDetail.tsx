import { useSearchParams } from 'react-router';
import { AfterSaleEntry } from '../features/aftersale/index.ts';
import { OrderDetailView } from '../features/order/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';

/** orderDetail (spec section 2; query orderNo). */
export function Component() {
  const [params] = useSearchParams();
  const orderNo = params.get('orderNo') ?? '';
  return (
    <RequireMember title="订单详情">
      <OrderDetailView key={orderNo} orderNo={orderNo} />
      <AfterSaleEntry key={`aftersale-${orderNo}`} orderNo={orderNo} />
    </RequireMember>
  );
}
