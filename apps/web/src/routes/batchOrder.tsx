import { BatchOrder } from '../features/batch/index.ts';

/** batchOrder (spec section 2): template, upload, preview, one order per recipient. */
export function Component() {
  return <BatchOrder />;
}
