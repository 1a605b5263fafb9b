import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations, SHOTS, shot, watchPageErrors } from './a11y.ts';
import { cheapProduct, siteConfig } from './site.ts';

/**
 * Every route of the spec's table (section 2), as a visitor and as a member who came in through
 * the bank ticket: the tab names the page and the site, axe finds nothing serious or critical,
 * and no page throws. The member is a fresh bank user, so no demo member's session is touched.
 */

interface RouteCase {
  path: string;
  title: string;
  /** A member page: a visitor sees the login prompt there. */
  member?: boolean;
}

const routes = (productId: number): RouteCase[] => [
  { path: 'home', title: '首页' },
  { path: `productDetails?id=${productId}`, title: '商品详情' },
  { path: 'searchList?itemName=%E6%89%8B%E6%9C%BA&breadTxt=%E6%89%8B%E6%9C%BA', title: '商品搜索' },
  { path: 'specialList?advertId=1&breadTxt=%E5%B9%B4%E8%B4%A7%E8%8A%82', title: '专题活动' },
  { path: 'shoppingCart', title: '购物车' },
  { path: 'shopStreet', title: '店铺街' },
  { path: 'businessSettlement', title: '商家入驻' },
  { path: 'platformCustomerService', title: '商城客服' },
  { path: 'personalCenter', title: '个人中心', member: true },
  { path: 'myOrder', title: '我的订单', member: true },
  { path: 'myAddress', title: '收货地址', member: true },
  { path: 'billDetails', title: '账单明细', member: true },
  { path: 'batchOrder', title: '批量下单', member: true },
  { path: `orderSubmission?productId=${productId}&num=1`, title: '提交订单', member: true },
  { path: 'no-such-page', title: '页面不存在' },
];

const LOGIN_PAGES = [
  { path: 'CodeLogin', title: '短信验证码登录' },
  { path: 'PwdLogin', title: '密码登录' },
  { path: 'AccountLogin', title: '账号登录' },
  { path: 'register', title: '注册' },
];

const withSite = (path: string, siteId: number) => `${path}${path.includes('?') ? '&' : '?'}siteId=${siteId}`;
const shotName = (path: string) => path.split('?')[0]!;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `orLogin`: a member page may already have sent the visitor to the site's login page. */
async function visit(page: Page, path: string, title: string, siteName: string, orLogin?: string) {
  await page.goto(path);
  const titles = orLogin ? `(${escaped(title)}|${escaped(orLogin)})` : escaped(title);
  await expect(page).toHaveTitle(new RegExp(`^${titles} - ${escaped(siteName)}$`));
  await page.waitForLoadState('networkidle');
}

test('every route as a visitor of site 719: titles, axe, no page errors', async ({ page, request }) => {
  // A guard against a hang, not a speed check: 2.1 min alone, 3.8 and 4.2 min (past 240 s, at its
  // last pages) in a full CI run on 2 cores.
  test.setTimeout(360_000);
  const { mallSite } = await siteConfig(request, 719);
  const product = await cheapProduct(request, 719);
  const errors = watchPageErrors(page);
  for (const route of routes(product.id)) {
    // Site 719 logs in by SMS code: a member page shows its prompt, or has moved on to the login.
    const login = route.member ? '短信验证码登录' : undefined;
    await visit(page, withSite(route.path, 719), route.title, mallSite.siteName, login);
    await expectNoSeriousViolations(page, `${route.path} (visitor)`);
    await shot(page, `visitor-${shotName(route.path)}-719`);
  }
  // Home: the category column is filled with hot categories under the short label list.
  await visit(page, 'home?siteId=719', '首页', mallSite.siteName);
  await expect(page.getByTestId('hot-categories').getByRole('link').first()).toBeVisible();
  await page.locator('.home-hero').screenshot({ path: `${SHOTS}/home-hero-719.png` });

  // A product that is not sold here is a normal answer: the page says so, no warning toast.
  await visit(page, 'productDetails?id=99999999&siteId=719', '商品详情', mallSite.siteName);
  await expect(page.getByText('商品不存在或已下架').first()).toBeVisible();
  await expect(page.locator('.ant-message')).toHaveCount(0);

  // Footer dialogs: refund steps lead to the after-sales pages; the hotline stays on one line.
  await visit(page, 'home?siteId=719', '首页', mallSite.siteName);
  await page.getByRole('button', { name: '退款申请步骤' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('联系商城客服');
  await expect(dialog.getByRole('link', { name: '去我的订单申请售后' })).toHaveAttribute(
    'href',
    /\/myOrder\?siteId=719$/,
  );
  await expect(dialog.getByRole('link', { name: '查看我的售后' })).toHaveAttribute(
    'href',
    /\/afterSaleList\?siteId=719$/,
  );
  await expectNoSeriousViolations(page, 'refund steps dialog');
  await shot(page, 'dialog-refund-steps-719');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: '商家入驻审核规则' }).click();
  const hotline = page.getByRole('dialog').getByTestId('info-hotline');
  await expect(hotline).toHaveText('400-819-0719');
  const box = (await hotline.boundingBox())!;
  const lineHeight = await hotline.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
  expect(box.height).toBeLessThan(lineHeight * 1.5);
  await page.getByRole('dialog').screenshot({ path: `${SHOTS}/dialog-merchant-rules-719.png` });
  await page.keyboard.press('Escape');

  for (const route of LOGIN_PAGES) {
    await visit(page, withSite(route.path, 719), route.title, mallSite.siteName);
    await expectNoSeriousViolations(page, route.path);
    await shot(page, `login-${route.path}-719`);
  }
  expect(errors).toEqual([]);
});

