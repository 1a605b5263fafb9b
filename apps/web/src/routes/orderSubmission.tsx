import type { Address } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AddressPicker } from '../features/address/index.ts';
import { OrderSubmission, purchaseFromQuery } from '../features/order/index.ts';
import { pointsBalanceQuery } from '../features/points/api.ts';
import { RequireMember } from '../layout/RequireMember.tsx';
import { useSiteLink } from '../site/links.ts';
import { useSite } from '../site/SiteProvider.tsx';
import { getToken } from '../site/storage.ts';

/**
 * orderSubmission (spec section 2): selected cart lines (query cartIds) or buy now (productId,
 * specificationId, num). The address picker comes from the address feature.
 */
export function Component() {
  const [params] = useSearchParams();
  const link = useSiteLink();
  const purchase = useMemo(() => purchaseFromQuery(params), [params]);
  const [address, setAddress] = useState<Address | null>(null);
  const { siteId } = useSite();
  // Only a member has a balance; a visitor sees RequireMember's login prompt instead.
  const balance = useQuery({
    ...pointsBalanceQuery(siteId ?? ''),
    enabled: !!siteId && !!purchase && !!getToken(),
  });
  if (!purchase)
    return (
      <section className="page-card">
        <Result
          status="info"
          title="没有要结算的商品"
          extra={
            <Link to={link('/shoppingCart')}>
              <Button type="primary">去购物车</Button>
            </Link>
          }
        />
      </section>
    );
  return (
    <RequireMember title="订单结算">
      <OrderSubmission
        purchase={purchase}
        address={address}
        addressSlot={<AddressPicker value={address} onChange={setAddress} />}
        balance={balance.data}
      />
    </RequireMember>
  );
}
