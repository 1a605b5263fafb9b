import { expect, test } from '@playwright/test';
import { shopUrl, siteApi } from '@sitemall/contract';

test('the spec fixes the demo switches of sites 719 and 10110', async ({ request }) => {
  // The layout tests read the switches from the API; this pins the seed to the spec (section 2).
  const config = async (siteId: number) =>
    (await (await request.post(shopUrl(siteApi.getSiteConfig), { data: { siteId } })).json()).data.mallSite;
  const s719 = await config(719);
  expect(s719.configJson).toMatchObject({
    showRegister: 'Y',
    afterSalesMenu: 'Y',
    serviceInfo: 'Y',
    serviceHours: '8:00-18:00',
  });
  expect(s719.loginWay).toBe(2);
  const s10110 = await config(10110);
  expect(s10110.configJson.customServiceEntry).toBe('Y');
  expect(s10110.loginWay).toBe(3);
  expect((await config(1000)).configJson.hideServicePhone).toBe('Y');
});

test('footer information entries open dialogs with their policy text', async ({ page }) => {
  await page.goto('home?siteId=719');
  const footer = page.getByTestId('service-info');
  const cases: [string, RegExp][] = [
    ['退款申请步骤', /联系商城客服/],
    ['退款流程', /商家审核/],
    ['退货政策', /7天无理由退货/],
    ['换货政策', /15天换货/],
    ['商家入驻审核规则', /罚款 100 元[\s\S]*罚款 200 元[\s\S]*罚款 500 元[\s\S]*店铺清退/],
    ['配送说明', /运费/],
    ['注册与登录', /验证码/],
  ];
  for (const [entry, text] of cases) {
    await footer.getByRole('button', { name: entry }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(entry);
    await expect(dialog).toContainText(text);
    await dialog.getByRole('button', { name: 'Close' }).or(dialog.getByLabel('Close')).first().click();
    await expect(dialog).toBeHidden();
  }
});

test('the after-sales menu of the header opens the same dialogs', async ({ page }) => {
  await page.goto('home?siteId=719');
  await page.getByTestId('after-sales-menu').hover();
  await page.getByRole('menuitem', { name: '换货政策' }).click();
  await expect(page.getByRole('dialog')).toContainText('15天换货');
});

test('the cart page shows its breadcrumb and an honest empty state', async ({ page }) => {
  await page.goto('shoppingCart?siteId=719');
  const breadcrumb = page.locator('.page-breadcrumb');
  await expect(breadcrumb).toContainText('首页');
  await expect(breadcrumb).toContainText('购物车');
  await expect(page.getByTestId('cart-empty')).toContainText('购物车空空如也');
});

test('a menu advert leads to its special list with the advert title as breadcrumb', async ({ page }) => {
  await page.goto('home?siteId=719');
  await page.locator('.navbar__ads').getByRole('link', { name: '年货节' }).click();
  await expect(page).toHaveURL(/\/specialList\?advertId=1&breadTxt=/);
  await expect(page.locator('.page-breadcrumb')).toContainText('年货节');
});

test('siteId is filled from storage on /myOrder', async ({ page }) => {
  await page.goto('home?siteId=10110');
  await expect(page.locator('.mainbar__name')).toBeVisible();
  await page.goto('myOrder');
  await expect(page).toHaveURL(/\/shoppingmall\/myOrder\?siteId=10110$/);
  await expect(page.getByTestId('require-member')).toContainText('请先登录后查看我的订单');
});

test('searching goes to the search list with the keyword', async ({ page }) => {
  await page.goto('home?siteId=1000');
  await page.getByLabel('搜索商品').fill('耳机');
  await page.getByRole('button', { name: /搜索/ }).click();
  await expect(page).toHaveURL(/\/searchList\?itemName=%E8%80%B3%E6%9C%BA&breadTxt=/);
  await expect(page.locator('.page-breadcrumb')).toContainText('耳机');
});

test('/payresultvalid without a payment goes home; with the flag it goes to /success once', async ({
  page,
}) => {
  await page.goto('home?siteId=719');
  await page.goto('payresultvalid?siteId=719');
  await expect(page).toHaveURL(/\/shoppingmall\/home\?siteId=719$/);
  // The flag names the order just paid.
  await page.evaluate(() => sessionStorage.setItem('payResultValid', JSON.stringify('SO20260101000001')));
  await page.goto('payresultvalid?siteId=719');
  await expect(page).toHaveURL(/\/shoppingmall\/success\?siteId=719$/);
  await expect(page.getByTestId('pay-success')).toContainText('SO20260101000001');
  expect(await page.evaluate(() => sessionStorage.getItem('payResultValid'))).toBeNull();
  // Refreshed (or bookmarked, or typed) there is no payment to confirm: a visitor goes home.
  await page.reload();
  await expect(page).toHaveURL(/\/shoppingmall\/home\?siteId=719$/);
  await page.goto('success?siteId=719');
  await expect(page).toHaveURL(/\/shoppingmall\/home\?siteId=719$/);
  await expect(page.getByTestId('pay-success')).toHaveCount(0);
});

test('an unknown route shows the 404 page inside the layout', async ({ page }) => {
  await page.goto('no-such-page?siteId=719');
  await expect(page.getByText('页面不存在', { exact: true })).toBeVisible();
  await expect(page.locator('header')).toBeVisible();
});

test('an unknown site is refused without applying any configuration', async ({ page }) => {
  await page.goto('home?siteId=999999');
  await expect(page.getByText('商城暂时无法访问')).toBeVisible();
  await expect(page).toHaveTitle('Sitemall');
});

test('the root redirects to the home page keeping the site', async ({ page }) => {
  await page.goto('?siteId=1000');
  await expect(page).toHaveURL(/\/shoppingmall\/home\?siteId=1000$/);
});
