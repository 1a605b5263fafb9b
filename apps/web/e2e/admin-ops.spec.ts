import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { type AfterSaleDetail, afterSaleApi, orderApi, pointsApi, shopUrl } from '@sitemall/contract';
import { menu, modalOk, operatorPage, screenshots } from './console.ts';
import {
  api,
  cheapProduct,
  ensureAddress,
  orderCheapProduct,
  pwdLogin,
  storedToken,
  submitLine,
} from './site.ts';

/**
 * The console's operations screens (issues 12 and 15) against the real server: after-sales
 * decided in the console with a four-eyes refund (proposed by the 719 operator, executed by the
 * finance reviewer), an exchange (the member applies and ships the return in the storefront; the
 * 719 operator approves, receives, reships and completes it in the console), and order approval
 * (an order over 719's approval amount waits in 11 until an approver approves it in the console,
 * then the member pays). Screenshots of every screen go
 * to SHOTS_DIR (default /work/shots/ops-console). The 719 demo member logs in here.
 * Alone: npx playwright test e2e/admin-ops.spec.ts --project admin-ops --no-deps
 */

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

const shot = screenshots('/work/shots/ops-console');

/** The 719 member logged in, with a received order of one product; answers its token and order. */
async function receivedOrder(page: Page, request: APIRequestContext) {
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  await ensureAddress(page, request);
  const { product, order } = await orderCheapProduct(request, token);
  const ship = await request.post('/simulator/operator', {
    data: { siteId: 719, action: 'ship', childOrderNo: order.childOrderNo[0], trackingNo: 'SF20261125777' },
  });
  expect(((await ship.json()) as { code: number }).code).toBe(200);
  await api(request, orderApi.confirmOrder.path, { siteId: 719, orderNo: order.orderNo }, token);
  return { token, orderNo: order.orderNo, product };
}

const balanceOf = async (request: APIRequestContext, token: string) =>
  (await api<{ balance: number }>(request, pointsApi.balance.path, { siteId: 719 }, token)).balance;

test('after-sales: the 719 operator approves and proposes a refund, the finance reviewer executes it', async ({
  page,
  request,
  browser,
}) => {
  const { token, orderNo, product } = await receivedOrder(page, request);
  const check = await api<{ lines: { lineId: number }[] }>(
    request,
    afterSaleApi.sevenDayCheck.path,
    { siteId: 719, orderNo },
    token,
  );
  const applied = await api<AfterSaleDetail>(
    request,
    afterSaleApi.apply.path,
    { siteId: 719, orderNo, lineId: check.lines[0]?.lineId, kind: 'refund_only', qty: 1, reason: '未收到货' },
    token,
  );
  const no = applied.afterSaleNo;
  await api(
    request,
    afterSaleApi.comment.path,
    { siteId: 719, afterSaleNo: no, content: '快递显示签收但没收到' },
    token,
  );
  const before = await balanceOf(request, token);

  const op = await operatorPage(browser, 'op719');
  await menu(op, '售后处理');
  const row = op.getByRole('row', { name: new RegExp(no) });
  await expect(row).toContainText('待审核');
  await shot(op, 'aftersales-queue');
  await row.getByRole('button', { name: '处理' }).click();
  const drawer = op.locator('.ant-drawer-content');
  await expect(drawer).toContainText('快递显示签收但没收到');
  await drawer.getByLabel('回复会员').fill('已联系快递核实，稍后为您处理');
  await drawer.getByRole('button', { name: '发送回复' }).click();
  await expect(drawer).toContainText('已联系快递核实，稍后为您处理');
  await drawer.getByRole('button', { name: '审核通过' }).click();
  await modalOk(op);
  await expect(drawer.getByText('审核通过', { exact: true }).first()).toBeVisible();
  await expect(drawer).toContainText('按原支付比例预计退回');
  await drawer.getByRole('button', { name: '申请退款' }).click();
  await op.getByLabel('退款原因').fill('快递丢件，全额退款');
  await modalOk(op);
  await expect(drawer).toContainText('待财务复核');
  // The proposer cannot execute it: no finance permission, and never their own proposal.
  await expect(drawer.getByRole('button', { name: '执行退款' })).toHaveCount(0);
  await shot(op, 'aftersales-case-proposed');

  const fin = await operatorPage(browser, 'finance');
  await menu(fin, '售后处理');
  await fin
    .getByRole('row', { name: new RegExp(no) })
    .getByRole('button', { name: '处理' })
    .click();
  const review = fin.locator('.ant-drawer-content');
  await expect(review).toContainText('快递丢件，全额退款');
  await review.getByRole('button', { name: '执行退款' }).click();
  await modalOk(fin);
  await expect(review.getByText('退款成功').first()).toBeVisible();
  await expect(review).toContainText('已执行');
  await shot(fin, 'aftersales-case-refunded');
  expect(await balanceOf(request, token)).toBe(before + product.price);

  // The audit log has each step.
  const adm = await operatorPage(browser, 'admin');
  await menu(adm, '审计日志');
  await expect(adm.getByRole('cell', { name: '执行售后退款' }).first()).toBeVisible();
  await expect(adm.getByRole('cell', { name: '申请售后退款' }).first()).toBeVisible();
  await shot(adm, 'audit-aftersales');
});

