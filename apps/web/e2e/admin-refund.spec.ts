import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { pointsApi } from '@sitemall/contract';
import { menu, modal, modalOk, operatorPage, screenshots } from './console.ts';
import { api, ensureAddress, orderCheapProduct, pwdLogin, storedToken } from './site.ts';

/**
 * Four-eyes order refunds in the console (issue 12 item 4) against the real server: the finance
 * reviewer lowers 719's refund threshold (复核阈值, audited), the 719 operator's cancel of a paid
 * order above it becomes a refund request (the order detail shows it, the points stay spent),
 * the finance reviewer approves it in 待审批退款 (the member's points come back once) and rejects
 * a second one with a reason (that order stays as it was). The threshold is put back at the end.
 * Screenshots go to SHOTS_DIR (default /work/shots/refund). The 719 demo member logs in here.
 * Alone: npx playwright test e2e/admin-refund.spec.ts --project admin-refund --no-deps
 */

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);
// A click that cannot happen (a drawer's mask over the menu) fails here, not at the test's end.
test.use({ actionTimeout: 30_000 });

const shot = screenshots('/work/shots/refund');

/** The 719 member's paid (points) order of one cheap product, waiting to be shipped (24). */
async function paidOrder(request: APIRequestContext, token: string) {
  const { order } = await orderCheapProduct(request, token);
  return order.orderNo;
}

const balanceOf = async (request: APIRequestContext, token: string) =>
  (await api<{ balance: number }>(request, pointsApi.balance.path, { siteId: 719 }, token)).balance;

/** Sets 719's refund threshold (yuan) in the 复核阈值 form of 待审批退款. */
async function setRefundThreshold(finance: Page, yuan: string, reason: string) {
  await menu(finance, '待审批退款');
  await finance.getByRole('button', { name: '复核阈值' }).click();
  const dialog = modal(finance);
  await expect(dialog.getByLabel('积分发放复核阈值（元）')).not.toHaveValue('');
  await dialog.getByLabel('订单退款复核阈值（元）').fill(yuan);
  await dialog.getByLabel('修改原因').fill(reason);
  return dialog;
}

/** Shows the queue's requests in one status (the queue opens on 待审批). */
async function showStatus(finance: Page, label: string) {
  // The select's own box (the chosen label lies over its input).
  await finance.locator('.ant-form-item').filter({ hasText: '状态' }).locator('.ant-select-selector').click();
  const option = finance.locator(`.ant-select-item-option[title="${label}"]`);
  await option.click();
  await expect(option).toBeHidden();
  await finance.getByRole('button', { name: /查\s?询/ }).click();
}

