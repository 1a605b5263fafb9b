import { type LoaderFunctionArgs, replace, useLoaderData } from 'react-router';
import { PaySuccess } from '../features/order/index.ts';
import { withSiteId } from '../site/routing.ts';
import { getSiteId, getToken } from '../site/storage.ts';
import { notJustPaidTarget, takeJustPaid } from './payResult.ts';

/**
 * success (spec section 2): reached through /payresultvalid right after a payment. Opened any
 * other way there is no payment to confirm, so the shopper goes to their orders (or home).
 */
export function loader({ request }: LoaderFunctionArgs): string {
  const orderNo = takeJustPaid();
  if (orderNo) return orderNo;
  const siteId = new URL(request.url).searchParams.get('siteId') || getSiteId();
  throw replace(withSiteId(notJustPaidTarget(!!getToken()), siteId));
}

export function Component() {
  const orderNo = useLoaderData<typeof loader>();
  return <PaySuccess orderNo={orderNo} />;
}
