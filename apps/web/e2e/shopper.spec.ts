import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { catalogApi, MAX_SEARCH_LENGTH, type ProductDetail } from '@sitemall/contract';
import { expectNoSeriousViolations, shot, tabTo, watchPageErrors } from './a11y.ts';
import { sendSmsCodeByApi } from './members.ts';
import {
  api,
  cancelFromCard,
  cheapProduct,
  DEMO,
  ensureAddress,
  fillNewAddress,
  imageCodeOnPage,
  loginButton,
  masked,
  pwdLogin,
  siteConfig,
} from './site.ts';

/**
 * The journeys a shopper of the bank mall (site 719) takes, each with no page errors and no
 * serious or critical axe findings: search → detail → cart → submit → pay → my orders, a
 * cancelled order, the address dialog with bad input, keyboard-only checkout, and SMS login at
 * the hourly cap. The 719 demo member logs in here, so this file runs after the chain
 * (playwright.config.ts, project shopper). Alone: npx playwright test e2e/shopper.spec.ts --no-deps
 */

test.describe.configure({ mode: 'default' });

const detailOf = (request: APIRequestContext, productId: number) =>
  api<ProductDetail>(request, catalogApi.productDetail.path, { siteId: 719, productId });

async function openProduct(page: Page, productId: number) {
  await page.goto(`productDetails?id=${productId}&siteId=719`);
  await expect(page.getByTestId('product-detail')).toBeVisible();
}

test('search → detail → cart → submit (bad address first) → pay → success → my orders', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const errors = watchPageErrors(page);
  const { mallSite } = await siteConfig(request, 719);
  const product = await cheapProduct(request, 719);
  const detail = await detailOf(request, product.id);
  await pwdLogin(page, 719);
  // A bank mall shows the member's phone masked.
  await expect(page.locator('.topbar__greeting')).toHaveText(
    `您好，${masked(DEMO[719].phone)}，欢迎来到${mallSite.siteName}`,
  );

  // Search: the box holds at most MAX_SEARCH_LENGTH characters; markup finds nothing.
  const box = page.getByLabel('搜索商品');
  await expect(box).toHaveAttribute('maxlength', String(MAX_SEARCH_LENGTH));
  await box.fill('<script>alert(1)</script>');
  await page.getByRole('button', { name: '搜索' }).click();
  // No result; what follows the empty state is offered as suggestions, not as results.
  await expect(page.getByTestId('search-empty')).toContainText('抱歉，没有找到与');
  await expect(page.getByTestId('search-total')).toHaveText('0');
  await expectNoSeriousViolations(page, 'search without results');
  await shot(page, 'journey-search-markup-719');
  await box.fill(product.name);
  await page.getByRole('button', { name: '搜索' }).click();
  await expect(page.getByTestId('search-total')).not.toHaveText('0');
  await expectNoSeriousViolations(page, 'search results');
  await shot(page, 'journey-search-719');
  await page
    .getByTestId('product-tile')
    .filter({ hasText: product.name })
    .first()
    .getByRole('link')
    .first()
    .click();

  // Detail: one breadcrumb, every thumbnail drawn, − / + steppers, and typing past the limit says why.
  await expect(page).toHaveURL(new RegExp(`productDetails\\?id=${product.id}`));
  await expect(page.locator('.page-breadcrumb')).toHaveCount(1);
  await expect(page.locator('.page-breadcrumb')).toContainText(product.name);
  for (const thumb of await page.locator('.gallery__thumbs img').all())
    expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const quantity = page.getByRole('spinbutton', { name: '购买数量' });
  await page.getByRole('button', { name: '数量加一' }).click();
  await expect(quantity).toHaveValue('2');
  await page.getByRole('button', { name: '数量减一' }).click();
  await expect(quantity).toHaveValue('1');
  await expect(page.getByRole('button', { name: '数量减一' })).toBeDisabled();
  const spec = detail.productSpecifications.find((s) => s.hasStock)!;
  await quantity.fill('99999');
  const limitMsg =
    detail.limitNum > 0 && detail.limitNum <= spec.stock
      ? `该商品每单限购 ${detail.limitNum} 件`
      : `库存不足，仅剩 ${spec.stock} 件`;
  await expect(page.getByText(limitMsg)).toBeVisible();
  await quantity.blur();
  await expect(quantity).not.toHaveValue('99999');
  await quantity.fill('1');
  await quantity.blur();
  await expectNoSeriousViolations(page, 'product detail');
  await shot(page, 'journey-detail-719');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('加入购物车成功')).toBeVisible();

  // Cart: the line has steppers; only this line goes to checkout.
  await page.getByTestId('cart-link').click();
  const line = page.getByTestId('cart-line').filter({ has: page.locator(`[href*="id=${product.id}&"]`) });
  await expect(line.getByRole('button', { name: '数量加一' })).toBeVisible();
  await page.getByRole('checkbox', { name: '全选' }).first().uncheck();
  await line.getByRole('checkbox').first().check();
  await expectNoSeriousViolations(page, 'cart');
  await shot(page, 'journey-cart-719');
  await page.getByTestId('checkout').click();

  // Submission: the balance is shown; the address dialog refuses bad input without a page error.
  await expect(page).toHaveURL(/\/orderSubmission\?/);
  await expect(page.getByTestId('checkout-balance')).toContainText(mallSite.cashUnit);
  await page.getByTestId('address-picker').getByTestId('address-add').click();
  await expect(page.getByTestId('address-form')).toBeVisible();
  await page.getByRole('button', { name: /保\s?存/ }).click();
  await expect(page.getByText('请输入收货人姓名', { exact: true })).toBeVisible();
  await expect(page.getByText('请选择省市区')).toBeVisible();
  await expectNoSeriousViolations(page, 'address dialog with errors');
  await shot(page, 'journey-address-dialog-errors-719');
  await fillNewAddress(page, '李四');
  await expect(page.getByTestId('checkout-freight')).not.toHaveText(/计算中|选择地址/);
  await expectNoSeriousViolations(page, 'order submission');
  await shot(page, 'journey-submission-719');
  await page.getByTestId('submit-order').click();

  // Pay with points → success for this order only; a refresh goes to my orders.
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
  await expect(page).toHaveTitle(`选择支付方式 - ${mallSite.siteName}`);
  await expectNoSeriousViolations(page, 'pay page');
  await shot(page, 'journey-pay-719');
  await page.getByTestId('payway-ye').click();
  await page.getByTestId('pay-submit').click();
  await expect(page).toHaveURL(/\/success\?/);
  await expect(page.getByTestId('pay-success')).toContainText(orderNo);
  await expect(page).toHaveTitle(`下单成功 - ${mallSite.siteName}`);
  await expectNoSeriousViolations(page, 'success');
  await shot(page, 'journey-success-719');
  await page.reload();
  await expect(page).toHaveURL(/\/myOrder\?siteId=719$/);

  // My orders: paid, 实付款 with thousands separators where due.
  const card = page.locator(`[data-order-no="${orderNo}"]`);
  await expect(card.getByTestId('order-status')).not.toHaveText('待付款');
  await expect(card).toContainText('实付款');
  await expectNoSeriousViolations(page, 'my orders');
  await shot(page, 'journey-my-orders-719');
  expect(errors).toEqual([]);
});

