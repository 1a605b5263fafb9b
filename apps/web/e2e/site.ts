import { createDecipheriv } from 'node:crypto';
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import {
  addressApi,
  catalogApi,
  type HomeProductList,
  isPlainHotline,
  orderApi,
  type PayResult,
  type ProductCard,
  type SiteConfig,
  type SubmitOrderResult,
  shopUrl,
  siteApi,
} from '@sitemall/contract';

/** Reads a site's configuration from the real API, so tests check what the server says. */
export async function siteConfig(request: APIRequestContext, siteId: number): Promise<SiteConfig> {
  const answer = await request.post(shopUrl(siteApi.getSiteConfig), { data: { siteId } });
  const body = (await answer.json()) as { code: number; data: SiteConfig };
  if (body.code !== 200) throw new Error(`site ${siteId}: code ${body.code}`);
  return body.data;
}

/** The hotline a shopper should see: decrypted here with node:crypto, independently of the page. */
export async function shownHotline(request: APIRequestContext, hotline: string): Promise<string> {
  if (isPlainHotline(hotline)) return hotline;
  const answer = await request.get(shopUrl(siteApi.clientKeys));
  const key = Buffer.from(
    ((await answer.json()) as { data: { hotlineKey: string } }).data.hotlineKey,
    'base64',
  );
  const bytes = Buffer.from(hotline, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

export const SITES = [719, 10110, 1000] as const;

// ----- The image verification code -----------------------------------------------------------

/** A person reads the picture; the test asks the captcha simulator for the same answer. */
export async function imageCodeAnswer(request: APIRequestContext, captchaId: string): Promise<string> {
  const answer = await answerOf(request, captchaId);
  if (!answer) throw new Error(`no image code ${captchaId}`);
  return answer;
}

/** The simulator's answer of an image code; empty when it has none (used or unknown). */
async function answerOf(request: APIRequestContext, captchaId: string): Promise<string> {
  const reply = await request.get(`/simulator/captcha/answer?captchaId=${captchaId}`);
  return ((await reply.json()) as { data: { answer: string } | null }).data?.answer ?? '';
}

/**
 * The answer of the image code the page shows (data-testid captcha). Right after a refusal the
 * page still shows the used image while it fetches the next one, and a used image has no answer:
 * read again until the image shown has one.
 */
export async function imageCodeOnPage(page: Page, request: APIRequestContext): Promise<string> {
  const captcha = page.getByTestId('captcha');
  await expect(captcha.locator('img')).toBeVisible();
  let answer = '';
  await expect
    .poll(async () => {
      answer = await answerOf(request, (await captcha.getAttribute('data-captcha-id')) ?? '');
      return answer;
    })
    .not.toBe('');
  return answer;
}

// ----- Members, products and addresses shared by the order and payment flows -----------------

/** Demo members: apps/server/src/db/demo/members.ts. */
export const DEMO = {
  719: { phone: '13800000719', password: 'Demo0719' },
  10110: { username: 'demo10110', password: 'Demo10110' },
  1000: { phone: '13800001000', password: 'Demo1000' },
} as const;

export async function api<T>(
  request: APIRequestContext,
  path: string,
  data: object,
  token?: string,
): Promise<T> {
  const answer = await request.post(`/front-mall-api${path}`, { data, headers: token ? { token } : {} });
  const body = (await answer.json()) as { code: number; msg: string; data: T };
  expect(body.code, `${path}: ${body.msg}`).toBe(200);
  return body.data;
}

/** A cheap product that is in stock and delivered (has an address tab). */
export async function cheapProduct(request: APIRequestContext, siteId: number): Promise<ProductCard> {
  const home = await api<HomeProductList>(request, catalogApi.homeProductList.path, { siteId });
  const products = home.floors
    .flatMap((f) => f.list)
    .filter((p) => p.hasStock && p.source.hasAddressTab)
    .sort((a, b) => a.price - b.price);
  expect(products.length).toBeGreaterThan(0);
  return products[0]!;
}

/** A member's order of `num` pieces of one specification of a product, submitted through the API. */
export const submitLine = (
  request: APIRequestContext,
  token: string,
  siteId: number,
  line: { productId: number; specificationId: number; num: number },
) => api<SubmitOrderResult>(request, orderApi.submitOrder.path, { siteId, productInfos: [line] }, token);

/** Pays a member's order through the API (points by default); answers what payOrder answers. */
export const payOrder = (
  request: APIRequestContext,
  token: string,
  siteId: number,
  orderNo: string,
  payWay = 'ye',
) => api<PayResult>(request, orderApi.payOrder.path, { siteId, orderNo, payWay }, token);

/**
 * A member's order of the site's cheapest delivered product (`cheapProduct`), paid with points
 * unless `payWay` says otherwise (null leaves it unpaid): the set-up of the console journeys.
 */
export async function orderCheapProduct(
  request: APIRequestContext,
  token: string,
  { siteId = 719, num = 1, payWay = 'ye' }: { siteId?: number; num?: number; payWay?: string | null } = {},
) {
  const product = await cheapProduct(request, siteId);
  const order = await submitLine(request, token, siteId, {
    productId: product.id,
    specificationId: product.specificationId,
    num,
  });
  const paying = payWay ? await payOrder(request, token, siteId, order.orderNo, payWay) : undefined;
  return { product, order, paying };
}

/** What a busy server's refusal says in the tests that make one (`refuseOnce`). */
export const BUSY = '系统繁忙，请稍后再试';

/**
 * The page's next call to `path` (a storefront or console path, query string allowed) is refused
 * in the envelope with BUSY, as a busy server answers; later calls reach the server. For a
 * page's error state, which the real server does not give on demand.
 */
export const refuseOnce = (page: Page, path: string) =>
  page.route(
    `**${path}*`,
    (route) => route.fulfill({ json: { code: 500, msg: BUSY, success: false, data: null } }),
    { times: 1 },
  );

export const loginButton = (page: Page) => page.getByRole('button', { name: /^登\s?录$/ });

export async function pwdLogin(page: Page, siteId: 719 | 1000) {
  await page.goto(`PwdLogin?siteId=${siteId}`);
  await page.getByPlaceholder('请输入手机号').fill(DEMO[siteId].phone);
  await page.getByPlaceholder('请输入密码').fill(DEMO[siteId].password);
  await loginButton(page).click();
  await expect(page).not.toHaveURL(/PwdLogin/);
}

export const storedToken = (page: Page, siteId: number) =>
  page.evaluate((key) => {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as { value: string }).value : null;
  }, `${siteId}_token`);

export async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}