test('approval: an order over 719’s amount waits in 11 until the console approves it, then the member pays', async ({
  page,
  request,
  browser,
}) => {
  const op = await operatorPage(browser, 'op719');
  await menu(op, '订单审批');
  await expect(op.getByText('没有待审批的订单')).toBeVisible();
  const form = op.locator('.ant-pro-card').filter({ hasText: '审批规则' });
  const enabled = form.getByRole('switch');
  if ((await enabled.getAttribute('aria-checked')) !== 'true') await enabled.click();
  await form.getByLabel('订单金额达到').fill('50');
  await form.getByLabel('修改原因').fill('单笔 50 元以上须部门审批');
  await shot(op, 'approval-rule');
  await form.getByRole('button', { name: '保存规则' }).click();
  await expect(op.getByText('审批规则已保存')).toBeVisible();

  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  await ensureAddress(page, request);
  const product = await cheapProduct(request, 719);
  const num = Math.ceil(5_001 / product.price);
  const order = await submitLine(request, token, 719, {
    productId: product.id,
    specificationId: product.specificationId,
    num,
  });
  expect(order.status).toBe(11);
  const refused = await request.post(shopUrl(orderApi.payOrder), {
    headers: { token },
    data: { siteId: 719, orderNo: order.orderNo, payWay: 'ye' },
  });
  expect(((await refused.json()) as { code: number }).code).not.toBe(200);
  await page.goto(`orderDetail?orderNo=${order.orderNo}&siteId=719`);
  await expect(page.getByText('待审批').first()).toBeVisible();

  await op.reload();
  const row = op.getByRole('row', { name: new RegExp(order.orderNo) });
  await expect(row).toContainText('一级', { timeout: 30_000 });
  await shot(op, 'approval-queue');
  await row.getByRole('button', { name: '通过', exact: true }).click();
  await modalOk(op);
  await expect(op.getByText('没有待审批的订单')).toBeVisible();

  await page.reload();
  await expect(page.getByText('待付款').first()).toBeVisible();
  const paid = await api<{ isPaid: boolean; status: number }>(
    request,
    orderApi.payOrder.path,
    { siteId: 719, orderNo: order.orderNo, payWay: 'ye' },
    token,
  );
  expect(paid).toMatchObject({ isPaid: true, status: 24 });

  // Leave 719 without approval for whatever runs next.
  await enabled.click();
  await form.getByLabel('修改原因').fill('演示结束，关闭审批');
  await form.getByRole('button', { name: '保存规则' }).click();
  await expect(op.getByText('审批规则已保存').last()).toBeVisible();
});

