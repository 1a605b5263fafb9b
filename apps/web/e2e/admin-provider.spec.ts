import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { orderApi, type ProviderSubmitResult, pointsApi, topupApi } from '@sitemall/contract';
import { operatorPage as consolePage, menu, modal, modalOk, type Operator, screenshots } from './console.ts';
import { api, openedDialog, pwdLogin, storedToken } from './site.ts';

/**
 * Provider goods in the console (issue 15) against the real server and the provider simulator:
 * the 719 member tops up a phone (issued by the worker through the simulator); the 719 operator
 * finds the provider order by its number and reads its attempt log, imports e-codes from a CSV
 * (a duplicate line reported), and the finance reviewer runs today's reconciliation. Then, during a
 * top-up outage of the provider (the simulator's switch), two paid top-ups stay unanswered: the
 * operator cancels one and refunds it (the member's points back), retries the other in vain,
 * and once the outage ends retries it again and it is issued. Screenshots go to
 * /work/shots/provider.
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
}, testInfo) => {
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  const topup = await api<ProviderSubmitResult>(
    request,
    topupApi.submit.path,
    { siteId: 719, phone: '13800138000', amount: 20 },
    token,
  );
  await api(request, orderApi.payOrder.path, { siteId: 719, orderNo: topup.orderNo, payWay: 'ye' }, token);

  // The 719 operator: the order by its number, issued, with its attempt log.
  const op = await operatorPage(browser, 'op719');
  await openProvider(op);
  // Never empty: the demo's ticket and top-ups (db/demo/provider-orders.ts), then the journeys'.
  await expect(op.locator('.ant-table-row', { hasText: '电影票' }).first()).toBeVisible();
  await shot(op, 'provider-orders-all');
  await op.getByLabel('订单号').fill(topup.orderNo);
  await op.getByRole('button', { name: /查\s?询/ }).click();
  const row = op.locator('.ant-table-row', { hasText: topup.orderNo });
  await expect(row).toBeVisible();
  // Issued by the worker right after payment (the simulator answers at once).
  await searchUntil(op, row, '已出票');
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

  // E-codes from a CSV: three lines, one repeated. New codes on each attempt: a retry of this test
  // finds the first attempt's codes in stock.
  const batch = `E2E${testInfo.retry}${String(Date.now()).slice(-8)}`;
  const code = (n: number) => `${batch}${n}`;
  await op.getByRole('tab', { name: '电子码库存' }).click();
  // The demo's stock (db/demo/provider-orders.ts): five codes of specification 880100.
  await expect(op.locator('.ant-table-row', { hasText: '880100' })).toBeVisible();
  await shot(op, 'code-stock-demo');
  await op.getByRole('button', { name: '导入电子码' }).click();
  const modal = op.locator('.ant-modal-content');
  await modal.getByLabel('商品规格 ID').fill('880001');
  await modal.locator('input[type=file]').setInputFiles({
    name: 'codes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`电子码\n${code(1)}\n${code(2)}\n${code(1)}\n`),
  });
  await expect(modal.getByText('codes.csv')).toBeVisible();
  await modal.getByLabel('导入原因').fill('补充星巴克券码');
  await shot(op, 'code-import-form');
  await modal.getByRole('button', { name: /确\s?[认定]/ }).click();
  const report = op.locator('.ant-card', { hasText: '导入结果' });
  await expect(report).toContainText('新增 2 个，重复 1 个，无效 0 个');
  await expect(report).toContainText('重复（文件中已出现）');
  await expect(report).not.toContainText(code(1));
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

/** The provider's top-up outage (the simulator's developer switch). */
async function topupOutage(request: APIRequestContext, on: boolean) {
  const answer = await request.post('/simulator/provider/outage', { data: { kind: 'topup', on } });
  expect(answer.status()).toBe(200);
}

