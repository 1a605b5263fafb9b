import {
  ORDER_MSG,
  type OrderPage,
  orderApi,
  type PayResult,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import { type TestApp, testApp } from '../../test/harness';
import { orderDetail, type Shopper, shopper } from '../aftersale/aftersale.fixtures';
import { client } from '../identity/identity.fixtures';
import { lineOf, type PickedSpec, pickSpecs, stockOf } from '../order/order.fixtures';
import { mallOrder } from '../order/order.tables';
import {
  APPROVAL_MSG,
  approveOrder,
  expireApprovals,
  rejectOrder,
  setApprovalRule,
} from './approval.service';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: Shopper;
let spec: PickedSpec;

const submit = async (num: number) => {
  const answer = await api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    { siteId: 719, productInfos: [lineOf(spec, num)] },
    me.token,
  );
  expect(answer.body.code).toBe(200);
  return answer.body.data;
};
const pay = (orderNo: string, payWay = 'ye', extra: object = {}) =>
  api.post<PayResult>(orderApi.payOrder.path, { siteId: 719, orderNo, payWay, ...extra }, me.token);
const statusOf = async (orderNo: string) =>
  (await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo)))[0]?.status;
const decide = { siteId: 719, approver: '审批员甲' };

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await shopper(t, 719);
  [spec] = (await pickSpecs(t.db, 719, { stock: 100 })) as [PickedSpec];
  // Orders of three pieces or more need approval on 719.
  await setApprovalRule(t.db, { siteId: 719, minAmount: spec.price * 3, levels: 1, expireHours: 48 });
});
afterAll(() => t.close());

describe('order approval', () => {
  it('sends an order over the amount to 11; it cannot be paid until approved to 15, then pays as usual', async () => {
    const small = await submit(1);
    expect(small.status).toBe(0);
    const big = await submit(3);
    expect(big.status).toBe(11);
    const waiting = (await orderDetail(t, me, big.orderNo)) as {
      statusName: string;
      childOrders: { status: number }[];
    };
    expect(waiting).toMatchObject({ statusName: '待审批', childOrders: [{ status: 11 }] });
    const tab = await api.post<OrderPage>(
      orderApi.myOrderList.path,
      { siteId: 719, tab: 'pendingApproval' },
      me.token,
    );
    expect(tab.body.data.list.map((o) => o.orderNo)).toEqual([big.orderNo]);
    expect((await pay(big.orderNo)).body.msg).toBe(ORDER_MSG.notPending);

    const approved = await approveOrder(t.db, { ...decide, orderNo: big.orderNo, note: '同意' });
    expect(approved.status).toBe(15);
    await expect(approveOrder(t.db, { ...decide, orderNo: big.orderNo })).rejects.toThrow(
      APPROVAL_MSG.notWaiting,
    );
    const paid = await pay(big.orderNo);
    expect(paid.body.data).toMatchObject({ isPaid: true, status: 24 });
    const logs = (await orderDetail(t, me, big.orderNo)).logs.map((l) => l.statusName);
    expect(logs).toEqual(['待审批', '待付款', '确认中']);
  });

  it('an approved order pays by WeChat too', async () => {
    const sim = t.app.payments.simulator as WechatpaySimulator;
    const big = await submit(3);
    await approveOrder(t.db, { ...decide, orderNo: big.orderNo });
    const started = await pay(big.orderNo, 'wx_pc');
    await sim.pay(started.body.data.wechat?.codeUrl as string);
    await sim.idle();
    expect(await statusOf(big.orderNo)).toBe(24);
  });

  it('two levels: 11 → 12 → 15; two approvers at once move it once', async () => {
    await setApprovalRule(t.db, { siteId: 719, minAmount: spec.price * 3, levels: 2 });
    const big = await submit(3);
    const results = await Promise.allSettled([
      approveOrder(t.db, { ...decide, orderNo: big.orderNo }),
      approveOrder(t.db, { ...decide, approver: '审批员乙', orderNo: big.orderNo }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await statusOf(big.orderNo)).toBe(12);
    expect((await approveOrder(t.db, { ...decide, orderNo: big.orderNo })).status).toBe(15);
    await setApprovalRule(t.db, { siteId: 719, minAmount: spec.price * 3, levels: 1 });
  });

  it('reject: 21 with the reason in the history, stock back; a reason is required', async () => {
    const stock = await stockOf(t.db, spec.specificationId);
    const big = await submit(4);
    expect(await stockOf(t.db, spec.specificationId)).toBe(stock - 4);
    await expect(rejectOrder(t.db, { ...decide, orderNo: big.orderNo, reason: ' ' })).rejects.toThrow(
      APPROVAL_MSG.badReason,
    );
    const rejected = await rejectOrder(t.db, { ...decide, orderNo: big.orderNo, reason: '超出部门预算' });
    expect(rejected.status).toBe(21);
    expect(await stockOf(t.db, spec.specificationId)).toBe(stock);
    const detail = await orderDetail(t, me, big.orderNo);
    expect(detail.statusName).toBe('审批不通过');
    expect(detail.logs.at(-1)?.note).toContain('超出部门预算');
  });

  it('the member withdraws an order waiting for approval or approved and unpaid; stock back', async () => {
    const stock = await stockOf(t.db, spec.specificationId);
    const waiting = await submit(3);
    const approved = await submit(3);
    await approveOrder(t.db, { ...decide, orderNo: approved.orderNo });
    for (const orderNo of [waiting.orderNo, approved.orderNo]) {
      const cancelled = await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo }, me.token);
      expect(cancelled.body).toMatchObject({ code: 200, msg: ORDER_MSG.cancelled });
      expect(await statusOf(orderNo)).toBe(4);
    }
    expect(await stockOf(t.db, spec.specificationId)).toBe(stock);
    await expect(approveOrder(t.db, { ...decide, orderNo: waiting.orderNo })).rejects.toThrow(
      APPROVAL_MSG.notWaiting,
    );
  });

  it('expires orders nobody approved, and approved orders nobody paid, giving the stock back', async () => {
    const later = new Date(Date.now() + 49 * 3_600_000);
    await expireApprovals(t.db, later); // what earlier tests left waiting
    const stock = await stockOf(t.db, spec.specificationId);
    const waiting = await submit(3);
    const approved = await submit(3);
    await approveOrder(t.db, { ...decide, orderNo: approved.orderNo });
    expect(await expireApprovals(t.db)).toBe(0);
    const counts = await Promise.all([expireApprovals(t.db, later), expireApprovals(t.db, later)]);
    expect(counts[0]! + counts[1]!).toBe(2);
    expect(await statusOf(waiting.orderNo)).toBe(41);
    expect(await statusOf(approved.orderNo)).toBe(41);
    expect(await stockOf(t.db, spec.specificationId)).toBe(stock);
  });
});
