import { expect, type Locator, type Page, test } from '@playwright/test';
import { consoleLogin, openActivityScreen, screenshots } from './console.ts';
import { pwdLogin } from './site.ts';

/**
 * The console's activity screens (issue 14 item 6) against the real server: the 719 operator
 * creates an invited-only lottery with a prize, imports its invited users from a CSV file (a bad
 * line reported on its own), the invited 719 demo member spins the turntable, and the draw shows
 * in the activity's draws and results; the flash-sale screen shows live stock. Screenshots go to
 * SHOTS_DIR (default /work/shots/activity-console).
 * Alone: npx playwright test e2e/admin-activity.spec.ts --project admin-activity --no-deps
 */

test.describe.configure({ mode: 'serial' });
// A cold storefront and console in one test on a shared machine: generous.
test.setTimeout(300_000);

const shot = screenshots('/work/shots/activity-console');
// A code of its own per run: a rerun against a kept server never meets the last one.
const CODE = `e2e${Date.now().toString(36).slice(-6)}`;

const modalNamed = (page: Page, title: string) => page.locator('.ant-modal').filter({ hasText: title });
const confirm = (modal: Locator) => modal.getByRole('button', { name: /确\s?[认定]/ }).click();

test('op719: an invited-only lottery with a prize, invited users by CSV, the draw in results', async ({
  page,
  browser,
}) => {
  await consoleLogin(page, 'op719');
  await openActivityScreen(page, '抽奖活动');
  await expect(page).toHaveURL(/\/admin\/activity\/lottery/);
  await expect(page.getByRole('row').filter({ hasText: 'cj001' })).toBeVisible();

  await page.getByRole('button', { name: '新建抽奖活动' }).click();
  const create = modalNamed(page, '新建抽奖活动');
  await create.getByLabel('活动编码').fill(CODE);
  await create.getByLabel('活动名称').fill('E2E 贵宾抽奖');
  await create.getByLabel('仅受邀用户').check();
  await shot(page, 'console-lottery-create');
  await confirm(create);
  await expect(page.locator('.ant-message')).toContainText('已保存');
  const row = page.getByRole('row').filter({ hasText: CODE });
  await expect(row).toContainText('仅受邀用户（0）');
  await shot(page, 'console-lottery-list');

  await row.getByRole('button', { name: '管理' }).click();
  const drawer = page.locator('.ant-drawer-content');
  await expect(drawer).toContainText('还没有奖品');
  await drawer.getByRole('button', { name: '添加奖品' }).click();
  const prize = modalNamed(page, '添加奖品');
  await prize.getByLabel('奖品名称').fill('智能台灯');
  await prize.getByLabel('奖品总数（留空为不限）').fill('10');
  await confirm(prize);
  await expect(drawer.getByRole('row').filter({ hasText: '智能台灯' })).toContainText('100.0%');
  await shot(page, 'console-lottery-prizes');

  await drawer.getByRole('tab', { name: '受邀用户' }).click();
  await drawer.locator('input[type=file]').setInputFiles({
    name: 'invited.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('邀请码,手机号\nE2E-719-A,13800000719\nbad code!,\nE2E-719-B,123\n'),
  });
  await expect(drawer).toContainText('导入结果：新增 1 行，已存在 0 行，错误 2 行');
  await expect(drawer).toContainText('邀请码只能包含字母、数字、_ 和 -，最多 64 位');
  await expect(drawer).toContainText('手机号须为 11 位数字，以 1 开头');
  await expect(drawer.getByRole('row').filter({ hasText: 'E2E-719-A' }).last()).toContainText('未绑定');
  await shot(page, 'console-lottery-invited-import');

  // The invited 719 demo member (by phone) spins the turntable of this activity.
  const shopper = await (await browser.newContext()).newPage();
  await pwdLogin(shopper, 719);
  await shopper.goto(`lottery?code=${CODE}&siteId=719`);
  // The storefront's first page of this context loads cold on a busy machine.
  await expect(shopper.getByTestId('lottery')).toBeVisible({ timeout: 30_000 });
  await shopper.getByTestId('lottery-spin').click();
  await expect(shopper.getByTestId('lottery-result')).toHaveText('恭喜获得智能台灯');
  await shot(shopper, 'storefront-lottery-invited-won');

  await drawer.getByRole('tab', { name: '抽奖记录' }).click();
  await expect(drawer.getByRole('row').filter({ hasText: '智能台灯' })).toContainText('13800000719');
  await shot(page, 'console-lottery-draws');
  await drawer.getByRole('tab', { name: '中奖与发货' }).click();
  await expect(drawer.getByRole('row').filter({ hasText: '智能台灯' })).toContainText('待领取');
  const download = page.waitForEvent('download');
  await drawer.getByRole('button', { name: '导出发货单（xlsx）' }).click();
  expect((await download).suggestedFilename()).toBe(`gifts-${CODE}.xlsx`);
  await shot(page, 'console-lottery-gifts');
  await drawer.getByRole('tab', { name: '活动效果' }).click();
  const draws = drawer.locator('.ant-statistic').filter({ hasText: '抽奖次数' });
  await expect(draws).toContainText('1');
  await expect(drawer.getByRole('row').filter({ hasText: '智能台灯' })).toContainText('9');
  await shot(page, 'console-lottery-results');
});

test('op719: the flash-sale screen shows sessions and each activity with live stock', async ({ page }) => {
  await consoleLogin(page, 'op719');
  await openActivityScreen(page, '秒杀活动');
  await expect(page).toHaveURL(/\/admin\/activity\/seckill/);
  await expect(page.getByText('每日场次（站点 719）')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('row').filter({ hasText: '早场' })).toContainText('00:00 – 10:00');
  const sale = page.getByRole('row').filter({ hasText: '限时秒杀' }).first();
  await expect(sale).toContainText('进行中');
  await expect(page.getByText('售出进度').first()).toBeVisible();
  await shot(page, 'console-seckill');
  await sale.getByRole('button', { name: '编辑' }).click();
  await expect(modalNamed(page, '编辑秒杀活动')).toContainText('秒杀规格');
  await shot(page, 'console-seckill-edit');
});
