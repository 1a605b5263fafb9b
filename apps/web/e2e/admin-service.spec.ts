import { expect, type Page, test } from '@playwright/test';
import { catalogApi, type MyServiceMessages } from '@sitemall/contract';
import { menu, modalOk, operatorPage, screenshots } from './console.ts';
import { api, ensureAddress, imageCodeOnPage, orderCheapProduct, pwdLogin, storedToken } from './site.ts';

/**
 * The console's service desk (issue 12, item 5) against the real server: a merchant
 * application sent from the storefront is rejected with a reason by the 719 operator (the
 * shopper's status look-up then shows it), a demo application is approved; a message the 719
 * member leaves is replied in the console and the member reads the reply on
 * /platformCustomerService; the finance reviewer's payments and reconciliation screens.
 * Screenshots go to SHOTS_DIR (default /work/shots/service). The 719 demo member logs in here.
 * Alone: npx playwright test e2e/admin-service.spec.ts --project admin-service --no-deps
 */

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

const shot = screenshots('/work/shots/service');

/** A licence picture drawn in the browser (a PNG the upload checks by its bytes). */
async function licencePng(page: Page): Promise<Buffer> {
  const data = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 320;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    g.fillStyle = '#fffbe6';
    g.fillRect(0, 0, 480, 320);
    g.strokeStyle = '#b8860b';
    g.lineWidth = 8;
    g.strokeRect(12, 12, 456, 296);
    g.fillStyle = '#8b0000';
    g.font = 'bold 40px sans-serif';
    g.fillText('营 业 执 照', 140, 90);
    g.fillStyle = '#333';
    g.font = '20px sans-serif';
    g.fillText('名称：南京示例优品贸易有限公司', 50, 160);
    g.fillText('统一社会信用代码：91320100MA2B3C4D6F', 50, 200);
    g.fillText('（演示用图片）', 50, 260);
    return canvas.toDataURL('image/png').split(',')[1] as string;
  });
  return Buffer.from(data, 'base64');
}

test('an operator rejects a storefront merchant application with a reason and approves another; the shopper sees it', async ({
  page,
  request,
  browser,
}) => {
  const shop = `示例优品${Date.now() % 100_000}`;
  const phone = `137${String(Date.now()).slice(-8)}`;
  await page.goto('businessSettlement?siteId=719');
  const form = page.locator('.merchant__form');
  await form.getByLabel('企业名称').fill('南京示例优品贸易有限公司');
  await form.getByLabel('统一社会信用代码').fill('91320100MA2B3C4D6F');
  await form.getByLabel('店铺名称').fill(shop);
  await form.getByLabel('主营类目').fill('家居日用');
  await form.getByLabel('联系人').fill('周五');
  await form.getByLabel('手机号码').fill(phone);
  await form
    .locator('input[type=file]')
    .setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: await licencePng(page) });
  await expect(form.locator('.ant-upload-list-item-done')).toHaveCount(1);
  await form.getByRole('button', { name: '提交申请' }).click();
  await expect(page.getByText('入驻申请已提交')).toBeVisible();

  const op = await operatorPage(browser, 'op719');
  await menu(op, '商家入驻');
  await expect(op.locator('.ant-table-row').first()).toBeVisible();
  await shot(op, 'merchants-list');
  await op.getByLabel('关键字').fill(shop);
  await op.getByRole('button', { name: /查\s?询/ }).click();
  const row = op.locator('.ant-table-row').filter({ hasText: shop });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: '审核' }).click();
  const drawer = op.locator('.ant-drawer-content');
  await expect(drawer.getByTestId('licence-picture')).toBeVisible();
  await expect(drawer).toContainText(phone);
  await shot(op, 'merchants-detail');

  // A reason is required: the form says so before anything is sent.
  await drawer.getByRole('button', { name: '不通过' }).click();
  await modalOk(op);
  await expect(op.getByText('请填写原因')).toBeVisible();
  await op.getByLabel('原因').fill('营业执照与企业名称不一致，请重新上传');
  await modalOk(op);
  await expect(op.getByText('已驳回')).toBeVisible();
  await expect(drawer).toContainText('审核未通过');
  await expect(drawer).toContainText('营业执照与企业名称不一致');
  await expect(drawer.getByRole('button', { name: /^通\s?过$/ })).toHaveCount(0);
  await shot(op, 'merchants-rejected');
  await drawer.locator('.ant-drawer-close').click();

  // A demo application is approved (a reason is asked for there too).
  const demo = op.locator('.ant-table-row').filter({ hasText: '西湖龙井馆' });
  await op.getByLabel('关键字').fill('西湖龙井馆');
  await op.getByRole('button', { name: /查\s?询/ }).click();
  await demo.getByRole('button', { name: '审核' }).click();
  await drawer.getByRole('button', { name: /^通\s?过$/ }).click();
  await op.getByLabel('审核意见').fill('资料齐全，同意入驻');
  await modalOk(op);
  await expect(op.getByText('已通过')).toBeVisible();
  await expect(drawer).toContainText('审核通过');
  await drawer.locator('.ant-drawer-close').click();

  // The shopper's look-up by phone shows the decision and its reason.
  await page.getByRole('button', { name: '再提交一份' }).click();
  const lookup = page.locator('.merchant__lookup');
  await lookup.getByPlaceholder('申请时填写的手机号').fill(phone);
  await lookup.getByRole('button', { name: /查\s?询/ }).click();
  await lookup.getByPlaceholder('请输入图形验证码').fill(await imageCodeOnPage(page, request));
  await lookup.getByRole('button', { name: /查\s?询/ }).click();
  await expect(lookup.getByTestId('merchant-status')).toHaveText('审核未通过');
  await expect(lookup).toContainText('营业执照与企业名称不一致');
  await shot(page, 'merchants-shopper-status');
});