/** Chooses the first option at each level of the region cascader until it closes. */
export async function pickRegion(page: Page) {
  await page.getByTestId('address-form').locator('.ant-cascader').click();
  const dropdown = page.locator('.ant-cascader-dropdown:visible');
  for (let level = 0; level < 3; level++) {
    const menu = dropdown.locator('.ant-cascader-menu').nth(level);
    await expect(menu.locator('.ant-cascader-menu-item').first()).toBeVisible();
    await menu.locator('.ant-cascader-menu-item').first().click();
    // Either the next level loads, or a leaf was chosen and the dropdown closes.
    await expect
      .poll(async () =>
        (await dropdown.count()) ? await dropdown.locator('.ant-cascader-menu').count() : -1,
      )
      .not.toBe(level + 1);
    if ((await dropdown.count()) === 0) break;
  }
}

export async function fillNewAddress(page: Page, consignee: string) {
  const form = page.getByTestId('address-form');
  await expect(form).toBeVisible();
  const dialog = await openedDialog(page);
  await dialog.getByRole('button', { name: /保\s?存/ }).click();
  await expect(page.getByText('请输入收货人姓名', { exact: true })).toBeVisible();
  await form.getByPlaceholder('请输入收货人姓名').fill(consignee);
  await form.getByPlaceholder('请输入手机号码').fill('1234');
  await expect(page.getByText('请输入正确的手机号')).toBeVisible();
  await form.getByPlaceholder('请输入手机号码').fill('13912345678');
  await pickRegion(page);
  await form.getByPlaceholder('街道、门牌号等').fill('幸福路 8 号 3 单元 501');
  await dialog.getByRole('button', { name: /保\s?存/ }).click();
  await expect(form).toBeHidden();
}

/** A phone as the storefront shows it to its member (138****0719). */
export const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;

/** Who receives a test's parcels: the name, phone and street of an address. */
export interface Consignee {
  consignee: string;
  phone: string;
  detail: string;
}