test('every route of site 1000 and 10110 home: titles and axe', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  for (const siteId of [1000, 10110]) {
    const { mallSite } = await siteConfig(request, siteId);
    await visit(page, `home?siteId=${siteId}`, '首页', mallSite.siteName);
    await expectNoSeriousViolations(page, `home ${siteId}`);
    await shot(page, `visitor-home-${siteId}`);
    await visit(page, `platformCustomerService?siteId=${siteId}`, '商城客服', mallSite.siteName);
    // Hotlines are grouped as they are read aloud (site 1000 hides it in the header: 4008001000).
    if (siteId === 1000) await expect(page.locator('.service__phone').first()).toHaveText('400-800-1000');
    await expectNoSeriousViolations(page, `platformCustomerService ${siteId}`);
    await shot(page, `visitor-platformCustomerService-${siteId}`);
  }
  expect(errors).toEqual([]);
});

test('a bank-ticket member (no phone, no username) is greeted as 会员 with the menu; member routes pass axe', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const { mallSite } = await siteConfig(request, 719);
  const product = await cheapProduct(request, 719);
  const errors = watchPageErrors(page);
  const userId = `a11y${Date.now()}`;
  const issued = await request.get(`/simulator/bank/ticket?siteId=719&userId=${userId}`);
  const { ticket } = ((await issued.json()) as { data: { ticket: string } }).data;
  await page.goto(`home?siteId=719&ticket=${encodeURIComponent(ticket)}`);
  await expect(page).toHaveURL(/\/home\?siteId=719$/);

  // Section 6 hides the member entries only from a visitor: this member has them.
  const greeting = page.locator('.topbar__greeting');
  await expect(greeting).toHaveText(`您好，会员，欢迎来到${mallSite.siteName}`);
  await expect(greeting.getByRole('link', { name: '请登录' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: '免费注册' })).toHaveCount(0);
  await page.getByTestId('account-menu').hover();
  await expect(page.getByRole('menuitem', { name: '个人中心' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '退出' })).toBeVisible();
  await shot(page, 'bank-ticket-member-home-719');

  for (const route of routes(product.id).filter((r) => r.member)) {
    await visit(page, withSite(route.path, 719), route.title, mallSite.siteName);
    await expect(page.getByTestId('require-member')).toHaveCount(0);
    await expectNoSeriousViolations(page, `${route.path} (member)`);
    await shot(page, `member-${shotName(route.path)}-719`);
  }
  await expect(page.getByTestId('pc-name')).toHaveCount(0);
  await visit(page, 'personalCenter?siteId=719', '个人中心', mallSite.siteName);
  await expect(page.getByTestId('pc-name')).toHaveText('会员');
  expect(errors).toEqual([]);
});