/** The 719 operator cancels the order in 订单管理; above the threshold this proposes a refund. */
async function cancelInConsole(op: Page, orderNo: string, reason: string) {
  await menu(op, '订单管理');
  await op.getByLabel('订单号').fill(orderNo);
  await op.getByRole('button', { name: /查\s?询/ }).click();
  await op
    .getByRole('row', { name: new RegExp(orderNo) })
    .getByRole('button', { name: '详情' })
    .click();
  const reasonField = modal(op).getByLabel('取消原因');
  // Once in CI a click on 取消订单 opened no dialog in 30 s (not reproduced since, cause not
  // found): click again until the dialog is there, never once it is (the button toggles it).
  await expect(async () => {
    if (!(await reasonField.isVisible()))
      await op.getByRole('button', { name: '取消订单' }).click({ timeout: 5_000 });
    await expect(reasonField).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await reasonField.fill(reason);
  await modalOk(op);
  await expect(op.getByText('超过站点退款阈值，已提交退款申请，待财务复核')).toBeVisible();
}

test('a refund above 719’s threshold waits for a second operator: finance approves one and rejects another', async ({
  page,
  browser,
  request,
}) => {
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  await ensureAddress(page, request);

  const finance = await operatorPage(browser, 'finance');
  await setRefundThreshold(finance, '0.01', '测试四眼退款');
  await shot(finance, '01-thresholds');
  await modalOk(finance);
  await expect(finance.getByText('复核阈值已保存')).toBeVisible();

  try {
    const before = await balanceOf(request, token);
    const first = await paidOrder(request, token);
    const second = await paidOrder(request, token);
    const spent = await balanceOf(request, token);
    expect(spent).toBeLessThan(before);

    // The 719 operator cancels: the order stays 确认中 with the request on its detail.
    const op = await operatorPage(browser, 'op719');
    await expect(op.getByRole('menuitem', { name: '待审批退款' })).toHaveCount(0);
    await cancelInConsole(op, first, '客户来电要求取消');
    const drawer = op.locator('.ant-drawer');
    await expect(drawer.getByText('退款申请 #')).toBeVisible();
    await expect(drawer.getByText('待审批', { exact: true })).toBeVisible();
    await expect(drawer.getByText('汇通运营 于')).toContainText('客户来电要求取消');
    await expect(drawer.getByRole('button', { name: '取消订单' })).toHaveCount(0);
    await shot(op, '02-order-request-pending');
    await drawer.locator('.ant-drawer-close').click();
    await expect(drawer).toBeHidden();
    await cancelInConsole(op, second, '重复下单');
    await drawer.locator('.ant-drawer-close').click();
    await expect(drawer).toBeHidden();
    expect(await balanceOf(request, token)).toBe(spent);

    // Finance approves the first: the order is refunded, the points come back.
    await menu(finance, '待审批退款');
    await finance.getByRole('button', { name: /查\s?询/ }).click();
    const firstRow = finance.getByRole('row', { name: new RegExp(first) });
    await expect(firstRow).toContainText('待审批');
    await expect(firstRow).toContainText('汇通运营');
    await shot(finance, '03-queue');
    await firstRow.getByRole('button', { name: '复核通过' }).click();
    await finance.locator('.ant-popconfirm-buttons').getByRole('button', { name: '复核通过' }).click();
    await expect(finance.getByText('已复核，订单已退款')).toBeVisible();
    await expect(firstRow).toHaveCount(0);

    // And rejects the second with a reason: nothing moves.
    const secondRow = finance.getByRole('row', { name: new RegExp(second) });
    await secondRow.getByRole('button', { name: '驳回' }).click();
    await modal(finance).getByLabel('驳回原因').fill('客户已改为换货');
    await finance
      .locator('.ant-modal-footer')
      .last()
      .getByRole('button', { name: /驳\s?回/ })
      .click();
    await expect(finance.getByText('已驳回退款申请')).toBeVisible();
    await expect(secondRow).toHaveCount(0);
    await showStatus(finance, '已驳回');
    await expect(finance.getByRole('row', { name: new RegExp(second) })).toContainText('客户已改为换货');
    await shot(finance, '04-queue-rejected');
    await showStatus(finance, '已退款');
    await expect(finance.getByRole('row', { name: new RegExp(first) })).toContainText('财务复核');
    await shot(finance, '05-queue-refunded');

    // The member got the first order's points back, once; the second is still paid.
    const refunded = await balanceOf(request, token);
    expect(refunded).toBeGreaterThan(spent);
    expect(refunded).toBeLessThan(before);
    await page.goto(`orderDetail?orderNo=${first}&siteId=719`);
    await expect(page.getByText('订单已撤回').first()).toBeVisible();

    // The operator's order detail shows who decided.
    await menu(op, '订单管理');
    await op.getByLabel('订单号').fill(first);
    await op.getByRole('button', { name: /查\s?询/ }).click();
    await op
      .getByRole('row', { name: new RegExp(first) })
      .getByRole('button', { name: '详情' })
      .click();
    await expect(op.locator('.ant-drawer').getByText('复核人：财务复核')).toBeVisible();
    // The drawer slides in: the screenshot waits for it to stand still.
    await expect(op.locator('.ant-drawer-content-wrapper')).not.toHaveClass(/motion/);
    await shot(op, '06-order-refunded');

    // The audit log has each step.
    await menu(finance, '审计日志');
    await expect(finance.getByText('order.refund.approve').first()).toBeVisible();
    await expect(finance.getByText('order.refund.reject').first()).toBeVisible();
    await shot(finance, '07-audit');
  } finally {
    // Other journeys (the books) expect 719's demo threshold: put it back, audited too.
    await setRefundThreshold(finance, '1000', '测试结束，恢复阈值');
    await modalOk(finance);
    await expect(finance.getByText('复核阈值已保存')).toBeVisible();
  }
});

test('an operator deletes a menu advert of 10110: the storefront no longer shows it, the audit keeps it', async ({
  browser,
}) => {
  const ad = { title: '限时专场', adName: '限时专场活动', url: 'https://www.example.com/yunqi/flash' };
  const page = await operatorPage(browser, 'admin');
  await page.goto('/admin/sites/10110/templates');
  await page.getByRole('button', { name: '添加广告' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('外部链接').check();
  await dialog.getByLabel('标题（显示在导航上）').fill(ad.title);
  await dialog.getByLabel('广告名称（悬停提示、专题页标题）').fill(ad.adName);
  await dialog.getByRole('textbox', { name: '链接' }).fill(ad.url);
  await dialog.getByRole('button', { name: /确\s?定/ }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('row', { name: new RegExp(ad.title) })).toBeVisible();
  const shop = await (await browser.newContext()).newPage();
  await shop.goto('home?siteId=10110');
  await expect(shop.locator('.navbar__ads').getByRole('link', { name: ad.title })).toBeVisible();

  await page.getByRole('button', { name: `删除 ${ad.title}` }).click();
  await expect(page.getByText(`删除广告「${ad.title}」？`)).toBeVisible();
  await shot(page, '08-advert-delete-confirm');
  await page
    .locator('.ant-popconfirm-buttons')
    .getByRole('button', { name: /删\s?除/ })
    .click();
  await expect(page.getByText('广告已删除')).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(ad.title) })).toHaveCount(0);
  await expect(page.getByTestId('preview-menu')).not.toContainText(ad.title);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, '09-advert-deleted');

  await shop.reload();
  await expect(shop.locator('.navbar__ads').getByRole('link').first()).toBeVisible();
  await expect(shop.locator('.navbar__ads').getByRole('link', { name: ad.title })).toHaveCount(0);

  await menu(page, '审计日志');
  await expect(page.getByText('advert.delete').first()).toBeVisible();
});
