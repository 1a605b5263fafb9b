import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN_API_PREFIX, adminApi, catalogApi } from '@sitemall/contract';
import { generate } from 'otplib';
import {
  consoleLogin,
  fillConsoleLogin,
  menu,
  modalOk,
  OPERATORS,
  operatorPage,
  screenshots,
} from './console.ts';
import {
  api,
  BUSY,
  cheapProduct,
  payOrder,
  pwdLogin,
  refuseOnce,
  saveDefaultAddress,
  siteConfig,
  storedToken,
  submitLine,
} from './site.ts';

/**
 * The operator console at /admin/ (issue 12) against the real server: a platform admin edits
 * site 719 and the storefront shows it; the 719-only operator sees no other site's orders; a
 * CSV points issue above the threshold waits for a second operator and applies once; a shipped
 * order reads 待收货 for its member; the audit log shows each write with before and after.
 * Screenshots of every screen go to SHOTS_DIR (default /work/shots/admin).
 * Alone: npx playwright test e2e/admin.spec.ts --project admin --no-deps
 */

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

const shot = screenshots('/work/shots/admin');

/** The 1000 demo member (password login) with a paid order of one physical product. */
async function memberWithPaidOrder(page: Page, request: APIRequestContext) {
  await pwdLogin(page, 1000);
  const token = (await storedToken(page, 1000)) ?? '';
  await saveDefaultAddress(request, token, 1000, {
    consignee: '赵六',
    phone: '13912345670',
    detail: '王府井大街 1 号',
  });
  const product = await cheapProduct(request, 1000);
  const detail = await api<{ productSpecifications: { id: number }[] }>(
    request,
    catalogApi.productDetail.path,
    { siteId: 1000, productId: product.id },
    token,
  );
  const order = await submitLine(request, token, 1000, {
    productId: product.id,
    specificationId: detail.productSpecifications[0]?.id ?? 0,
    num: 1,
  });
  await payOrder(request, token, 1000, order.orderNo);
  return order;
}

test('login page and a wrong password', async ({ page }) => {
  await fillConsoleLogin(page, 'admin', 'wrong-password');
  await expect(page.getByText('用户名或密码错误')).toBeVisible();
  await shot(page, 'admin-01-login');

  // Once more with every transition off, so that antd's spinner can never finish leaving: the
  // refused form's button still reads 登 录 (apps/admin/src/console.css), not "loading 登 录".
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  const refused = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/login'));
  await page.getByRole('button', { name: /^登\s?录$/ }).click();
  expect((await refused).ok()).toBe(true);
  await expect(page.getByRole('button', { name: /^登\s?录$/ })).toBeEnabled();
  await expect(page.getByRole('button', { name: /loading/ })).toHaveCount(0);
});

test('a list the server refuses is said, not left as an empty table', async ({ page }) => {
  // The sites list is refused once; the next load reads it again.
  await refuseOnce(page, `${ADMIN_API_PREFIX}${adminApi.sites.path}`);
  await consoleLogin(page, 'admin');
  await expect(page.locator('.ant-message')).toContainText(BUSY);
  await shot(page, 'admin-01b-list-refused');
  // ProTable's reload is an icon (its 刷新 is a tooltip).
  await page.getByRole('img', { name: 'reload' }).click();
  await expect(page.getByRole('row', { name: /719/ })).toBeVisible();
});

test('a platform admin edits 719: the storefront shows the new name and hotline', async ({
  page,
  request,
}) => {
  const before = (await siteConfig(request, 719)).mallSite;
  const name = '汇通银行积分商城（运营后台修改）';
  await consoleLogin(page, 'admin');
  await expect(page.getByRole('cell', { name: before.siteName })).toBeVisible();
  await shot(page, 'admin-02-sites');
  const row = page.getByRole('row', { name: /719/ });
  await row.getByRole('button', { name: '编辑' }).click();
  await page.getByLabel('站点名称').fill(name);
  await page.getByLabel('客服热线', { exact: true }).fill('400-888-0719');
  await shot(page, 'admin-03-site-edit');
  await modalOk(page);
  await expect(page.getByText('已保存，商城前台将显示新配置')).toBeVisible();
  try {
    await page.goto('/shoppingmall/home?siteId=719');
    await expect(page.locator('.mainbar__name')).toHaveText(name);
    await expect(page.getByTestId('footer-hotline')).toContainText('400-888-0719');
  } finally {
    // Other suites read 719's name: put it back (through the console too, so it is audited).
    await page.goto('/admin/sites');
    await page.getByRole('row', { name: /719/ }).getByRole('button', { name: '编辑' }).click();
    await page.getByLabel('站点名称').fill(before.siteName);
    await page.getByLabel('客服热线', { exact: true }).fill('400-819-0719');
    await modalOk(page);
    await expect(page.getByText('已保存，商城前台将显示新配置')).toBeVisible();
  }
});

