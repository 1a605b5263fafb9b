import {
  type APIRequestContext,
  type BrowserContext,
  expect as base,
  type Page,
  test,
} from '@playwright/test';
import { groupApi } from '@sitemall/contract';
import { expectNoSeriousViolations, shot, watchPageErrors } from './a11y.ts';
import { consoleLogin, openActivityScreen } from './console.ts';
import { freshPhone, registerByApi } from './members.ts';
import { api, ensureAddress, loginButton, payInSimulator, settle } from './site.ts';

/**
 * Group buy (issue 14) on 719 with two new members (so no demo member's session is touched):
 * the first opens a team of the demo activity 两人拼团 and pays by WeChat in the simulator,
 * waiting in the team; the second opens the share link, joins, pays, and the team succeeds.
 */

test.describe.configure({ mode: 'serial' });
// Two members, two payments and a console: a busy shared machine answers slowly at times.
const expect = base.configure({ timeout: 30_000 });

async function member(page: Page, request: APIRequestContext) {
  const phone = freshPhone();
  await registerByApi(request, 719, phone, 'Group1234');
  await page.goto('PwdLogin?siteId=719');
  await page.getByPlaceholder('请输入手机号').fill(phone);
  await page.getByPlaceholder('请输入密码').fill('Group1234');
  await loginButton(page).click();
  await expect(page).not.toHaveURL(/PwdLogin/);
  await ensureAddress(page, request);
  return phone;
}

/** Pays the order on the pay page by WeChat, scanned in the simulator tab. */
async function payByWechat(page: Page, context: BrowserContext) {
  await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
  await page.getByTestId('payway-wx_pc').click();
  await page.getByTestId('pay-submit').click();
  await expect(page.getByTestId('wechat-panel')).toBeVisible();
  await payInSimulator(page, context);
  await expect(page).toHaveURL(/\/success\?/, { timeout: 15_000 });
}

test('open a team, share it, and fill it with a second member', async ({
  browser,
  page,
  request,
  context,
}) => {
  test.setTimeout(300_000);
  const errors = watchPageErrors(page);
  const leaderPhone = await member(page, request);

  await page.goto('groupBuy?siteId=719');
  const card = page.getByTestId('group-activity').first();
  await expect(card).toContainText('2 人团');
  await settle(page);
  await shot(page, 'group-buy-list');
  await card.getByRole('button', { name: '去拼团' }).click();
  await expect(page).toHaveURL(/groupBuy\?.*id=/);
  await expect(page.getByTestId('group-activity-countdown')).toHaveText(/距结束 (\d+天 )?\d{2}:\d{2}:\d{2}/);
  await settle(page);
  await shot(page, 'group-buy-detail');
  await expectNoSeriousViolations(page, 'groupBuy');
  await page.getByTestId('group-open').click();

  // The team page: the leader in, one slot free, counting down, with its share link.
  await expect(page).toHaveURL(/groupTeam\?.*teamId=/);
  await expect(page.getByTestId('group-team-status')).toHaveText('拼团中');
  await expect(page.getByTestId('group-missing')).toHaveText('1');
  const countdown = page.getByTestId('group-team-countdown');
  await expect(countdown).toHaveText(/^2[34]:\d{2}:\d{2}$/);
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? '');
  const shareUrl = await page.getByTestId('group-share').inputValue();
  expect(shareUrl).toMatch(/groupTeam\?siteId=719&teamId=\d+$/);
  await expect(page.getByTestId('group-member').first()).toContainText(leaderPhone.slice(-4));
  await settle(page);
  await shot(page, 'group-team-leader-unpaid');
  await expectNoSeriousViolations(page, 'groupTeam');
  await page.getByTestId('group-pay').click();
  await payByWechat(page, context);
  await page.goto(shareUrl);
  await expect(page.getByTestId('group-team-status')).toHaveText('拼团中');
  await expect(page.getByRole('button', { name: '查看订单' })).toBeVisible();

  // A second member, in another browser, opens the share link and joins.
  const other = await browser.newContext();
  const second = await other.newPage();
  await member(second, other.request);
  await second.goto(shareUrl);
  await expect(second.getByTestId('group-join')).toBeVisible();
  await settle(second);
  await shot(second, 'group-team-join');
  await second.getByTestId('group-join').click();
  await expect(second.getByTestId('group-pay')).toBeVisible();
  await expect(second.getByTestId('group-missing')).toHaveText('0');
  await second.getByTestId('group-pay').click();
  await payByWechat(second, other);
  await second.goto(shareUrl);
  await expect(second.getByTestId('group-team-status')).toHaveText('拼团成功');
  await expect(second.getByTestId('group-member')).toHaveCount(2);
  await settle(second);
  await shot(second, 'group-team-succeeded');

  // My group buys, in the personal centre.
  await second.goto('personalCenter?siteId=719');
  await second.getByRole('link', { name: /我的拼团/ }).click();
  await expect(second.getByTestId('my-group').first()).toContainText('拼团成功');
  await settle(second);
  await shot(second, 'group-my-list');
  await expectNoSeriousViolations(second, 'myGroupBuy');
  await other.close();

  // The leader's order waited in 确认中 and is now part of a succeeded team.
  await page.goto('myGroupBuy?siteId=719');
  await expect(page.getByTestId('my-group').first()).toContainText('拼团成功');
  await expect(page.getByTestId('my-group').first()).toContainText('我是团长');
  expect(errors).toEqual([]);
});

test('console: the group-buy screen lists the activity and its team; an activity is created and ended', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { activities } = await api<{ activities: { specificationId: number }[] }>(
    request,
    groupApi.detail.path,
    {
      siteId: 719,
    },
  );
  await consoleLogin(page, 'op719');
  await openActivityScreen(page, '拼团活动');
  const demo = page.getByRole('row').filter({ hasText: '两人拼团' });
  await expect(demo).toContainText('进行中');
  await expect(demo).toContainText('0 / 1 / 0');
  await shot(page, 'console-group-activities');

  await demo.getByRole('button', { name: '查看团' }).click();
  const team = page.getByRole('row').filter({ hasText: '拼团成功' }).first();
  await expect(team).toContainText('2 / 2');
  await team.getByRole('button', { name: /展开行|Expand row/ }).click();
  await expect(page.getByRole('cell', { name: '团长', exact: true })).toBeVisible();
  await shot(page, 'console-group-teams');

  await page.getByRole('tab', { name: '拼团活动' }).click();
  await page.getByRole('button', { name: '新建拼团' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('活动名称').fill('三人团（运营新建）');
  await form.getByLabel('商品规格 ID').fill(String(activities[0]?.specificationId));
  await form.getByLabel('拼团价（元）').fill('99');
  await form.getByLabel('成团人数').fill('3');
  await shot(page, 'console-group-create');
  await form.getByRole('button', { name: /确\s?定/ }).click();
  const created = page.getByRole('row').filter({ hasText: '三人团（运营新建）' });
  await expect(created).toContainText('3 人 · 24 小时 · 每人限购 1');
  await created.getByRole('button', { name: '结束' }).click();
  await page.getByLabel('结束原因').fill('测试结束');
  await page.getByRole('button', { name: '结束活动' }).click();
  await expect(created).toContainText('已结束');
  await shot(page, 'console-group-ended');
});