/** Saves a member's default address in Beijing, Dongcheng (a district every demo site delivers to). */
export const saveDefaultAddress = (
  request: APIRequestContext,
  token: string,
  siteId: number,
  who: Consignee,
) =>
  api(
    request,
    addressApi.save.path,
    { siteId, ...who, provinceCode: '110000', cityCode: '110100', districtCode: '110101', isDefault: true },
    token,
  );

/**
 * The logged-in demo member (719 unless `siteId` says otherwise) has an address, a default one
 * for `who` when they had none, so buy-now can submit at once. Answers the member's token.
 */
export async function ensureAddress(
  page: Page,
  request: APIRequestContext,
  {
    siteId = 719,
    who = { consignee: '王五', phone: '13912345678', detail: '东长安街 1 号' },
  }: { siteId?: number; who?: Consignee } = {},
): Promise<string> {
  const token = (await storedToken(page, siteId)) ?? '';
  const { list } = await api<{ list: unknown[] }>(request, addressApi.list.path, { siteId }, token);
  if (list.length === 0) await saveDefaultAddress(request, token, siteId, who);
  return token;
}

/**
 * The logged-in member buys one product through the cart: added from its detail page, checked
 * out alone (the cart may hold earlier lines), sent to a new address for `consignee`. Ends on the
 * pay page of the submitted order.
 */
export async function buyThroughCart(
  page: Page,
  { siteId, productId, consignee }: { siteId: number; productId: number; consignee: string },
) {
  await page.goto(`productDetails?id=${productId}&siteId=${siteId}`);
  await page.getByTestId('add-to-cart').click();
  await expect(page.getByText('加入购物车成功')).toBeVisible();
  await page.getByTestId('cart-link').click();
  const line = page.getByTestId('cart-line').filter({ has: page.locator(`[href*="id=${productId}&"]`) });
  await expect(line).toBeVisible();
  await page.getByRole('checkbox', { name: '全选' }).first().uncheck();
  await line.getByRole('checkbox').first().check();
  await page.getByTestId('checkout').click();

  await expect(page).toHaveURL(/\/orderSubmission\?/);
  await page.getByTestId('address-picker').getByTestId('address-add').click();
  await fillNewAddress(page, consignee);
  await expect(page.getByTestId('checkout-freight')).not.toHaveText(/计算中|选择地址/);
  await page.getByTestId('submit-order').click();
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
}

/**
 * The payer scans the mall's WeChat QR code: its demo link opens the WeChat Pay simulator in a
 * new tab, which pays. `whilePaid` sees the simulator's page before it closes (a screenshot, say).
 */
export async function payInSimulator(
  page: Page,
  context: BrowserContext,
  whilePaid?: (simulator: Page) => Promise<unknown>,
) {
  const opening = context.waitForEvent('page');
  await page.getByRole('link', { name: '在模拟器中扫码支付（演示）' }).click();
  const simulator = await opening;
  await simulator.waitForLoadState();
  await simulator.getByRole('button', { name: '确认支付' }).click();
  await expect(simulator.getByText('支付成功').first()).toBeVisible();
  await whilePaid?.(simulator);
  await simulator.close();
}

/**
 * The dialog on top, once it has finished opening: on a busy machine a click during antd's
 * zoom-in can be lost (the new-address dialog in CI: 保 存 clicked while its box was 13×6 px),
 * or undone by the form filling its values as it opens.
 */
export async function openedDialog(page: Page) {
  await expect(page.locator('.ant-modal').filter({ visible: true }).last()).not.toHaveClass(
    /zoom-(appear|enter)/,
  );
  return page.getByRole('dialog').last();
}

/**
 * Clicks a button of the open pop-confirm once it has finished opening. On a busy machine a
 * click during antd's zoom-in was once lost (the voucher journey in CI: no cancel request after
 * "click action done").
 */
export async function confirmPopup(page: Page, name: string | RegExp) {
  const confirm = page.locator('.ant-popconfirm').filter({ visible: true });
  await expect(confirm).toBeVisible();
  await expect(confirm).not.toHaveClass(/zoom-big-(appear|enter)/);
  await confirm.getByRole('button', { name }).click();
}

/** Cancels an unpaid order from its card in 我的订单: 取消订单, then 确定取消. */
export async function cancelFromCard(page: Page, card: Locator) {
  await expect(card.getByTestId('order-status')).toHaveText('待付款');
  await card.getByTestId('order-cancel').click();
  await confirmPopup(page, '确定取消');
  await expect(page.getByText('订单已取消')).toBeVisible();
}
