import { type Browser, expect, type Page, test } from '@playwright/test';
import type { ProviderSubmitResult } from '@sitemall/contract';
import { operatorPage as consolePage, menu, type Operator, screenshots } from './console.ts';
import { api, pwdLogin, storedToken } from './site.ts';

/**
 * Provider goods in the console (issue 15) against the real server and the provider simulator:
 * the 719 member tops up a phone (issued by the worker through the simulator); the 719 operator
 * finds the provider order by its number and reads its attempt log, imports e-codes from a CSV
 * (a duplicate line reported), and the finance reviewer runs today's reconciliation. Screenshots
 * go to SHOTS_DIR (default /work/shots/provider).
 * Alone: npx playwright test e2e/admin-provider.spec.ts --project admin-provider --no-deps
 */

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

const shot = screenshots('/work/shots/provider');
/** Today in China (the mall's days). */
const chinaToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

/** Uncaught errors of the operators' pages: the journey ends with none. */
const pageErrors: string[] = [];

/** Operators sit in China: the pickers' "today" is the mall's day. */
const operatorPage = (browser: Browser, username: Operator) =>
  consolePage(browser, username, {
    context: { timezoneId: 'Asia/Shanghai' },
    watch: (page) => page.on('pageerror', (error) => pageErrors.push(`${username}: ${error.message}`)),
  });

const openProvider = async (page: Page) => {
  await menu(page, '供应商商品');
  await expect(page.getByRole('tab', { name: '服务商订单' })).toBeVisible();
};

test('an operator sees a provider order, imports codes; finance runs the reconciliation', async ({
  page,
  request,
  browser,
}) => {
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  const topup = await api<ProviderSubmitResult>(
    request,
    '/api/topup/submit',
    { siteId: 719, phone: '13800138000', amount: 20 },
    token,
  );
  await api(request, '/api/pay/payOrder', { siteId: 719, orderNo: topup.orderNo, payWay: 'ye' }, token);

  // The 719 operator: the order by its number, issued, with its attempt log.
  const op = await operatorPage(browser, 'op719');
  await openProvider(op);
  await op.getByLabel('订单号').fill(topup.orderNo);
  await op.getByRole('button', { name: /查\s?询/ }).click();
  const row = op.locator('.ant-table-row', { hasText: topup.orderNo });
  await expect(row).toBeVisible();
  // Issued by the worker right after payment (the simulator answers at once).
  await expect
    .poll(
      async () => {
        await op.getByRole('button', { name: /查\s?询/ }).click();
        return row.textContent();
      },
      { timeout: 30_000 },
    )
    .toContain('已出票');
  await expect(row).toContainText('话费直充');
  await shot(op, 'provider-orders');
  await row.getByRole('button', { name: '详情' }).click();
  const drawer = op.locator('.ant-drawer-content');
  await expect(drawer.getByText('出票记录（1）')).toBeVisible();
  await expect(drawer).toContainText('138****8000');
  await expect(drawer).not.toContainText('13800138000');
  await expect(drawer.locator('.ant-timeline')).toContainText('已出票');
  await shot(op, 'provider-order-detail');
  await op.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // E-codes from a CSV: three lines, one repeated.
  await op.getByRole('tab', { name: '电子码库存' }).click();
  await expect(op.getByText('还没有导入电子码').or(op.locator('.ant-table-row').first())).toBeVisible();
  await shot(op, 'code-stock-empty');
  await op.getByRole('button', { name: '导入电子码' }).click();
  const modal = op.locator('.ant-modal-content');
  await modal.getByLabel('商品规格 ID').fill('880001');
  await modal.locator('input[type=file]').setInputFiles({
    name: 'codes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('电子码\nE2E0000000001\nE2E0000000002\nE2E0000000001\n'),
  });
  await expect(modal.getByText('codes.csv')).toBeVisible();
  await modal.getByLabel('导入原因').fill('补充星巴克券码');
  await shot(op, 'code-import-form');
  await modal.getByRole('button', { name: /确\s?[认定]/ }).click();
  const report = op.locator('.ant-card', { hasText: '导入结果' });
  await expect(report).toContainText('新增 2 个，重复 1 个，无效 0 个');
  await expect(report).toContainText('重复（文件中已出现）');
  await expect(report).not.toContainText('E2E0000000001');
  await expect(op.locator('.ant-table-row', { hasText: '880001' })).toBeVisible();
  await shot(op, 'code-import-report');
  // The 719 operator has no finance permission: no reconciliation tab.
  await expect(op.getByRole('tab', { name: '对账' })).toHaveCount(0);

  // Finance: today's reconciliation, the top-up matched.
  const fin = await operatorPage(browser, 'finance');
  await openProvider(fin);
  await fin.getByRole('tab', { name: '对账' }).click();
  await expect(fin.getByText('还没有对账结果').or(fin.locator('.ant-table-row').first())).toBeVisible();
  await fin.getByRole('button', { name: '执行对账' }).click();
  const run = fin.locator('.ant-modal-content');
  const day = run.getByLabel('对账日期');
  await day.click();
  await day.fill(chinaToday());
  await day.press('Enter');
  await run.getByLabel('操作原因').fill('核对当日话费直充');
  await shot(fin, 'reconcile-form');
  await run.getByRole('button', { name: /确\s?[认定]/ }).click();
  await expect(fin.getByText(/对账完成/)).toBeVisible();
  const recon = fin.locator('.ant-table-row', { hasText: '充值服务商' }).first();
  await expect(recon).toContainText(chinaToday());
  await expect(recon).toContainText('财务复核');
  await shot(fin, 'reconciliations');
  expect(pageErrors).toEqual([]);
});
