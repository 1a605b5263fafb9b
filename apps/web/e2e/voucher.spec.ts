import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { cancelFromCard, cheapProduct, fillNewAddress, pwdLogin, settle } from './site.ts';

/**
 * Vouchers in the browser (issue 13): claim in 领券中心, the best voucher chosen at checkout,
 * pay, see it used in 我的优惠券; an unpaid order cancelled gives its voucher back.
 * Alone: npx playwright test e2e/voucher.spec.ts --no-deps
 */

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

test.describe.configure({ mode: 'default' });
// One journey through six pages on a shared 2-core machine.
test.setTimeout(120_000);

const POINTS_VOUCHER = '积分抵扣券';

test('claim in the centre, use at checkout, pay, see it used; cancel an unpaid order and see it back', async ({
  page,
  request,
}) => {
  const product = await cheapProduct(request, 719);
  await pwdLogin(page, 719);

  // 领券中心: claim the points voucher (no threshold).
  await page.goto('voucherCenter?siteId=719');
  const card = page.getByTestId('center-card').filter({ hasText: POINTS_VOUCHER });
  await expect(card).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${screenshots}voucher-center-719.png`, fullPage: true });
  await card.getByTestId('center-claim').click();
  await expect(page.getByText('领取成功')).toBeVisible();

  // Checkout: the voucher is chosen by default and its saving shown.
  await page.goto(`productDetails?id=${product.id}&siteId=719`);
  await page.getByTestId('buy-now').click();
  await expect(page).toHaveURL(/\/orderSubmission\?/);
  await page.getByTestId('address-picker').getByTestId('address-add').click();
  await fillNewAddress(page, '券测试');
  const option = page.getByTestId('voucher-option').filter({ hasText: POINTS_VOUCHER });
  await expect(option).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('checkout-voucher')).not.toHaveText('-0.00');
  await expect(page.getByTestId('line-voucher-saving')).toBeVisible();
  await expect(page.getByTestId('checkout-freight')).not.toHaveText(/计算中|选择地址/);
  await settle(page);
  await page.screenshot({ path: `${screenshots}voucher-checkout-719.png`, fullPage: true });
  await page.getByTestId('submit-order').click();

  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
  await page.getByTestId('payway-ye').click();
  await page.getByTestId('pay-submit').click();
  await expect(page.getByTestId('pay-success')).toContainText(orderNo);

  // 我的优惠券: used, with its order.
  await page.goto('myVoucher?siteId=719&status=used');
  const used = page.getByTestId('voucher-card').filter({ hasText: POINTS_VOUCHER });
  await expect(used).toHaveCount(1);
  await expect(used.getByTestId('voucher-status')).toHaveText('已使用');
  await settle(page);
  await page.screenshot({ path: `${screenshots}voucher-mine-used-719.png`, fullPage: true });

  // Claim another, submit without paying, cancel: the voucher comes back.
  await page.goto('voucherCenter?siteId=719');
  await page
    .getByTestId('center-card')
    .filter({ hasText: POINTS_VOUCHER })
    .getByTestId('center-claim')
    .click();
  await expect(page.getByText('领取成功')).toBeVisible();
  await page.goto(`productDetails?id=${product.id}&siteId=719`);
  await page.getByTestId('buy-now').click();
  await expect(page.getByTestId('address-option').first()).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('voucher-option').filter({ hasText: POINTS_VOUCHER })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByTestId('submit-order').click();
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const unpaid = new URL(page.url()).searchParams.get('orderNo')!;

  await page.goto('myVoucher?siteId=719&status=locked');
  await expect(page.getByTestId('voucher-card').filter({ hasText: POINTS_VOUCHER })).toHaveCount(1);
  await page.goto('myOrder?siteId=719&tab=pendingPayment');
  const pending = page.locator(`[data-order-no="${unpaid}"]`);
  await cancelFromCard(page, pending);

  await page.goto('myVoucher?siteId=719&status=unused');
  await expect(page.getByTestId('voucher-card').filter({ hasText: POINTS_VOUCHER })).toHaveCount(1);
  await expect(page.getByRole('tab', { name: /使用中\(0\)/ })).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${screenshots}voucher-mine-unused-719.png`, fullPage: true });
});

test('bind a gift card in 我的卡包, pay one order with the voucher given back, the card and points', async ({
  page,
  request,
}) => {
  const product = await cheapProduct(request, 719);
  await pwdLogin(page, 719);

  await page.goto('myCards?siteId=719');
  await page.getByTestId('card-code').fill('demo-gift-card-2345');
  await page.getByTestId('card-pin').fill('000000');
  await page.getByTestId('card-bind').click();
  await expect(page.getByText('卡号或密码不正确')).toBeVisible();
  await page.getByTestId('card-pin').fill('719719');
  await page.getByTestId('card-bind').click();
  await expect(page.getByText(/绑定成功/)).toBeVisible();
  await expect(page.getByTestId('card-balance')).toHaveText('100.00积分');

  // An order above the card's balance: the card pays 100, points the rest.
  const num = Math.ceil(12_000 / product.price);
  await page.goto(
    `orderSubmission?productId=${product.id}&specificationId=${product.specificationId}&num=${num}&siteId=719`,
  );
  await page.getByTestId('address-picker').getByTestId('address-add').click();
  await fillNewAddress(page, '卡包测试');
  await expect(page.getByTestId('checkout-freight')).not.toHaveText(/计算中|选择地址/);
  // The voucher the cancelled order gave back (the journey above) is chosen by default.
  await expect(page.getByTestId('voucher-option').filter({ hasText: POINTS_VOUCHER })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByTestId('checkout-voucher')).not.toHaveText('-0.00');
  await page.getByTestId('submit-order').click();
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
  await page.getByTestId('payway-pack').click();
  await settle(page);
  await page.screenshot({ path: `${screenshots}voucher-pay-pack-719.png`, fullPage: true });
  await page.getByTestId('pay-submit').click();
  await expect(page.getByTestId('pay-success')).toContainText(orderNo);

  await page.goto('myCards?siteId=719');
  await expect(page.getByTestId('card-balance')).toHaveText('0.00积分');
  await page
    .getByRole('button', { name: /展开行|Expand row/ })
    .first()
    .click();
  await expect(page.getByTestId('card-cash')).toContainText(orderNo);
  await expect(page.getByTestId('card-cash')).toContainText('订单支付');
  await settle(page);
  await page.screenshot({ path: `${screenshots}voucher-my-cards-719.png`, fullPage: true });

  // The voucher is used by this order, and the points paid the rest of it (bills).
  await page.goto('myVoucher?siteId=719&status=used');
  await expect(page.getByTestId('voucher-card').filter({ hasText: POINTS_VOUCHER })).toHaveCount(2);
  await page.goto('billDetails?siteId=719');
  await expect(page.getByText(orderNo).first()).toBeVisible();
});
