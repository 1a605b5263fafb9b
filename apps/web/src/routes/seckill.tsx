import { FlashSale } from '../features/activity/index.ts';

/** seckill (issue 14): today's flash-sale sessions. */
export function Component() {
  return <FlashSale />;
}