/** The 719 operator's provider order by its number, its detail drawer open once it needs action. */
async function openStuck(op: Page, orderNo: string) {
  await op.getByLabel('订单号').fill(orderNo);
  const row = op.locator('.ant-table-row', { hasText: orderNo });
  await searchUntil(op, row, '待处理');
  await row.getByRole('button', { name: '详情' }).click();
  const drawer = op.locator('.ant-drawer-content');
  await expect(drawer.getByText('服务商未确认出票结果')).toBeVisible();
  return drawer;
}

/**
 * Fills the reason of a drawer action (立即重试, 撤销并退款) and confirms it, once the dialog has
 * finished opening (a click during its zoom-in can be lost on a busy machine).
 */
async function act(op: Page, drawer: Locator, button: string, reason: string) {
  await drawer.getByRole('button', { name: button }).click();
  await (await openedDialog(op)).getByRole('textbox').fill(reason);
  await modalOk(op);
  await expect(modal(op)).toBeHidden({ timeout: 20_000 });
}

test('an unanswered top-up: the operator refunds one, retries another until it is issued', async ({
  page,
  request,
  browser,
}) => {
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  const points = async () =>
    (await api<{ balance: number }>(request, pointsApi.balance.path, { siteId: 719 }, token)).balance;
  const before = await points();
  await topupOutage(request, true);
  try {
    const submit = async (phone: string) => {
      const made = await api<ProviderSubmitResult>(
        request,
        topupApi.submit.path,
        { siteId: 719, phone, amount: 10 },
        token,
      );
      await api(request, orderApi.payOrder.path, { siteId: 719, orderNo: made.orderNo, payWay: 'ye' }, token);
      return made.orderNo;
    };
    const refunded = await submit('13800138011');
    const retried = await submit('13800138012');
    expect(await points()).toBe(before - 2_000);

    const op = await operatorPage(browser, 'op719');
    await openProvider(op);
    // Refund: cancelled at the provider (it never issued), the order refunded, the points back.
    let drawer = await openStuck(op, refunded);
    await shot(op, 'provider-stuck');
    await act(op, drawer, '撤销并退款', '运营商通道故障，撤销充值');
    await expect(drawer.locator('.ant-tag', { hasText: '出票失败（已退款）' })).toBeVisible();
    await expect(drawer).toContainText('（51）');
    await expect(drawer.locator('.ant-timeline')).toContainText('运营退款');
    await expect(drawer.getByRole('button', { name: '撤销并退款' })).toHaveCount(0);
    await shot(op, 'provider-refunded');
    expect(await points()).toBe(before - 1_000);
    // Its close button (after a form, the drawer may not hold the focus Escape goes to).
    await op.locator('.ant-drawer-close').click();
    await expect(drawer).toBeHidden();

    // Retry during the outage: still unanswered (and the worker's next send waits its turn).
    drawer = await openStuck(op, retried);
    await act(op, drawer, '立即重试', '通道恢复后重试');
    await expect(drawer.locator('.ant-timeline')).toContainText('运营重试');
    await expect(drawer.getByText('服务商未确认出票结果')).toBeVisible();
    // The outage ends: the same request id again, issued once.
    await topupOutage(request, false);
    await act(op, drawer, '立即重试', '通道已恢复');
    await expect(drawer.locator('.ant-tag', { hasText: '已出票' })).toBeVisible();
    await expect(drawer).toContainText('（23）');
    await expect(drawer.getByText('服务商未确认出票结果')).toHaveCount(0);
    await shot(op, 'provider-retried');
    expect(await points()).toBe(before - 1_000);
  } finally {
    await topupOutage(request, false);
  }
  expect(pageErrors).toEqual([]);
});

/** Queries the list again until the row says `status` (the worker moves provider orders on its own). */
async function searchUntil(op: Page, row: Locator, status: string) {
  await expect
    .poll(
      async () => {
        await op.getByRole('button', { name: /查\s?询/ }).click();
        return row.textContent();
      },
      { timeout: 30_000 },
    )
    .toContain(status);
}
