import { useNavigate, useSearchParams } from 'react-router';
import { PayPage } from '../features/order/index.ts';
import { RequireMember } from '../layout/RequireMember.tsx';
import { useSiteLink } from '../site/links.ts';
import { markPaid } from './payResult.ts';

/** selectPayWay (spec section 2; query orderNo): a points payment goes /payresultvalid → /success (section 4). */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const link = useSiteLink();
  const orderNo = params.get('orderNo') ?? '';
  return (
    <RequireMember title="订单支付">
      <PayPage
        key={orderNo}
        orderNo={orderNo}
        onPaid={() => {
          markPaid(orderNo);
          navigate(link('/payresultvalid'), { replace: true });
        }}
      />
    </RequireMember>
  );
}
