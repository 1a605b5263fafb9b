import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { buyThroughCart, cheapProduct, payInSimulator, pwdLogin, settle, siteConfig } from './site.ts';

/**
 * WeChat Pay (wx_pc, Native QR code) on /selectPayWay against the real server in demo mode: the
 * QR code drawn in the page, the WeChat Pay simulator "scanned" in a second tab, the page polling
 * until the order is paid, then /success and my orders. Demo members: apps/server/src/db/demo/members.ts.
 */

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

// Demo members have one session at a time: run in order.
test.describe.configure({ mode: 'default' });

const fen = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
const yuan = (amount: number) => (amount / 100).toFixed(2);

/** Logs in, puts one cheap product in the cart, submits it to a new address: the order number. */
async function placeOrder(page: Page, request: APIRequestContext, siteId: 719 | 1000): Promise<string> {
  const product = await cheapProduct(request, siteId);
  await pwdLogin(page, siteId);
  await buyThroughCart(page, { siteId, productId: product.id, consignee: `微信买家${siteId}` });
  return new URL(page.url()).searchParams.get('orderNo')!;
}

async function expectPaid(page: Page, siteId: number, orderNo: string) {
  // The page polls payResultQuery every 2 s: /payresultvalid → /success.
  await expect(page).toHaveURL(/\/success\?/, { timeout: 15_000 });
  await expect(page.getByTestId('pay-success')).toContainText(orderNo);
  await page.goto(`myOrder?siteId=${siteId}`);
  await expect(page.locator(`[data-order-no="${orderNo}"]`).getByTestId('order-status')).toHaveText('确认中');
}

test('site 1000: pay by WeChat QR code, scanned in the simulator → success → my orders', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  const orderNo = await placeOrder(page, request, 1000);
  const payAmount = fen(await page.getByTestId('pay-amount').innerText());

  await page.getByTestId('payway-wx_pc').click();
  await expect(page.getByTestId('pay-split')).toHaveText(`微信支付 ¥${yuan(payAmount)}`);
  await page.getByTestId('pay-submit').click();

  const panel = page.getByTestId('wechat-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('wechat-qr').locator('canvas')).toBeVisible();
  await expect(panel.getByTestId('wechat-cash')).toHaveText(`¥${yuan(payAmount)}`);
  await expect(panel.getByTestId('wechat-countdown')).toBeVisible();
  await expect(panel).toContainText('请使用微信扫一扫扫描二维码支付');
  const link = panel.getByRole('link', { name: '在模拟器中扫码支付（演示）' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await settle(page);
  await page.screenshot({ path: `${screenshots}wechat-pay-1000.png`, fullPage: true });

  // A reload shows the same open code straight away (payOrderInfo.wechat), without paying again.
  const scanUrl = await link.getAttribute('href');
  await page.reload();
  await expect(page.getByTestId('wechat-panel')).toBeVisible();
  await expect(page.getByRole('link', { name: '在模拟器中扫码支付（演示）' })).toHaveAttribute(
    'href',
    scanUrl ?? '',
  );

  // The payer's bank refuses: the page learns it by polling and offers a new code.
  const failing = context.waitForEvent('page');
  await page.getByRole('link', { name: '在模拟器中扫码支付（演示）' }).click();
  const simulator = await failing;
  await simulator.getByRole('button', { name: '模拟支付失败' }).click();
  await expect(simulator.getByText('支付失败').first()).toBeVisible();
  await simulator.close();
  await expect(page.getByTestId('wechat-panel')).toContainText('支付失败，请重新获取二维码', {
    timeout: 15_000,
  });
  await page.getByTestId('wechat-qr').getByRole('button').click();
  const fresh = page.getByRole('link', { name: '在模拟器中扫码支付（演示）' });
  await expect(fresh).not.toHaveAttribute('href', scanUrl ?? '');

  await payInSimulator(page, context);
  await expectPaid(page, 1000, orderNo);
});

test('site 719: part points, part WeChat (mixed payment)', async ({ page, request, context }) => {
  test.setTimeout(120_000);
  const config = await siteConfig(request, 719);
  test.skip(config.mallSite.configJson.mixedPay !== 'Y', 'site 719 does not allow mixed payment');
  const orderNo = await placeOrder(page, request, 719);
  const payAmount = fen(await page.getByTestId('pay-amount').innerText());
  const balance = fen(await page.getByTestId('pay-balance').innerText());
  const max = Math.min(balance, payAmount - 1);
  test.skip(max < 1, 'the member has no points to combine');

  await page.getByTestId('payway-wx_pc').click();
  await page.getByTestId('points-part-toggle').check();
  // By default as many points as allowed, leaving at least 0.01 to WeChat.
  await expect(page.getByTestId('pay-split')).toHaveText(
    `积分抵扣 ${yuan(max)} 积分 + 微信支付 ¥${yuan(payAmount - max)}`,
  );
  // More than allowed is refused on the page.
  const input = page.getByRole('spinbutton', { name: '积分抵扣数额' });
  await input.fill(yuan(max + 1));
  await expect(page.getByTestId('points-part-error')).toHaveText(`最多可抵扣 ${yuan(max)} 积分`);
  await expect(page.getByTestId('pay-submit')).toBeDisabled();

  const points = Math.min(max, 100);
  await input.fill(yuan(points));
  await expect(page.getByTestId('points-part-error')).toBeHidden();
  await expect(page.getByTestId('pay-split')).toHaveText(
    `积分抵扣 ${yuan(points)} 积分 + 微信支付 ¥${yuan(payAmount - points)}`,
  );
  await page.getByTestId('pay-submit').click();

  const panel = page.getByTestId('wechat-panel');
  await expect(panel.getByTestId('wechat-qr').locator('canvas')).toBeVisible();
  await expect(panel.getByTestId('wechat-cash')).toHaveText(`¥${yuan(payAmount - points)}`);
  await expect(panel.getByTestId('wechat-points')).toHaveText(`积分抵扣 ${yuan(points)} 积分`);
  await settle(page);
  await page.screenshot({ path: `${screenshots}wechat-pay-mixed-719.png`, fullPage: true });

  await payInSimulator(page, context);
  await expectPaid(page, 719, orderNo);
});
