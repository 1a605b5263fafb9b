import type { Page } from '@playwright/test';

/** Opens a screen of the console's 营销活动 menu group, unfolding the group when it is closed. */
export async function openActivityScreen(
  page: Page,
  name: '秒杀活动' | '抽奖活动' | '拼团活动' | '砍价活动' | '权益与礼品',
) {
  const item = page.getByRole('menuitem', { name, exact: true });
  if (!(await item.isVisible())) await page.getByRole('menuitem', { name: '营销活动' }).click();
  await item.click();
}