/** The 719 member, logged in with an address, on a cheap product's page; answers its page errors. */
async function memberOnCheapProduct(page: Page, request: APIRequestContext) {
  const errors = watchPageErrors(page);
  const product = await cheapProduct(request, 719);
  await pwdLogin(page, 719);
  await ensureAddress(page, request);
  await openProduct(page, product.id);
  return errors;
}

test('a cancelled unpaid order reads 已取消 with 应付, in the list and the detail', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = await memberOnCheapProduct(page, request);
  await page.getByTestId('buy-now').click();
  await expect(page).toHaveURL(/\/orderSubmission\?.*productId=/);
  await expect(page.getByTestId('address-option').first()).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('submit-order').click();
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!;

  await page.goto('myOrder?siteId=719&tab=pendingPayment');
  const card = page.locator(`[data-order-no="${orderNo}"]`);
  await expect(card).toContainText('应付');
  await cancelFromCard(page, card);
  await page.goto('myOrder?siteId=719&tab=cancelled');
  await expect(card.getByTestId('order-status')).toHaveText('已取消');
  await expect(card.getByTestId('order-reason')).toHaveText('您已取消该订单');
  await expect(card).toContainText('应付');
  await expect(card).not.toContainText('实付款');
  await expectNoSeriousViolations(page, 'cancelled orders');
  await shot(page, 'journey-cancelled-list-719');

  await card.getByRole('button', { name: '订单详情' }).click();
  await expect(page.getByTestId('order-detail')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('已取消');
  await expect(page.getByTestId('order-detail')).not.toContainText('实付款');
  await expectNoSeriousViolations(page, 'cancelled order detail');
  await shot(page, 'journey-cancelled-detail-719');
  expect(errors).toEqual([]);
});

test('keyboard only: buy now → submit → pay with points → success', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = await memberOnCheapProduct(page, request);
  await tabTo(page, page.getByTestId('buy-now'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/orderSubmission\?.*productId=/);
  await expect(page.getByTestId('address-option').first()).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, page.getByTestId('submit-order'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
  await tabTo(page, page.getByTestId('payway-ye'));
  await page.keyboard.press('Space');
  await expect(page.getByTestId('payway-ye')).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, page.getByTestId('pay-submit'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/success\?/);
  await expect(page.getByTestId('pay-success')).toContainText(orderNo);
  expect(errors).toEqual([]);
});

test('SMS login at the hourly cap says the real wait and offers password login', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const errors = watchPageErrors(page);
  const phone = `137${String(Date.now()).slice(-8)}`;
  // Five codes this hour (each purpose and site has its own 60-second resend rule).
  for (const purpose of ['register', 'findPassword', 'bindMobile', 'verify'])
    await sendSmsCodeByApi(request, { siteId: 719, phone, purpose });
  await sendSmsCodeByApi(request, { siteId: 1000, phone, purpose: 'login' });

  await page.goto('CodeLogin?siteId=719');
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByPlaceholder('请输入图形验证码').fill(await imageCodeOnPage(page, request));
  await page.getByTestId('send-code').click();
  const error = page.getByTestId('auth-error');
  await expect(error).toContainText(/获取验证码次数过多，请\d+分钟后再试/);
  await expect(error).not.toContainText('今日');
  const offer = page.getByTestId('password-login-offer');
  await expect(offer).toBeVisible();
  await expectNoSeriousViolations(page, 'CodeLogin at the cap');
  await shot(page, 'journey-sms-cap-719');
  await offer.getByRole('link', { name: '使用密码登录' }).click();
  await expect(page).toHaveURL(/\/PwdLogin\?siteId=719$/);
  await expect(page.getByRole('link', { name: '短信验证码登录' })).toBeVisible();
  await page.getByPlaceholder('请输入手机号').fill(DEMO[719].phone);
  await page.getByPlaceholder('请输入密码').fill(DEMO[719].password);
  await loginButton(page).click();
  await expect(page.locator('.topbar__greeting')).toContainText(masked(DEMO[719].phone));
  expect(errors).toEqual([]);
});
