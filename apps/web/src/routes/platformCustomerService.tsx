import { CustomerService } from '../features/catalog/index.ts';

/** platformCustomerService (spec section 2): service channels and the message form. */
export function Component() {
  return <CustomerService />;
}
