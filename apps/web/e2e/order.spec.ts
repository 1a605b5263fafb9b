import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import {
  type Bill,
  type Cart,
  cartApi,
  chinaTime,
  identityApi,
  type OrderDetail,
  orderApi,
  pointsApi,
} from '@sitemall/contract';
import { encrypt } from './members.ts';
import {
  api,
  buyThroughCart,
  cancelFromCard,
  cheapProduct,
  confirmPopup,
  DEMO,
  ensureAddress,
  fillNewAddress,
  loginButton,
  pwdLogin,
  settle,
  storedToken,
  submitLine,
} from './site.ts';

/**
 * Cart, order submission, points payment, my orders, bills and addresses in the browser against
 * the real server. Demo members: apps/server/src/db/demo/members.ts.
 */

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

// Demo members have one session at a time: run in order.
test.describe.configure({ mode: 'default' });

test('guest cart on site 719 is merged into the member cart at login (quantities summed)', async ({
  page,
  request,
}) => {
  const product = await cheapProduct(request, 719);
  // The member already has one piece of it in the server cart.
  const login = await api<{ token: string }>(request, identityApi.pwdLogin.path, {
    siteId: 719,
    phone: DEMO[719].phone,
    password: await encrypt(request, DEMO[719].password),
  });
  const before = await api<{ obj: Cart }>(
    request,
    cartApi.submitCart.path,
    {
      siteId: 719,
      productInfo: [{ productId: product.id, specificationId: product.specificationId, num: 1 }],
    },
    login.token,
  );
  const had = before.obj.list.find(
    (l) => l.itemId === product.id && l.specificationId === product.specificationId,
  )!.num;

  // A visitor adds two pieces: kept on the device.
  await page.goto(`productDetails?id=${product.id}&siteId=719`);
  await page.getByRole('spinbutton', { name: '购买数量' }).fill('2');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('加入购物车成功')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toContainText('2');
  await page.getByTestId('cart-link').click();
  await expect(page.getByText('您尚未登录，购物车暂存在本机')).toBeVisible();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  await expect(page.getByTestId('cart-num')).toHaveValue('2');
  expect(await page.evaluate(() => localStorage.getItem('719_guestCart'))).not.toBeNull();
  await settle(page);
  await page.screenshot({ path: `${screenshots}order-guest-cart-719.png`, fullPage: true });

  // Logging in merges the device cart into the member's and clears the device copy.
  await pwdLogin(page, 719);
  expect(await page.evaluate(() => localStorage.getItem('719_guestCart'))).toBeNull();
  await page.goto('shoppingCart?siteId=719');
  const line = page.getByTestId('cart-line').filter({ has: page.locator(`[href*="id=${product.id}&"]`) });
  await expect(line.getByTestId('cart-num')).toHaveValue(String(had + 2));
  const token = await storedToken(page, 719);
  const after = await api<{ obj: Cart }>(request, cartApi.getCartProduct.path, { siteId: 719 }, token ?? '');
  expect(
    after.obj.list.find((l) => l.itemId === product.id && l.specificationId === product.specificationId)?.num,
  ).toBe(had + 2);
});