test('ship an order from the console: the member sees 待收货, the 719 operator never sees it', async ({
  page,
  browser,
  request,
}) => {
  const order = await memberWithPaidOrder(page, request);
  const admin = await operatorPage(browser, 'admin');
  await menu(admin, '订单管理');
  await admin.getByLabel('订单号').fill(order.orderNo);
  await admin.getByRole('button', { name: /查\s?询/ }).click();
  const row = admin.getByRole('row', { name: new RegExp(order.orderNo) });
  await expect(row).toContainText('确认中');
  await shot(admin, 'admin-04-orders');
  await row.getByRole('button', { name: '详情' }).click();
  await admin.getByRole('button', { name: /^发\s?货$/ }).click();
  await admin.getByLabel('运单号').fill('SF1000123456');
  await shot(admin, 'admin-05-order-ship');
  await admin
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /确\s?[认定]/ })
    .click();
  await expect(admin.getByText('物流：顺丰速运 SF1000123456')).toBeVisible();
  await expect(admin.locator('.ant-drawer').getByText('待收货').first()).toBeVisible();
  await shot(admin, 'admin-06-order-detail');

  await page.goto('myOrder?siteId=1000');
  await expect(page.getByRole('link', { name: order.orderNo })).toBeVisible();
  await page.goto(`orderDetail?orderNo=${order.orderNo}&siteId=1000`);
  await expect(page.getByText('待收货').first()).toBeVisible();

  const op719 = await operatorPage(browser, 'op719');
  await menu(op719, '订单管理');
  await op719.getByLabel('订单号').fill(order.orderNo);
  await op719.getByRole('button', { name: /查\s?询/ }).click();
  await expect(op719.getByText('没有符合条件的订单')).toBeVisible();
  // The site switcher offers 719 only, and the API refuses 10110 outright.
  await op719.getByLabel('切换站点').first().click();
  await expect(op719.locator('.ant-select-item-option')).toHaveText(['719 汇通银行信用卡积分商城']);
  await op719.keyboard.press('Escape');
  const token = await op719.evaluate(() => sessionStorage.getItem('sitemall.admin.token'));
  const refused = await request.get('/admin-api/orders?siteId=10110', { headers: { token: token ?? '' } });
  expect(((await refused.json()) as { code: number }).code).toBe(403);
  await shot(op719, 'admin-07-orders-719-only');
  await admin.context().close();
  await op719.context().close();
});

