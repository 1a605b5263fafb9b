import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { IDENTITY_MSG, identityApi, MSG, shopUrl } from '@sitemall/contract';
import { freshPhone, lastSmsCode, registerByApi } from './members.ts';
import { imageCodeOnPage, masked, siteConfig, storedToken } from './site.ts';

/**
 * Identity in the browser against the real server: each login way on the demo site that uses
 * it, register, find password, change password, a session that ends mid-way, exit, and
 * automatic entry from partner systems. Demo members: apps/server/src/db/demo/members.ts.
 */

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(screenshots, { recursive: true });

// Tests share demo members and a member has one session at a time: run this file in order.
test.describe.configure({ mode: 'default' });

const DEMO = {
  719: { phone: '13800000719', password: 'Demo0719' },
  10110: { username: 'demo10110', password: 'Demo10110' },
  1000: { phone: '13800001000', password: 'Demo1000' },
} as const;

/** Image code, 获取验证码, countdown, and the code from the simulator typed in. */
async function fillSmsCode(page: Page, request: APIRequestContext, phone: string) {
  await page.getByPlaceholder('请输入图形验证码').fill(await imageCodeOnPage(page, request));
  await page.getByTestId('send-code').click();
  await expect(page.getByTestId('send-code')).toHaveText(/^(60|59|58)秒后重新获取$/);
  await expect(page.getByTestId('send-code')).toBeDisabled();
  await expect(page.getByText(IDENTITY_MSG.codeSent)).toBeVisible();
  await page.getByPlaceholder('请输入6位短信验证码').fill(await lastSmsCode(request, phone));
}

// ----- API helpers (what a second device or the partner would do) ----------------------------

/** antd spaces two-character labels: the button reads 登 录. */
const loginButton = (page: Page) => page.getByRole('button', { name: /^登\s?录$/ });

async function loginWithPassword(page: Page, phone: string, password: string) {
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByPlaceholder('请输入密码').fill(password);
  await loginButton(page).click();
}

const greeting = (page: Page) => page.locator('.topbar__greeting');

// ----- Tests ---------------------------------------------------------------------------------

