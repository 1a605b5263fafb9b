import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  type AfterSaleDetail,
  afterSaleApi,
  type OrderDetail,
  orderApi,
  pointsApi,
} from '@sitemall/contract';
import { expectNoSeriousViolations, shot, watchPageErrors } from './a11y.ts';
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
 * After-sales in the browser: the 719 demo member returns a delivered item from the order
 * detail, ships it back, talks to the merchant, and sees the points back. The operator's steps
 * (ship, approve, receive, refund) go through the simulator's operator hand, the services the
 * console will call. The 719 member logs in here, so this file runs after the chain
 * (playwright.config.ts, project aftersale). Alone: npx playwright test e2e/aftersale.spec.ts --no-deps
 */

// One demo member, one session at a time: the journeys run one after another.
test.describe.configure({ mode: 'default' });

const operator = async (request: APIRequestContext, body: object) => {
  const answer = await request.post('/simulator/operator', { data: { siteId: 719, ...body } });
  const json = (await answer.json()) as { code: number; msg: string };
  expect(json.code, json.msg).toBe(200);
};

test('return a delivered item: apply per line, ship it back, message, refunded, points back', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  await ensureAddress(page, request);

  // A delivered, received order of two pieces (set up through the API; the operator ships it).
  const { product, order } = await orderCheapProduct(request, token, { num: 2 });
  await operator(request, {
    action: 'ship',
    childOrderNo: order.childOrderNo[0],
    trackingNo: 'SF20261125001',
  });
  await api(request, orderApi.confirmOrder.path, { siteId: 719, orderNo: order.orderNo }, token);
  const { balance: before } = await api<{ balance: number }>(
    request,
    pointsApi.balance.path,
    { siteId: 719 },
    token,
  );

  // Apply from the order detail, per line.
  await page.goto(`orderDetail?orderNo=${order.orderNo}&siteId=719`);
  const entry = page.getByTestId('aftersale-entry');
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('退货截止');
  await shot(page, 'aftersale-order-detail');
  await entry.getByRole('button', { name: '申请售后' }).click();
  const form = page.getByTestId('aftersale-apply-form');
  await expect(form).toBeVisible();
  await form.getByText('退货退款').click();
  await form.getByRole('combobox', { name: '售后原因' }).click();
  await page.getByTitle('商品质量问题').click();
  await form.getByPlaceholder('请描述商品问题（选填）').fill('包装破损，商品有划痕');
  await shot(page, 'aftersale-apply');
  await page.getByRole('button', { name: '提交申请' }).click();

  await expect(page).toHaveURL(/afterSaleDetail\?afterSaleNo=AS/);
  const afterSaleNo = new URL(page.url()).searchParams.get('afterSaleNo') ?? '';
  await expect(page.getByTestId('aftersale-status')).toHaveText('待审核');
  const detail = await api<OrderDetail>(
    request,
    orderApi.orderDetail.path,
    { siteId: 719, orderNo: order.orderNo },
    token,
  );
  expect(detail.childOrders[0]?.status).toBe(31);

  // The merchant approves: the member ships the goods back on the case page.
  await operator(request, { action: 'approveCase', afterSaleNo });
  await page.reload();
  await expect(page.getByTestId('aftersale-status')).toHaveText('待寄回商品');
  const parcel = page.getByTestId('return-parcel-form');
  await parcel.getByLabel('物流公司').fill('顺丰速运');
  await parcel.getByLabel('运单号').fill('SF1');
  await parcel.getByRole('button', { name: '提交物流' }).click();
  await expect(page.getByText('运单号须为 6-40 位字母、数字或 -')).toBeVisible();
  await parcel.getByLabel('运单号').fill('SF7788990011');
  await parcel.getByRole('button', { name: '提交物流' }).click();
  await expect(parcel).toBeHidden();
  await expect(page.getByText(/^顺丰速运 SF7788990011（/)).toBeVisible();

  const thread = page.getByTestId('aftersale-thread');
  await thread.getByLabel('留言内容').fill('商品已寄出，请查收');
  await thread.getByRole('button', { name: '发送留言' }).click();
  await expect(thread).toContainText('商品已寄出，请查收');
  // The toast comes with the answer; axe waits for animations it can see, so it must be there.
  await expect(page.locator('.ant-message').getByText('留言已发送')).toBeVisible();
  await shot(page, 'aftersale-case-awaiting');
  await expectNoSeriousViolations(page, 'afterSaleDetail');

  // The merchant receives the parcel and refunds: the points come back.
  await operator(request, { action: 'receiveReturn', afterSaleNo });
  await operator(request, { action: 'refundCase', afterSaleNo });
  await page.reload();
  await expect(page.getByTestId('aftersale-status')).toHaveText('退款成功');
  const refunded = await api<AfterSaleDetail>(
    request,
    afterSaleApi.progress.path,
    { siteId: 719, afterSaleNo },
    token,
  );
  expect(refunded.refundPoints).toBe(product.price);
  const { balance: after } = await api<{ balance: number }>(
    request,
    pointsApi.balance.path,
    { siteId: 719 },
    token,
  );
  expect(after).toBe(before + product.price);
  await shot(page, 'aftersale-case-refunded');

  await page.goto('afterSaleList?siteId=719');
  await expect(page.getByTestId('aftersale-item').first()).toContainText('退款成功');
  await shot(page, 'aftersale-list');
  await expectNoSeriousViolations(page, 'afterSaleList');

  await page.goto('billDetails?siteId=719');
  await expect(page.getByTestId('bill-details')).toContainText('退款返还');
  await shot(page, 'aftersale-bills');
  expect(errors).toEqual([]);
});

test('an order over the approval amount waits in 11 until approved, then pays', async ({ page, request }) => {
  test.setTimeout(120_000);
  const errors = watchPageErrors(page);
  await pwdLogin(page, 719);
  const token = (await storedToken(page, 719)) ?? '';
  const product = await cheapProduct(request, 719);
  await operator(request, { action: 'setApprovalRule', minAmount: product.price * 3, levels: 1 });
  try {
    const order = await submitLine(request, token, 719, {
      productId: product.id,
      specificationId: product.specificationId,
      num: 3,
    });
    expect(order.status).toBe(11);
    await page.goto(`orderDetail?orderNo=${order.orderNo}&siteId=719`);
    await expect(page.getByTestId('order-status')).toHaveText('待审批');
    await expect(page.getByRole('button', { name: '去支付' })).toHaveCount(0);
    await shot(page, 'approval-waiting');

    await operator(request, { action: 'approveOrder', orderNo: order.orderNo });
    await page.reload();
    await expect(page.getByTestId('order-status')).toHaveText('待付款');
    await page.getByRole('button', { name: '去支付' }).click();
    await expect(page).toHaveURL(/\/selectPayWay\?orderNo=/);
    await page.getByTestId('payway-ye').click();
    await page.getByTestId('pay-submit').click();
    await expect(page).toHaveURL(/\/success\?/);
    await page.goto(`orderDetail?orderNo=${order.orderNo}&siteId=719`);
    await expect(page.getByTestId('order-status')).toHaveText('确认中');
    await expect(page.getByText('审批通过，待付款')).toBeVisible();
    await shot(page, 'approval-paid');
  } finally {
    // Other journeys on 719 buy without approval.
    await operator(request, { action: 'setApprovalRule', minAmount: 2_000_000_000, levels: 1 });
  }
  expect(errors).toEqual([]);
});