test('add to cart → cart → submit with a new address → pay with points → success → my orders → cancel → bills', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const product = await cheapProduct(request, 1000);
  await pwdLogin(page, 1000);

  // Add to cart from the product page; the header count follows the server.
  await page.goto(`productDetails?id=${product.id}&siteId=1000`);
  const countBefore = Number((await page.getByTestId('cart-count').innerText()).trim() || '0');
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('加入购物车成功')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toContainText(String(countBefore + 1));

  // The cart: grouped by source, quantity edit saved after the debounce, totals.
  await page.getByTestId('cart-link').click();
  await expect(page).toHaveURL(/\/shoppingCart\?siteId=1000/);
  await expect(page.getByTestId('cart-group').first()).toBeVisible();
  const line = page.getByTestId('cart-line').filter({ has: page.locator(`[href*="id=${product.id}&"]`) });
  await expect(line).toBeVisible();
  await expect(page.getByText(product.source.name).first()).toBeVisible();
  const input = line.getByTestId('cart-num');
  const startNum = Number(await input.inputValue());
  const saved = page.waitForRequest((r) => r.url().includes(cartApi.updateNum.path));
  await input.fill(String(startNum + 1));
  await input.blur();
  await saved;
  // Only this product goes to checkout.
  await page.getByRole('checkbox', { name: '全选' }).first().uncheck();
  await expect(page.getByTestId('checkout')).toBeDisabled();
  await line.getByRole('checkbox').first().check();
  await expect(page.getByTestId('cart-pieces')).toHaveText(String(startNum + 1));
  await settle(page);
  await page.screenshot({ path: `${screenshots}order-cart-1000.png`, fullPage: true });
  await page.getByTestId('checkout').click();

  // Submission: a new address added inline, freight, totals.
  await expect(page).toHaveURL(/\/orderSubmission\?/);
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
  await page.getByTestId('address-picker').getByTestId('address-add').click();
  await fillNewAddress(page, '张三');
  await expect(page.getByTestId('address-option').filter({ hasText: '张三' }).first()).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByTestId('checkout-freight')).not.toHaveText(/计算中|选择地址/);
  await settle(page);
  await page.screenshot({ path: `${screenshots}order-submission-1000.png`, fullPage: true });
  // A double click makes one order (one requestId per visit).
  const token = (await storedToken(page, 1000)) ?? '';
  const ordersBefore = (
    await api<{ total: number }>(request, orderApi.orderCount.path, { siteId: 1000 }, token)
  ).total;
  await page.getByTestId('submit-order').dblclick();

  // Pay with points.
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
  await expect(page.getByTestId('pay-countdown')).toBeVisible();
  expect(
    (await api<{ total: number }>(request, orderApi.orderCount.path, { siteId: 1000 }, token)).total,
  ).toBe(ordersBefore + 1);
  await expect(page.getByTestId('payway-ye')).toBeVisible();
  await expect(page.getByTestId('pay-balance')).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${screenshots}order-pay-1000.png`, fullPage: true });
  // WeChat Pay is offered as well (paid by QR code in wechat-pay.spec.ts).
  await expect(page.getByTestId('payway-wx_pc')).toBeVisible();
  await page.getByTestId('payway-ye').click();
  await page.getByTestId('pay-submit').click();
  await expect(page).toHaveURL(/\/success\?/);
  await expect(page.getByTestId('pay-success')).toContainText('支付成功');
  await expect(page.getByTestId('pay-success')).toContainText(orderNo);

  // My orders: the paid order is there; only one order was made from the double click.
  await page.goto('myOrder?siteId=1000');
  const card = page.locator(`[data-order-no="${orderNo}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('order-status')).not.toHaveText('待付款');
  // The list exports as an .xlsx file (a zip: it starts with PK).
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-orders').click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  const bytes = await readFile((await file.path()) ?? '');
  expect(bytes.subarray(0, 2).toString()).toBe('PK');

  // An unpaid order (buy now) is cancelled from my orders.
  await page.goto(`productDetails?id=${product.id}&siteId=1000`);
  await page.getByTestId('buy-now').click();
  await expect(page).toHaveURL(/\/orderSubmission\?.*productId=/);
  await expect(page.getByTestId('address-option').first()).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('submit-order').click();
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  const unpaid = new URL(page.url()).searchParams.get('orderNo')!;
  expect(unpaid).not.toBe(orderNo);
  await page.goto('myOrder?siteId=1000&tab=pendingPayment');
  const pending = page.locator(`[data-order-no="${unpaid}"]`);
  await expect(pending.getByTestId('order-status')).toHaveText('待付款');
  await settle(page);
  await page.screenshot({ path: `${screenshots}order-my-orders-1000.png`, fullPage: true });
  await cancelFromCard(page, pending);
  await page.goto('myOrder?siteId=1000&tab=cancelled');
  await expect(page.locator(`[data-order-no="${unpaid}"]`).getByTestId('order-status')).toHaveText(
    /取消|撤回/,
  );

  // Order detail of the paid order.
  await page.goto(`orderDetail?orderNo=${orderNo}&siteId=1000`);
  await expect(page.getByTestId('order-detail')).toContainText('张三');
  await expect(page.getByTestId('order-detail')).toContainText('积分支付');

  // Bills: the payment is an entry linked to its order.
  await page.goto('billDetails?siteId=1000');
  const row = page.locator('tr').filter({ hasText: orderNo });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('bill-amount')).toHaveText(/^-/);
  await expect(row.getByRole('link', { name: orderNo })).toHaveAttribute(
    'href',
    new RegExp(`orderDetail\\?orderNo=${orderNo}`),
  );
  await expect(page.locator('tr').filter({ hasText: '积分发放' }).first()).toBeVisible();
  await settle(page);
  await page.screenshot({ path: `${screenshots}order-bills-1000.png`, fullPage: true });
  // The type filter: issues only, the payment is gone.
  await page.getByTestId('bill-type').click();
  await page.getByTitle('积分发放').click();
  await expect(page).toHaveURL(/type=issue/);
  await expect(page.locator('tr').filter({ hasText: orderNo })).toHaveCount(0);
  await expect(page.getByTestId('bill-amount').first()).toHaveText(/^\+/);
});