test('password login (site 1000): client checks, server refusal, success, greeting, exit', async ({
  page,
  request,
}) => {
  const { mallSite } = await siteConfig(request, 1000);
  await page.goto('login?siteId=1000');
  await expect(page).toHaveURL(/\/PwdLogin\?siteId=1000$/);
  await expect(page.getByTestId('auth-site-name')).toHaveText(mallSite.siteName);
  await expect(page.locator('header')).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${screenshots}PwdLogin-1000.png` });

  // Client-side validation.
  await loginButton(page).click();
  await expect(page.getByText('请输入手机号')).toBeVisible();
  await expect(page.getByText('请输入密码', { exact: true })).toBeVisible();
  await page.getByPlaceholder('请输入手机号').fill('2380000100');
  await page.getByPlaceholder('请输入密码').fill('abcdef');
  await expect(page.getByText(IDENTITY_MSG.badPhone)).toBeVisible();
  await expect(page.getByText(MSG.passwordRule)).toBeVisible();

  // The server's answer for a wrong password.
  await loginWithPassword(page, DEMO[1000].phone, 'Wrong1000');
  await expect(page.getByTestId('auth-error')).toContainText(IDENTITY_MSG.wrongPhoneOrPassword);
  // After a refusal the form shows an image code (the server asks for one once failures pile
  // up); what the shopper types goes with the next try and the server checks it.
  await page.getByPlaceholder('请输入图形验证码').fill(await imageCodeOnPage(page, request));

  await loginWithPassword(page, DEMO[1000].phone, DEMO[1000].password);
  await expect(page).toHaveURL(/\/home\?siteId=1000$/);
  await expect(greeting(page)).toHaveText(`您好，${masked(DEMO[1000].phone)}，欢迎来到${mallSite.siteName}`);
  expect(await storedToken(page, 1000)).toBeTruthy();

  // The account menu: personal center, change password, exit (hideExit = N).
  await page.getByTestId('account-menu').hover();
  await expect(page.getByRole('menuitem', { name: '个人中心' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '修改登录密码' })).toBeVisible();
  const token = await storedToken(page, 1000);
  await page.getByRole('menuitem', { name: '退出' }).click();
  await expect(page).toHaveURL(/\/PwdLogin\?siteId=1000$/);
  expect(await storedToken(page, 1000)).toBeNull();
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  // Exit logged the token out on the server as well.
  const check = await request.post(shopUrl(identityApi.checkToken), {
    data: { siteId: 1000, token },
  });
  expect(((await check.json()) as { code: number }).code).toBe(416);
});

test('a refused login gives back a button named 登 录 even when no animation can finish', async ({
  page,
}) => {
  await page.goto('login?siteId=1000');
  // antd's spinner leaves the button through a width transition. Where it never ends (a refusal
  // while the spinner is still coming in; here every transition is off), only the page's own
  // rule keeps the collapsed spinner out of the button's name.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  await loginWithPassword(page, freshPhone(), 'Wrong1000');
  await expect(page.getByTestId('auth-error')).toContainText(IDENTITY_MSG.wrongPhoneOrPassword);
  await expect(loginButton(page)).toBeEnabled();
  await expect(page.getByRole('button', { name: /loading/ })).toHaveCount(0);
});

test('account login (site 10110): username greeting, returnBar 2 goes home, no exit', async ({
  page,
  request,
}) => {
  const { mallSite } = await siteConfig(request, 10110);
  expect(mallSite.configJson.returnBar).toBe(2);
  await page.goto('myOrder?siteId=10110');
  await greeting(page).getByRole('link', { name: '请登录' }).click();
  await expect(page).toHaveURL(/\/AccountLogin\?siteId=10110$/);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${screenshots}AccountLogin-10110.png` });

  await page.getByPlaceholder('请输入账号').fill(DEMO[10110].username);
  await page.getByPlaceholder('请输入密码').fill(DEMO[10110].password);
  await loginButton(page).click();
  // returnBar = 2: home, although the visitor came from my orders.
  await expect(page).toHaveURL(/\/home\?siteId=10110$/);
  await expect(greeting(page)).toHaveText(`您好，${DEMO[10110].username}，欢迎来到${mallSite.siteName}`);
  await page.getByTestId('account-menu').hover();
  await expect(page.getByRole('menuitem', { name: '修改登录密码' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: '退出' })).toHaveCount(0);
});

test('SMS code login (site 719): image code, 60-second resend, code from the simulator', async ({
  page,
  request,
}) => {
  const { mallSite } = await siteConfig(request, 719);
  await page.goto('login?siteId=719');
  await expect(page).toHaveURL(/\/CodeLogin\?siteId=719$/);
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('captcha').locator('img')).toBeVisible();
  await page.screenshot({ path: `${screenshots}CodeLogin-719.png` });

  await loginButton(page).click();
  await expect(page.getByText('请输入手机号')).toBeVisible();
  await expect(page.getByText('请输入短信验证码')).toBeVisible();
  // 获取验证码 wants a phone and an image code first.
  await page.getByPlaceholder('请输入手机号').fill(DEMO[719].phone);
  await page.getByTestId('send-code').click();
  await expect(page.getByText('请输入图形验证码', { exact: true })).toBeVisible();
  // A wrong image code is refused by the server and a new image is drawn.
  await page.getByPlaceholder('请输入图形验证码').fill('zzzz');
  await page.getByTestId('send-code').click();
  await expect(page.getByText(IDENTITY_MSG.wrongImageCode).first()).toBeVisible();
  await expect(page.getByTestId('send-code')).toHaveText('获取验证码');

  await fillSmsCode(page, request, DEMO[719].phone);
  await page.screenshot({ path: `${screenshots}CodeLogin-719-countdown.png` });
  await loginButton(page).click();
  await expect(page).toHaveURL(/\/home\?siteId=719$/);
  await expect(greeting(page)).toHaveText(`您好，${masked(DEMO[719].phone)}，欢迎来到${mallSite.siteName}`);
});

