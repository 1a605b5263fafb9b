import { readFileSync } from 'node:fs';
import { type Browser, expect as baseExpect, type Page, test } from '@playwright/test';
import { operatorPage as consolePage, menu, screenshots } from './console.ts';
import { openedDialog, pwdLogin, settle } from './site.ts';

/**
 * The console's promotion screens (issue 13 item 5) against the real server: the 719 operator
 * creates a voucher template, the 719 member claims it in 领券中心 and the console shows the
 * claim; pause; a card batch is submitted by the operator, approved by finance, its codes
 * downloaded once, a card found by its last four characters and frozen; VIP levels and a
 * member's level. Screenshots of every tab go to SHOTS_DIR (default /work/shots/promo-console).
 * Alone: npx playwright test e2e/admin-promotions.spec.ts --project admin-promotions --no-deps
 */

test.describe.configure({ mode: 'serial' });
// Six engineers share two CPUs: a console list may take longer than the default 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });
test.setTimeout(180_000);

const shot = screenshots('/work/shots/promo-console');
const stamp = Date.now().toString(36).slice(-5);

/** The promotion screens are wide: the operators' screens here are 1440 px. */
const operatorPage = (browser: Browser, username: 'op719' | 'finance') =>
  consolePage(browser, username, { context: { viewport: { width: 1440, height: 900 } } });

const tab = async (page: Page, name: string) => {
  await page.getByRole('tab', { name }).click();
  await settle(page);
};
const dialog = (page: Page) => page.getByRole('dialog').last();
const confirm = (scope: ReturnType<typeof dialog>) =>
  scope.getByRole('button', { name: /确\s?[认定]/ }).click();
const popOk = (page: Page) =>
  page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /确\s?定|OK/ })
    .click();

test('create a voucher template on 719, claim it as a member, see the use count; pause it', async ({
  browser,
}) => {
  const op = await operatorPage(browser, 'op719');
  await menu(op, '优惠券与卡包');
  await expect(op).toHaveURL(/\/admin\/promotions/);
  await expect(op.getByRole('row', { name: /新人专享券/ })).toBeVisible();
  await shot(op, 'promotions-vouchers');

  const name = `控制台券${stamp}`;
  await op.getByRole('button', { name: '新建优惠券' }).click();
  const form = dialog(op);
  await form.getByLabel('名称').fill(name);
  await form.getByLabel('减免金额（元）').fill('5');
  await shot(op, 'promotions-voucher-create');
  await confirm(form);
  await expect(op.getByText(`已创建：${name}`)).toBeVisible();
  await op.reload();
  const row = op.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('立减5');
  await expect(row).toContainText('0 / 不限');

  const member = await (await browser.newContext()).newPage();
  await pwdLogin(member, 719);
  await member.goto('voucherCenter?siteId=719');
  const card = member.getByTestId('center-card').filter({ hasText: name });
  await expect(card).toBeVisible();
  await card.getByTestId('center-claim').click();
  await expect(member.getByText('领取成功')).toBeVisible();

  await op.reload();
  await expect(row).toContainText('1 / 不限');
  await shot(op, 'promotions-vouchers-claimed');

  await row.getByRole('button', { name: '暂停' }).click();
  await dialog(op).getByLabel('操作原因').fill('库存盘点，暂停领取');
  await confirm(dialog(op));
  await expect(row).toContainText('已暂停');

  await row.getByRole('button', { name: '结束' }).click();
  await shot(op, 'promotions-voucher-reason');
  await dialog(op)
    .getByRole('button', { name: /取\s?消/ })
    .click();

  for (const [name, file] of [
    ['领取审核', 'promotions-claims'],
    ['活动预算', 'promotions-budgets'],
    ['卡包商品', 'promotions-packs'],
  ] as const) {
    await tab(op, name);
    await shot(op, file);
  }
  await expect(op.getByRole('row', { name: /双十二大额券预算/ })).toHaveCount(0);
  await tab(op, '活动预算');
  await expect(op.getByRole('row', { name: /双十二大额券预算/ })).toBeVisible();
});