test('address management: add, edit, set default (one default), delete', async ({ page }) => {
  await pwdLogin(page, 1000);
  await page.goto('myAddress?siteId=1000');
  await expect(page.getByTestId('address-book')).toBeVisible();
  const tag = String(Date.now()).slice(-4);
  for (const name of [`李四${tag}`, `王五${tag}`]) {
    await page.getByTestId('address-book').getByTestId('address-add').click();
    await fillNewAddress(page, name);
    await expect(page.getByTestId('address-card').filter({ hasText: name })).toBeVisible();
  }

  const first = page.getByTestId('address-card').filter({ hasText: `李四${tag}` });
  await first.getByRole('button', { name: /编\s?辑/ }).click();
  await page.getByTestId('address-form').getByPlaceholder('请输入收货人姓名').fill(`赵六${tag}`);
  await page.getByRole('button', { name: /保\s?存/ }).click();
  const edited = page.getByTestId('address-card').filter({ hasText: `赵六${tag}` });
  await expect(edited).toBeVisible();

  const other = page.getByTestId('address-card').filter({ hasText: `王五${tag}` });
  await other.getByRole('button', { name: '设为默认' }).click();
  await expect(page.getByTestId('address-card').first()).toContainText(`王五${tag}`);
  await expect(
    page.getByTestId('address-card').filter({ has: page.locator('.ant-tag', { hasText: '默认' }) }),
  ).toHaveCount(1);
  await settle(page);
  await page.screenshot({ path: `${screenshots}order-addresses-1000.png`, fullPage: true });

  await edited.getByRole('button', { name: /删\s?除/ }).click();
  await confirmPopup(page, /确\s?定|OK/);
  await expect(page.getByTestId('address-card').filter({ hasText: `赵六${tag}` })).toHaveCount(0);
});

// Done-when of the order issue: a member of each demo site buys with points from cart to my orders.
for (const siteId of [719, 10110] as const) {
  test(`a member of site ${siteId} buys with points from the cart to my orders`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const product = await cheapProduct(request, siteId);
    if (siteId === 10110) {
      await page.goto('AccountLogin?siteId=10110');
      await page.getByPlaceholder('请输入账号').fill(DEMO[10110].username);
      await page.getByPlaceholder('请输入密码').fill(DEMO[10110].password);
      await loginButton(page).click();
      await expect(page).not.toHaveURL(/AccountLogin/);
    } else {
      await pwdLogin(page, siteId);
    }

    await buyThroughCart(page, { siteId, productId: product.id, consignee: `买家${siteId}` });
    const orderNo = new URL(page.url()).searchParams.get('orderNo')!;
    await page.getByTestId('payway-ye').click();
    await page.getByTestId('pay-submit').click();
    await expect(page).toHaveURL(/\/success\?/);
    await expect(page.getByTestId('pay-success')).toContainText(orderNo);

    await page.goto(`myOrder?siteId=${siteId}`);
    const card = page.locator(`[data-order-no="${orderNo}"]`);
    await expect(card.getByTestId('order-status')).toHaveText('确认中');
  });
}

// The mall keeps China's clock: a shopper whose browser is in New York (UTC-5, 13 hours behind)
// reads the times of bills and orders as China's wall clock, as the server and the console do.
test.describe('a browser in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test("reads the times of bills and of an order on China's clock", async ({ page, request }) => {
    await pwdLogin(page, 1000);
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      'America/New_York',
    );
    const token = await ensureAddress(page, request, { siteId: 1000 });

    // Bills: the first entry of the ledger, as the API has it, is the first row on the page.
    const bills = await api<{ list: Bill[] }>(request, pointsApi.billList.path, { siteId: 1000 }, token);
    const first = bills.list[0]!;
    await page.goto('billDetails?siteId=1000');
    const firstRow = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await expect(firstRow.locator('td').first()).toHaveText(chinaTime(first.createTime));
    await settle(page);
    await page.screenshot({ path: `${screenshots}order-bills-new-york-1000.png`, fullPage: true });

    // An order placed now (left unpaid, then cancelled): its card and its detail.
    const product = await cheapProduct(request, 1000);
    const { orderNo } = await submitLine(request, token, 1000, {
      productId: product.id,
      specificationId: product.specificationId,
      num: 1,
    });
    const order = await api<OrderDetail>(
      request,
      orderApi.orderDetail.path,
      { siteId: 1000, orderNo },
      token,
    );
    const placed = chinaTime(order.createTime);
    expect(placed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await page.goto('myOrder?siteId=1000&tab=pendingPayment');
    await expect(page.locator(`[data-order-no="${orderNo}"] .order-card__head`)).toContainText(placed);
    await page.goto(`orderDetail?orderNo=${orderNo}&siteId=1000`);
    const placedAt = page.locator('th.ant-descriptions-item-label', { hasText: '下单时间' });
    await expect(placedAt.locator('xpath=following-sibling::td[1]')).toHaveText(placed);
    await api(request, orderApi.cancelOrder.path, { siteId: 1000, orderNo }, token);
  });
});