test('register (site 719) logs the new member in; find password resets it', async ({ page, request }) => {
  const { mallSite } = await siteConfig(request, 719);
  const phone = freshPhone();
  await page.goto('home?siteId=719');
  await greeting(page).getByRole('link', { name: '免费注册' }).click();
  await expect(page).toHaveURL(/\/register\?siteId=719$/);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${screenshots}register-719.png` });

  await page.getByPlaceholder('请输入手机号').fill(phone);
  await fillSmsCode(page, request, phone);
  await page.getByPlaceholder(/请设置登录密码/).fill('abc');
  await expect(page.getByText(MSG.passwordRule)).toBeVisible();
  await page.getByPlaceholder(/请设置登录密码/).fill('Reg12345');
  await page.getByPlaceholder('请再次输入密码').fill('Reg12346');
  await expect(page.getByText(MSG.passwordsDiffer)).toBeVisible();
  await page.getByPlaceholder('请再次输入密码').fill('Reg12345');
  await page.getByRole('button', { name: '注册并登录' }).click();
  await expect(page).toHaveURL(/\/home\?siteId=719$/);
  await expect(greeting(page)).toHaveText(`您好，${masked(phone)}，欢迎来到${mallSite.siteName}`);

  // Find password from the password login page, then log in with the new password.
  await page.getByTestId('account-menu').hover();
  await page.getByRole('menuitem', { name: '退出' }).click();
  await expect(page).toHaveURL(/\/CodeLogin\?siteId=719$/);
  await page.goto('PwdLogin?siteId=719');
  await page.getByRole('button', { name: '忘记密码？' }).click();
  await expect(page.getByRole('heading', { name: '找回密码' })).toBeVisible();
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await fillSmsCode(page, request, phone);
  await page.getByPlaceholder(/请设置新密码/).fill('Find12345');
  await page.getByPlaceholder('请再次输入密码').fill('Find12345');
  await page.screenshot({ path: `${screenshots}findPassword-719.png` });
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText(IDENTITY_MSG.passwordReset)).toBeVisible();
  await expect(page.getByRole('heading', { name: '密码登录' })).toBeVisible();
  await expect(page.getByPlaceholder('请输入手机号')).toHaveValue(phone);
  await page.getByPlaceholder('请输入密码').fill('Find12345');
  await loginButton(page).click();
  await expect(greeting(page)).toHaveText(`您好，${masked(phone)}，欢迎来到${mallSite.siteName}`);
});

test('change password: every message, server refusal, success ends the session', async ({
  page,
  request,
}) => {
  const phone = freshPhone();
  await registerByApi(request, 719, phone, 'Old12345');
  await page.goto('PwdLogin?siteId=719');
  await loginWithPassword(page, phone, 'Old12345');
  await expect(greeting(page)).toContainText(masked(phone));

  await page.getByTestId('account-menu').hover();
  await page.getByRole('menuitem', { name: '修改登录密码' }).click();
  const dialog = page.getByRole('dialog', { name: '修改登录密码' });
  await expect(dialog).toBeVisible();
  const oldPsw = dialog.getByPlaceholder('请输入原始密码');
  const newPsw1 = dialog.getByPlaceholder('请输入新密码');
  const newPsw2 = dialog.getByPlaceholder('请再次输入新密码');

  // 请输入原始密码 on blur.
  await oldPsw.focus();
  await expect(dialog.getByText(MSG.oldPasswordRequired, { exact: true })).toHaveCount(0);
  await oldPsw.blur();
  await expect(dialog.getByText(MSG.oldPasswordRequired, { exact: true })).toBeVisible();
  // New password and confirmation on change.
  await newPsw1.fill('abc');
  await expect(dialog.getByText(MSG.passwordRule)).toBeVisible();
  await newPsw1.fill('');
  await expect(dialog.getByText(MSG.newPasswordRequired, { exact: true })).toBeVisible();
  await newPsw2.fill('x');
  await newPsw2.fill('');
  await expect(dialog.getByText(MSG.confirmPasswordRequired, { exact: true })).toBeVisible();
  await newPsw1.fill('New12345');
  await newPsw2.fill('New12399');
  await expect(dialog.getByText(MSG.passwordsDiffer)).toBeVisible();
  await newPsw2.fill('New12345');
  await expect(dialog.getByText(MSG.passwordsDiffer)).toHaveCount(0);
  await page.screenshot({ path: `${screenshots}changePassword-dialog.png` });

  // The server refuses a wrong original password: its msg as an error.
  await oldPsw.fill('Bad12345');
  await dialog.getByRole('button', { name: '确认修改' }).click();
  await expect(page.locator('.ant-message-error')).toContainText(IDENTITY_MSG.wrongOldPassword);
  await expect(dialog).toBeVisible();

  await oldPsw.fill('Old12345');
  await dialog.getByRole('button', { name: '确认修改' }).click();
  await expect(page.getByText(MSG.passwordChanged)).toBeVisible();
  await expect(page).toHaveURL(/\/CodeLogin\?siteId=719$/);
  expect(await storedToken(page, 719)).toBeNull();

  // The new password works, the old one does not.
  await page.goto('PwdLogin?siteId=719');
  await loginWithPassword(page, phone, 'Old12345');
  await expect(page.getByTestId('auth-error')).toContainText(IDENTITY_MSG.wrongPhoneOrPassword);
  // The next try on a page opened anew. Typed into the refused page at once, the next try found
  // the login button already loading with no request sent, in three runs of three on a slower
  // 2-core machine (CI, 2026-12-05); passed with any listener added to slow the test down. The
  // cause is not found yet: the retry on the same page is the password test's above.
  await page.goto('PwdLogin?siteId=719');
  await loginWithPassword(page, phone, 'New12345');
  await expect(greeting(page)).toContainText(masked(phone));
});

test('a session ended elsewhere (401/416) returns to the page after logging in again', async ({
  page,
  request,
}) => {
  const { mallSite } = await siteConfig(request, 1000);
  await page.goto('PwdLogin?siteId=1000');
  await loginWithPassword(page, DEMO[1000].phone, DEMO[1000].password);
  await expect(greeting(page)).toContainText(masked(DEMO[1000].phone));

  // The personal center, from the account menu.
  await page.getByTestId('account-menu').hover();
  await page.getByRole('menuitem', { name: '个人中心' }).click();
  await expect(page).toHaveURL(/\/personalCenter\?siteId=1000$/);
  await expect(page.getByTestId('pc-phone')).toHaveText(masked(DEMO[1000].phone));
  await expect(page.getByTestId('pc-site')).toHaveText(mallSite.siteName);
  // The demo member's opening balance from the ledger: 50,000 fen in the site's unit.
  await expect(page.getByTestId('points-balance')).toContainText(`500.00${mallSite.cashUnit}`);
  for (const name of ['我的订单', '收货地址', '账单明细', '修改登录密码'])
    await expect(page.getByTestId('personal-center').getByText(name, { exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${screenshots}personalCenter-1000.png`, fullPage: true });

  // The token is logged out on the server (another device, an operator ...).
  const token = await storedToken(page, 1000);
  const out = await request.post(shopUrl(identityApi.logout), {
    data: { siteId: 1000 },
    headers: { token: token ?? '' },
  });
  expect(((await out.json()) as { code: number }).code).toBe(200);

  // Navigating on: the personal center's call answers 416 and the request layer sends to login.
  await page.getByRole('link', { name: '首页' }).first().click();
  await page.getByTestId('account-menu').hover();
  await page.getByRole('menuitem', { name: '个人中心' }).click();
  await expect(page).toHaveURL(/\/PwdLogin\?siteId=1000$/);
  expect(await storedToken(page, 1000)).toBeNull();
  await loginWithPassword(page, DEMO[1000].phone, DEMO[1000].password);
  await expect(page).toHaveURL(/\/personalCenter\?siteId=1000$/);
  await expect(page.getByTestId('pc-phone')).toHaveText(masked(DEMO[1000].phone));
});