test('a card batch: submitted by the operator, approved by finance, codes downloaded once, a card frozen', async ({
  browser,
}) => {
  const op = await operatorPage(browser, 'op719');
  await op.goto('/admin/promotions?tab=batches');
  await op.getByRole('button', { name: /^发\s?卡$/ }).click();
  const form = dialog(op);
  await form.getByLabel('卡包商品').click();
  await op.getByTitle(/100积分礼品卡/).click();
  await form.getByLabel('张数').fill('2');
  await form.getByLabel('发卡原因').fill(`年终福利 ${stamp}`);
  await shot(op, 'promotions-batch-create');
  await confirm(form);
  const row = op.getByRole('row', { name: new RegExp(`年终福利 ${stamp}`) });
  await expect(row).toContainText('待复核');
  // The maker sees no approval button.
  await expect(row.getByRole('button', { name: '复核通过' })).toHaveCount(0);

  const finance = await operatorPage(browser, 'finance');
  await finance.goto('/admin/promotions?tab=batches');
  const queued = finance.getByRole('row', { name: new RegExp(`年终福利 ${stamp}`) });
  await shot(finance, 'promotions-batches-finance');
  await queued.getByRole('button', { name: '复核通过' }).click();
  await popOk(finance);
  await expect(queued).toContainText('已生成');

  await op.reload();
  await expect(row).toContainText('待导出');
  await shot(op, 'promotions-batches');
  const downloading = op.waitForEvent('download');
  await row.getByRole('button', { name: '导出卡号' }).click();
  await popOk(op);
  const file = readFileSync(await (await downloading).path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = file.trim().split('\n');
  expect(lines).toHaveLength(3);
  const code = lines[1]?.split(',')[1] as string;
  expect(code).toMatch(/^[A-Z2-7]{16}$/);
  await expect(row).toContainText('导出');
  await expect(row.getByRole('button', { name: '导出卡号' })).toHaveCount(0);

  await tab(op, '卡查询');
  await op.getByPlaceholder('后四位或完整卡号').fill(code);
  await op.getByRole('button', { name: /查\s?询/ }).click();
  const cardRow = op.getByRole('row', { name: new RegExp(code.slice(-4)) });
  await expect(cardRow).toHaveCount(1);
  await expect(op.getByText(code)).toHaveCount(0);
  await cardRow.getByRole('button', { name: '冻结' }).click();
  await dialog(op).getByLabel('操作原因').fill('卡片遗失');
  await confirm(dialog(op));
  await expect(cardRow).toContainText('已冻结');
  await shot(op, 'promotions-cards');
});

test('VIP levels and setting the 719 member’s level', async ({ browser }) => {
  const op = await operatorPage(browser, 'op719');
  await op.goto('/admin/promotions?tab=vip');
  await expect(op.getByRole('row', { name: /金卡会员/ })).toBeVisible();
  await shot(op, 'promotions-vip');
  await op.getByPlaceholder('会员 id 或手机号').fill('13800000719');
  await op.getByRole('button', { name: /查\s?询/ }).click();
  await op.getByRole('button', { name: '设置等级' }).click();
  await (await openedDialog(op)).getByLabel(/金卡会员/).check();
  await dialog(op).getByLabel('操作原因').fill('重点客户');
  await confirm(dialog(op));
  await expect(op.getByRole('cell', { name: '重点客户' })).toBeVisible();
  await shot(op, 'promotions-vip-member');
  // Back to no level, so the other browser tests keep list prices for this member.
  await op.getByRole('button', { name: '设置等级' }).click();
  await (await openedDialog(op)).getByLabel('无等级').check();
  await dialog(op).getByLabel('操作原因').fill('恢复');
  await confirm(dialog(op));
  await expect(op.getByRole('cell', { name: '恢复', exact: true })).toBeVisible();
});