test('an operator abroad reads every time on China’s clock, as the mall keeps it', async ({
  page,
  browser,
  request,
}) => {
  const order = await memberWithPaidOrder(page, request);
  const admin = await operatorPage(browser, 'admin', { context: { timezoneId: 'America/New_York' } });
  const token = await admin.evaluate(() => sessionStorage.getItem('sitemall.admin.token'));
  const found = await request.get(`/admin-api/orders?siteId=1000&orderNo=${order.orderNo}`, {
    headers: { token: token ?? '' },
  });
  const { createdAt } = ((await found.json()) as { data: { list: { createdAt: string }[] } }).data.list[0]!;
  // China is UTC+8 all year: the wall clock there is the instant plus eight hours, read as UTC.
  const china = new Date(Date.parse(createdAt) + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
  const newYork = await admin.evaluate((at) => new Date(at).toLocaleString('sv-SE'), createdAt);
  expect(newYork).not.toBe(china);
  await menu(admin, '订单管理');
  await admin.getByLabel('订单号').fill(order.orderNo);
  await admin.getByRole('button', { name: /查\s?询/ }).click();
  const row = admin.getByRole('row', { name: new RegExp(order.orderNo) });
  await expect(row).toContainText(china);
  await shot(admin, 'admin-04b-orders-china-time');
  await admin.context().close();
});

test('a CSV points issue above the threshold needs the finance reviewer and applies once', async ({
  browser,
}) => {
  // A retry reruns the serial chain on the same database: its file and amount are its own, so
  // "applies once" still holds for what this attempt issued.
  const attempt = test.info().retry;
  const file = `bonus-${attempt}.csv`;
  const amount = 1200 + attempt;
  const fileRow = new RegExp(`bonus-${attempt}\\.csv`);
  const op719 = await operatorPage(browser, 'op719');
  await menu(op719, '积分发放');
  await op719.getByRole('button', { name: '批量发放' }).click();
  await op719.locator('input[type=file]').setInputFiles({
    name: file,
    mimeType: 'text/csv',
    buffer: Buffer.from(`手机号,金额,备注\n13800000719,${amount}.00,年终奖励\n`),
  });
  await op719.getByLabel('发放原因').fill('年终奖励');
  await shot(op719, 'admin-08-issue-csv');
  await op719
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /确\s?[认定]/ })
    .click();
  await expect(op719.getByText(/已提交，等待财务复核/)).toBeVisible();
  const row = op719.getByRole('row', { name: fileRow });
  await expect(row).toContainText('待审批');
  await expect(row.getByRole('button', { name: '复核通过' })).toHaveCount(0);
  await shot(op719, 'admin-09-points-submitted');

  const finance = await operatorPage(browser, 'finance');
  await menu(finance, '积分发放');
  const pending = finance.getByRole('row', { name: fileRow });
  await pending.getByRole('button', { name: '复核通过' }).click();
  await finance.getByRole('button', { name: /确\s?定|OK/ }).click();
  await expect(finance.getByText('已复核并发放')).toBeVisible();
  await expect(pending).toContainText('已发放');
  await expect(pending.getByRole('button', { name: '复核通过' })).toHaveCount(0);
  await shot(finance, 'admin-10-points-executed');

  // The member's ledger holds the issue once.
  await menu(finance, '会员与积分');
  await finance.getByLabel('手机号 / 用户名').fill('13800000719');
  await finance.getByRole('button', { name: /查\s?询/ }).click();
  await shot(finance, 'admin-11-members');
  await finance
    .getByRole('row', { name: /13800000719/ })
    .getByRole('button', { name: '积分明细' })
    .click();
  await expect(finance.locator('.ant-drawer').getByText(`+${amount.toLocaleString('en')}.00`)).toHaveCount(1);
  await shot(finance, 'admin-12-ledger');
  await op719.context().close();
  await finance.context().close();
});

test('the audit log shows each write with before and after; operators and the login log', async ({
  page,
}) => {
  await consoleLogin(page, 'admin');
  await menu(page, '审计日志');
  for (const action of ['修改站点', '发货', '复核发放', '积分发放草稿'])
    await expect(page.getByRole('cell', { name: action }).first()).toBeVisible();
  await expect(
    page.getByText(/汇通银行信用卡积分商城 → 汇通银行积分商城（运营后台修改）/).first(),
  ).toBeVisible();
  await shot(page, 'admin-13-audit');
  await menu(page, '运营人员与角色');
  await expect(page.getByText('站点运营 · 站点 719')).toBeVisible();
  await shot(page, 'admin-14-operators');
  await menu(page, '登录日志');
  await expect(page.getByText('密码错误').first()).toBeVisible();
  await shot(page, 'admin-15-login-log');
});