test('loginOrder 0 (site 719): a token ended on the server is noticed on the next page', async ({
  page,
  request,
}) => {
  const phone = freshPhone();
  await registerByApi(request, 719, phone, 'Tok12345');
  await page.goto('PwdLogin?siteId=719');
  await loginWithPassword(page, phone, 'Tok12345');
  await expect(greeting(page)).toContainText(masked(phone));
  const token = await storedToken(page, 719);
  // The home page's own calls would notice the ended token first and drop it from the shared
  // localStorage; this case is about the next browser session, so the first one is closed.
  const context = page.context();
  await page.close();
  await request.post(shopUrl(identityApi.logout), {
    data: { siteId: 719 },
    headers: { token: token ?? '' },
  });
  // A new browser session (a reload keeps sessionStorage, a new page does not): the check runs.
  const fresh = await context.newPage();
  await fresh.goto('myOrder?siteId=719');
  await expect(fresh).toHaveURL(/\/CodeLogin\?siteId=719$/);
  expect(await fresh.evaluate(() => sessionStorage.getItem('loginSuccessBackPath'))).toBe(
    JSON.stringify('/myOrder?siteId=719'),
  );
});

test('partner entry: a bank ticket logs in and the page continues without it', async ({ page, request }) => {
  const phone = freshPhone();
  const issued = await request.get(`/simulator/bank/ticket?siteId=1000&userId=bank${phone}&phone=${phone}`);
  const { ticket } = ((await issued.json()) as { data: { ticket: string } }).data;
  await page.goto(`searchList?siteId=1000&itemName=abc&ticket=${encodeURIComponent(ticket)}`);
  await expect(page).toHaveURL(/\/searchList\?siteId=1000&itemName=abc$/);
  await expect(greeting(page)).toContainText(masked(phone));
  expect(await storedToken(page, 1000)).toBeTruthy();

  // The same ticket again (it works once): the page just continues, logged out.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`home?siteId=1000&ticket=${encodeURIComponent(ticket)}`);
  await expect(page).toHaveURL(/\/home\?siteId=1000$/);
  await expect(greeting(page).getByRole('link', { name: '请登录' })).toBeVisible();
});