test('a customer-service agent replies to a member’s message and the member reads it', async ({
  page,
  request,
  browser,
}) => {
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  const words = `发票抬头怎么修改？<b>编号${Date.now() % 100_000}</b>`;
  await page.goto('platformCustomerService?siteId=719');
  await page.getByLabel('您的称呼').fill('演示会员');
  await page.getByLabel('手机号码').fill('13800000719');
  await page.getByLabel('留言内容').fill(words);
  await page.getByRole('button', { name: '提交留言' }).click();
  await expect(page.getByTestId('service-sent')).toContainText('留言已提交');
  const mine = page.getByTestId('my-service-messages');
  await expect(mine.getByTestId('my-service-message').filter({ hasText: words })).toContainText('待回复');

  const op = await operatorPage(browser, 'op719');
  await menu(op, '客服留言');
  const row = op.locator('.ant-table-row').filter({ hasText: '发票抬头怎么修改' }).first();
  await expect(row).toBeVisible();
  await shot(op, 'service-messages');
  await row.getByRole('button', { name: '回复' }).click();
  const reply = '您好，请在“个人中心 - 发票信息”中修改抬头，已开发票可联系客服重开。<i>谢谢</i>';
  await op.getByLabel('回复内容').fill(reply);
  await shot(op, 'service-reply-form');
  await modalOk(op);
  await expect(op.getByText('已回复').first()).toBeVisible();
  // Replied messages leave the waiting list; the 已回复 filter shows it with the reply.
  await expect(op.locator('.ant-table-row').filter({ hasText: '发票抬头怎么修改' })).toHaveCount(0);

  await page.reload();
  const answered = page.getByTestId('my-service-message').filter({ hasText: words });
  await expect(answered.getByTestId('service-reply')).toContainText(reply);
  await expect(answered).toContainText('已回复');
  await shot(page, 'service-shopper-reply');
  const read = await api<MyServiceMessages>(
    request,
    catalogApi.myServiceMessages.path,
    { siteId: 719 },
    token,
  );
  expect(read.list.find((m) => m.content === words)?.reply).toBe(reply);
});

test('the finance reviewer finds a WeChat trade and reads the reconciliation', async ({
  page,
  request,
  browser,
}) => {
  // The 719 member pays an order by WeChat, scanned in the simulator.
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  await ensureAddress(page, request);
  const { order, paying } = await orderCheapProduct(request, token, { payWay: 'wx_pc' });
  await page.goto(paying?.wechat?.scanUrl as string);
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page.getByText('支付成功').first()).toBeVisible();

  const fin = await operatorPage(browser, 'finance');
  await menu(fin, '支付与对账');
  await expect(fin.getByText('微信支付交易')).toBeVisible();
  await fin.getByLabel('订单号').fill(order.orderNo);
  await fin.getByRole('button', { name: /查\s?询/ }).click();
  const trade = fin.locator('.ant-table-row').filter({ hasText: order.orderNo });
  await expect(trade).toContainText('已支付', { timeout: 15_000 });
  await shot(fin, 'payments-trades');
  await fin.getByRole('tab', { name: '退款' }).click();
  await expect(fin.getByText('微信退款')).toBeVisible();
  await fin.getByRole('tab', { name: '对账' }).click();
  await expect(fin.getByText('异常明细')).toBeVisible();
  await expect(fin.locator('.ant-table-row').filter({ hasText: '719' }).first()).toContainText('平');
  await shot(fin, 'payments-reconciliation');
  // The 719 operator holds no finance permission: no such menu entry.
  const op = await operatorPage(browser, 'op719');
  await expect(op.getByRole('menuitem', { name: '支付与对账' })).toHaveCount(0);
});