test('exchange: the member applies for 换货 from the order, the 719 operator receives the return, reships and completes it', async ({
  page,
  request,
  browser,
}) => {
  const { orderNo } = await receivedOrder(page, request);

  // The member asks for an exchange of the line from the order detail.
  await page.goto(`orderDetail?orderNo=${orderNo}&siteId=719`);
  await page.getByTestId('aftersale-entry').getByRole('button', { name: '申请售后' }).click();
  const form = page.getByTestId('aftersale-apply-form');
  await form.getByText('换货', { exact: true }).click();
  await form.getByRole('combobox', { name: '售后原因' }).click();
  await page.getByTitle('商品与描述不符').click();
  await form.getByPlaceholder('请描述商品问题（选填）').fill('颜色与描述不符，请换一件');
  await shot(page, 'exchange-apply');
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page).toHaveURL(/afterSaleDetail\?afterSaleNo=AS/);
  const no = new URL(page.url()).searchParams.get('afterSaleNo') ?? '';
  const status = page.getByTestId('aftersale-status');
  await expect(status).toHaveText('待审核');
  await expect(page.getByTestId('aftersale-case')).toContainText('换货');

  // The operator approves it in 售后处理: the case waits for the member's parcel.
  const op = await operatorPage(browser, 'op719');
  await menu(op, '售后处理');
  const openCase = async () => {
    const row = op.getByRole('row', { name: new RegExp(no) });
    await row.getByRole('button', { name: '处理' }).click();
    return op.locator('.ant-drawer-content');
  };
  await expect(op.getByRole('row', { name: new RegExp(no) })).toContainText('待审核');
  let drawer = await openCase();
  await expect(drawer).toContainText('换货');
  await expect(drawer).toContainText('颜色与描述不符，请换一件');
  await drawer.getByRole('button', { name: '审核通过' }).click();
  await modalOk(op);
  await expect(drawer.getByText('待寄回商品', { exact: true }).first()).toBeVisible();
  // An exchange refunds nothing.
  await expect(drawer.getByRole('button', { name: '申请退款' })).toHaveCount(0);

  // The member sends the goods back with the parcel form on the case page.
  await page.reload();
  await expect(status).toHaveText('待寄回商品');
  const parcel = page.getByTestId('return-parcel-form');
  await parcel.getByLabel('物流公司').fill('顺丰速运');
  await parcel.getByLabel('运单号').fill('SF6655443322');
  await parcel.getByRole('button', { name: '提交物流' }).click();
  await expect(parcel).toBeHidden();
  await expect(page.getByText(/^顺丰速运 SF6655443322（/)).toBeVisible();

  // The operator sees the parcel, confirms it received, and ships the replacement.
  await op.reload();
  drawer = await openCase();
  await expect(drawer).toContainText('顺丰速运 SF6655443322');
  await drawer.getByRole('button', { name: '确认收货' }).click();
  await modalOk(op);
  await expect(drawer.getByText('商家已收货', { exact: true }).first()).toBeVisible();
  await expect(drawer.getByRole('button', { name: '换货发出' })).toBeVisible();
  await shot(op, 'exchange-drawer-before-reship');
  await drawer.getByRole('button', { name: '换货发出' }).click();
  const reship = op.locator('.ant-modal-content').filter({ hasText: '换货发出' });
  await expect(reship.getByLabel('物流公司')).toHaveValue('顺丰速运');
  await reship.getByLabel('运单号').fill('SF1');
  await modalOk(op);
  await expect(reship).toContainText('运单号须为 6-40 位字母、数字或 -');
  await reship.getByLabel('运单号').fill('SF9988776655');
  await modalOk(op);
  await expect(reship).toBeHidden();
  await expect(drawer.getByText('换货已发出', { exact: true }).first()).toBeVisible();
  await expect(drawer).toContainText('顺丰速运 SF9988776655');

  // The member sees the replacement on the way.
  await page.reload();
  await expect(status).toHaveText('换货已发出');
  await expect(page.getByText('顺丰速运 SF9988776655', { exact: true })).toBeVisible();

  await drawer.getByRole('button', { name: '换货完成' }).click();
  await modalOk(op);
  await expect(drawer.getByText('售后完成', { exact: true }).first()).toBeVisible();
  await expect(drawer.getByRole('button', { name: '换货完成' })).toHaveCount(0);
  await shot(op, 'exchange-drawer-completed');

  // The member's case is closed, with every step in the progress timeline.
  await page.reload();
  await expect(status).toHaveText('售后完成');
  const timeline = page.locator('.aftersale-case .ant-timeline');
  for (const step of ['待审核', '审核通过', '待寄回商品', '商家已收货', '换货已发出', '售后完成']) {
    await expect(timeline).toContainText(step);
  }
  await expect(page.getByRole('button', { name: '撤销申请' })).toHaveCount(0);
  await shot(page, 'exchange-case-completed');
  await page.goto('afterSaleList?siteId=719');
  await expect(page.getByTestId('aftersale-item').filter({ hasText: no })).toContainText('售后完成');
});