test('partner entry: a bank user id that cannot be used explains itself with the hotline', async ({
  page,
  request,
}) => {
  const issued = await request.get('/simulator/bank/ticket?siteId=719&userId=not%20valid!');
  const { ticket } = ((await issued.json()) as { data: { ticket: string } }).data;
  await page.goto(`home?siteId=719&ticket=${encodeURIComponent(ticket)}`);
  const notice = page.getByTestId('wrong-user-id');
  await expect(notice).toContainText('信用授权时未获取到您的用户ID，请联系客服');
  await expect(notice).toContainText('客服电话：400-819-0719');
  await expect(page).toHaveURL(/\/home\?siteId=719$/);
  await page.screenshot({ path: `${screenshots}partner-wrong-user-id.png` });
});

test('partner entry: DingTalk on a site with dingtalkAuthSwitch = 1 keeps the corpId', async ({
  page,
  request,
}) => {
  const phone = freshPhone();
  const issued = await request.get(
    `/simulator/dingtalk/authCode?corpId=dingcorp1&userId=u${phone}&mobile=${phone}`,
  );
  const { authCode } = ((await issued.json()) as { data: { authCode: string } }).data;
  await page.goto(`home?siteId=10110&corpId=dingcorp1&authCode=${encodeURIComponent(authCode)}`);
  await expect(page).toHaveURL(/\/home\?siteId=10110$/);
  await expect(greeting(page)).toContainText(masked(phone));
  expect(await page.evaluate(() => localStorage.getItem('10110_corpId'))).toContain('dingcorp1');
});