test('the dashboard shows today’s orders, money and points, and the last 7 days as a chart', async ({
  page,
}) => {
  await consoleLogin(page, 'admin');
  await menu(page, '首页看板');
  // The journeys above placed, paid and shipped orders and issued points today.
  const figure = (title: string) =>
    page
      .locator('.ant-statistic')
      .filter({ has: page.locator('.ant-statistic-title', { hasText: title }) })
      .locator('.ant-statistic-content-value');
  await expect(figure('今日订单')).not.toHaveText(/^0$|—/);
  await expect(figure('今日下单会员')).not.toHaveText(/^0$|—/);
  await expect(figure('今日发放积分')).not.toHaveText(/^0\.00$|—/);
  await expect(page.getByText('近 7 日趋势')).toBeVisible();
  // Both charts drawn (G2 renders into a canvas once the lazy chart module has loaded).
  await expect(page.getByTestId('dashboard-trend').locator('canvas')).toHaveCount(2, { timeout: 30_000 });
  await shot(page, 'admin-21-dashboard');
  // One site: the figures narrow to it.
  await page.locator('.ant-select').filter({ hasText: '全部站点' }).click();
  await page.getByTitle(/^10110 /).click();
  await expect(page.getByText('近 7 日趋势')).toBeVisible();
  await expect(page.getByTestId('dashboard-trend').locator('canvas')).toHaveCount(2, { timeout: 30_000 });
  await shot(page, 'admin-22-dashboard-10110');
});

test('an operator binds TOTP in 账号安全, then logs in with a code; the platform admin resets it', async ({
  page,
  browser,
}) => {
  await consoleLogin(page, 'cs10110');
  await page.getByRole('link', { name: /福利客服/ }).click();
  await expect(page).toHaveURL(/\/admin\/account/);
  await page.getByRole('button', { name: '绑定动态口令' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,64}$/);
  await shot(page, 'admin-16-account-totp-setup');
  await page.getByLabel('动态口令', { exact: true }).fill('000000');
  await page.getByLabel('登录密码').fill('wrong');
  await page.getByRole('button', { name: '确认绑定' }).click();
  await expect(page.getByText('登录密码错误')).toBeVisible();
  await page.getByLabel('动态口令', { exact: true }).fill(await generate({ secret }));
  await page.getByLabel('登录密码').fill(OPERATORS.cs10110);
  await page.getByRole('button', { name: '确认绑定' }).click();
  await expect(page.getByText('已绑定动态口令，下次登录需输入口令')).toBeVisible();
  await expect(page.locator('.ant-card-extra').getByText('已绑定')).toBeVisible();
  await shot(page, 'admin-17-account-totp-bound');

  await page.getByRole('button', { name: /退\s?出/ }).click();
  await fillConsoleLogin(page, 'cs10110', OPERATORS.cs10110);
  await page.getByPlaceholder('动态口令（6 位数字）').fill(await generate({ secret }));
  await page.getByRole('button', { name: '验证并登录' }).click();
  await expect(page).toHaveURL(/\/admin\/(sites|dashboard)/);

  const admin = await operatorPage(browser, 'admin');
  await menu(admin, '运营人员与角色');
  const row = admin.getByRole('row', { name: /cs10110/ });
  await expect(row.getByText('已绑定')).toBeVisible();
  await row.getByRole('button', { name: '重置口令' }).click();
  await admin.getByRole('dialog').getByLabel('操作原因').fill('手机遗失');
  await admin
    .getByRole('dialog')
    .getByRole('button', { name: /确\s?[认定]/ })
    .click();
  await expect(row.getByText('未绑定')).toBeVisible();
  await shot(admin, 'admin-18-operators-totp');
});

test('a platform admin opens a new site as a copy of 10110: the storefront serves it with its products', async ({
  page,
}) => {
  const siteId = 20_000 + Math.floor(Math.random() * 70_000);
  const name = `云企分公司福利商城 ${siteId}`;
  await consoleLogin(page, 'admin');
  await page.getByRole('button', { name: '复制新建站点' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('复制自').click();
  await page.getByTitle(/10110 /).click();
  await dialog.getByLabel('新站点 ID').fill(String(siteId));
  await dialog.getByLabel('站点名称').fill(name);
  await dialog.getByLabel('操作原因').fill('新客户开站');
  await shot(page, 'admin-19-site-copy');
  await dialog.getByRole('button', { name: /确\s?[认定]/ }).click();
  await expect(page.getByText(`站点 ${siteId} ${name} 已创建`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`${siteId}.*${name}`) })).toBeVisible();
  await page.goto(`/shoppingmall/home?siteId=${siteId}`);
  await expect(page.locator('.mainbar__name')).toHaveText(name);
  await expect(page.getByTestId('product-tile').first()).toBeVisible();
  await shot(page, 'admin-20-copied-site-home');
});
