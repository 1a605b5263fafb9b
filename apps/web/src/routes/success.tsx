import { useState } from 'react';
import { PaySuccess } from '../features/order/index.ts';
import { paidOrder } from './paidOrder.ts';

/** success (spec section 2): reached through /payresultvalid after a points payment. */
export function Component() {
  const [orderNo] = useState(paidOrder);
  return <PaySuccess orderNo={orderNo} />;
}
