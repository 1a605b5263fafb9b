import { ADMIN_MSG, adminApi, adminRefundApi as api, CODE } from '@sitemall/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE_POLICIES } from '../../db/demo/operators';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import type { TestApp } from '../../test/harness';
import { orderToPay } from '../payment/payment.fixtures';
import { payRefund, wechatCode } from '../payment/payment.tables';
import { getBalance } from '../points/points.service';
import { pointsEntry } from '../points/points.tables';
import { type adminClient, consoleApp, matrixMismatches, PASSWORDS, paidOrder } from './admin.fixtures';
import { auditLog } from './admin.tables';

/**
 * Four-eyes order refunds (issue 12 item 4): above the site's refund threshold the console's
 * cancel becomes a request that a different finance operator approves (the refund executes
 * once, in the approval's transaction) or rejects; the thresholds are finance's to edit.
 */

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
const NONE = 2_000_000_000;

const policyOf = (siteId: number) => DEMO_SITE_POLICIES.find((p) => p.siteId === siteId);

type Paid = Awaited<ReturnType<typeof paidOrder>>;

const balanceOf = (o: Paid, siteId = 719) => getBalance(t, { siteId, memberId: o.member.id });
const refundEntries = (o: Paid) =>
  t.db
    .select()
    .from(pointsEntry)
    .where(and(eq(pointsEntry.memberId, o.member.id), eq(pointsEntry.requestKey, `refund:${o.orderNo}`)));
const auditsOf = (action: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id));
const detailOf = async (o: Paid) =>
  (await admin.call(adminApi.orderDetail, { siteId: 719, orderNo: o.orderNo }, tokens.admin)).body.data;

/** op719 (orders:manage on 719) cancels: above the threshold this proposes the refund. */
async function propose(o: { orderNo: string }, token = tokens.op719) {
  const answer = await admin.call(
    adminApi.cancelOrder,
    { siteId: 719, orderNo: o.orderNo, reason: '客户要求取消' },
    token,
  );
  expect(answer.body.code).toBe(200);
  return answer.body.data.refundRequest?.id as number;
}

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
});
afterAll(() => t.close());

describe('site thresholds', () => {
  it('answers each route allowed or 403 as the permission table says; a 403 writes nothing', async () => {
    const mismatches = await matrixMismatches(t, tokens, [
      [api.refundRequests, (siteId) => ({ siteId })],
      [api.sitePolicy, (siteId) => ({ siteId })],
      // Allowed saves keep the site's thresholds as they are: nothing changes, nothing is recorded.
      [api.saveSitePolicy, (siteId) => ({ ...policyOf(siteId), reason: '矩阵测试' })],
    ]);
    expect(mismatches).toEqual([]);
  });

  it('are finance’s to edit, with a reason, audited before and after', async () => {
    const shown = await admin.call(api.sitePolicy, { siteId: 719 }, tokens.finance);
    expect(shown.body.data).toMatchObject({
      siteId: 719,
      pointsIssueThreshold: 100_000,
      refundThreshold: 100_000,
    });
    const body = { siteId: 719, pointsIssueThreshold: 100_000, refundThreshold: 1, reason: '测试复核' };
    expect((await admin.call(api.saveSitePolicy, body, tokens.op719)).body.code).toBe(403);
    const blank = await admin.call(api.saveSitePolicy, { ...body, reason: ' ' }, tokens.finance);
    expect(blank.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const saved = await admin.call(api.saveSitePolicy, body, tokens.finance);
    expect(saved.body.data).toMatchObject({ refundThreshold: 1, pointsIssueThreshold: 100_000 });
    expect(saved.body.data.updatedAt).not.toBeNull();
    const [row] = await auditsOf('site.policy');
    expect(row).toMatchObject({
      siteId: 719,
      entityId: '719',
      before: { pointsIssueThreshold: 100_000, refundThreshold: 100_000 },
      after: { pointsIssueThreshold: 100_000, refundThreshold: 1 },
      reason: '测试复核',
    });
  });
});

describe('order refunds above the threshold', () => {
  it('at or under the threshold the cancel refunds at once, as before', async () => {
    const o = await paidOrder(t, 719);
    await admin.call(
      api.saveSitePolicy,
      { siteId: 719, pointsIssueThreshold: 100_000, refundThreshold: 2_000_000_000, reason: '放宽' },
      tokens.finance,
    );
    const before = await balanceOf(o);
    const answer = await admin.call(
      adminApi.cancelOrder,
      { siteId: 719, orderNo: o.orderNo, reason: '缺货' },
      tokens.op719,
    );
    expect(answer.body).toMatchObject({ msg: '订单已取消', data: { status: 4, refundRequest: null } });
    expect((await balanceOf(o)) - before).toBe(answer.body.data.payAmount);
    await admin.call(
      api.saveSitePolicy,
      { siteId: 719, pointsIssueThreshold: 100_000, refundThreshold: 1, reason: '收紧' },
      tokens.finance,
    );
  });

  it('above it the cancel proposes; a different finance operator approves and it refunds once', async () => {
    const o = await paidOrder(t, 719);
    const before = await balanceOf(o);
    const answer = await admin.call(
      adminApi.cancelOrder,
      { siteId: 719, orderNo: o.orderNo, reason: '客户要求取消' },
      tokens.op719,
    );
    expect(answer.body.msg).toBe('超过站点退款阈值，已提交退款申请，待财务复核');
    const detail = answer.body.data;
    expect(detail.status).toBe(24);
    expect(detail.refundRequest).toMatchObject({
      status: 'submitted',
      amount: detail.payAmount,
      reason: '客户要求取消',
      makerName: '汇通运营',
      approverId: null,
    });
    expect(await balanceOf(o)).toBe(before);
    const [proposed] = (await auditsOf('order.refund.propose')).filter((r) => r.entityId === o.orderNo);
    expect(proposed).toMatchObject({
      entity: 'mall_order',
      before: { status: 24 },
      after: { status: 24, request: 'submitted', amount: detail.payAmount },
      reason: '客户要求取消',
    });
    // One open request per order.
    const again = await admin.call(
      adminApi.cancelOrder,
      { siteId: 719, orderNo: o.orderNo, reason: '再来一次' },
      tokens.op719,
    );
    expect(again.body.msg).toBe(ADMIN_MSG.refundPending);

    const requestId = detail.refundRequest?.id as number;
    // The maker holds no finance permission; the customer service of another site neither.
    expect((await admin.call(api.approveRefund, { requestId }, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(api.approveRefund, { requestId }, tokens.cs10110)).body.code).toBe(403);
    const approved = await admin.call(api.approveRefund, { requestId }, tokens.finance);
    expect(approved.body.data).toMatchObject({ status: 'executed', approverName: '财务复核' });
    expect((await balanceOf(o)) - before).toBe(detail.payAmount);
    expect(await detailOf(o)).toMatchObject({ status: 4, refundRequest: { status: 'executed' } });

    const replay = await admin.call(api.approveRefund, { requestId }, tokens.finance);
    expect(replay.body.msg).toBe(ADMIN_MSG.refundState);
    expect((await balanceOf(o)) - before).toBe(detail.payAmount);
    expect(await refundEntries(o)).toHaveLength(1);
    const rows = (await auditsOf('order.refund.approve')).filter((r) => r.entityId === String(requestId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entity: 'order_refund_request',
      before: { status: 'submitted' },
      after: { status: 'executed', orderNo: o.orderNo, orderStatus: 4 },
    });
  });

  it('refuses the maker approving their own request, and a rejection without a reason', async () => {
    const o = await paidOrder(t, 719);
    const before = await balanceOf(o);
    const requestId = await propose(o, tokens.admin);
    const own = await admin.call(api.approveRefund, { requestId }, tokens.admin);
    expect(own.body).toMatchObject({ code: 403, msg: ADMIN_MSG.ownRefund });
    const ownReject = await admin.call(api.rejectRefund, { requestId, reason: '自己驳回' }, tokens.admin);
    expect(ownReject.body).toMatchObject({ code: 403, msg: ADMIN_MSG.ownRefund });
    const blank = await admin.call(api.rejectRefund, { requestId, reason: ' ' }, tokens.finance);
    expect(blank.body.msg).toBe(ADMIN_MSG.reasonRequired);

    const rejected = await admin.call(api.rejectRefund, { requestId, reason: '金额有误' }, tokens.finance);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', decisionReason: '金额有误' });
    expect(await detailOf(o)).toMatchObject({ status: 24, refundRequest: { status: 'rejected' } });
    expect((await admin.call(api.approveRefund, { requestId }, tokens.finance)).body.msg).toBe(
      ADMIN_MSG.refundState,
    );
    expect(await balanceOf(o)).toBe(before);
    const [row] = (await auditsOf('order.refund.reject')).filter((r) => r.entityId === String(requestId));
    expect(row).toMatchObject({
      before: { status: 'submitted' },
      after: { status: 'rejected' },
      reason: '金额有误',
    });
    // Rejected: the order may be proposed again.
    expect(await propose(o)).toBeGreaterThan(requestId);
  });

  it('refuses an approval when the order was shipped meanwhile; the request waits for a rejection', async () => {
    const o = await paidOrder(t, 719);
    const before = await balanceOf(o);
    const requestId = await propose(o);
    const shipped = await admin.call(
      adminApi.shipOrder,
      { siteId: 719, childOrderNo: o.childOrderNo, company: '顺丰速运', trackingNo: 'SF7191234567' },
      tokens.op719,
    );
    expect(shipped.body.data.status).toBe(22);
    const refused = await admin.call(api.approveRefund, { requestId }, tokens.finance);
    expect(refused.body).toMatchObject({
      code: CODE.failure,
      msg: '订单已发货（运单号 SF7191234567），请走售后流程',
    });
    expect(await balanceOf(o)).toBe(before);
    expect(await detailOf(o)).toMatchObject({
      status: 22,
      refundRequest: { status: 'submitted', approverId: null },
    });
    expect((await auditsOf('order.refund.approve')).some((r) => r.entityId === String(requestId))).toBe(
      false,
    );
    const list = await admin.call(api.refundRequests, { siteId: 719, status: 'submitted' }, tokens.finance);
    expect(list.body.data.list.map((r) => r.id)).toContain(requestId);
  });

  it('two approvals racing refund once: one answer succeeds, the points ledger has one entry', async () => {
    const o = await paidOrder(t, 719);
    const before = await balanceOf(o);
    const requestId = await propose(o);
    const second = await admin.tokenOf('finance', PASSWORDS.finance as string);
    const answers = await Promise.all([
      admin.call(api.approveRefund, { requestId }, tokens.finance),
      admin.call(api.approveRefund, { requestId }, second),
      admin.call(api.approveRefund, { requestId }, tokens.admin),
    ]);
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, CODE.failure, CODE.failure]);
    const detail = await detailOf(o);
    expect(detail).toMatchObject({ status: 4, refundRequest: { status: 'executed' } });
    expect((await balanceOf(o)) - before).toBe(detail.payAmount);
    expect(await refundEntries(o)).toHaveLength(1);
    expect(
      (await auditsOf('order.refund.approve')).filter((r) => r.entityId === String(requestId)),
    ).toHaveLength(1);
  });

  it('a WeChat-paid order is refunded through the refund outbox on approval, once', async () => {
    const sim = t.app.payments.simulator as WechatpaySimulator;
    const o = await orderToPay(t, 719);
    await sim.pay((await o.pay()).body.data.wechat?.codeUrl as string);
    await sim.idle();
    const [code] = await t.db.select().from(wechatCode).where(eq(wechatCode.orderNo, o.orderNo));
    expect(code?.state).toBe('paid');
    const refunds = () =>
      t.db
        .select()
        .from(payRefund)
        .where(eq(payRefund.codeId, code?.id as number));

    const requestId = await propose(o);
    expect(await refunds()).toEqual([]);
    const answers = await Promise.all([
      admin.call(api.approveRefund, { requestId }, tokens.finance),
      admin.call(api.approveRefund, { requestId }, tokens.finance),
    ]);
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, CODE.failure]);
    expect(await refunds()).toMatchObject([
      { outRefundNo: `RF${o.orderNo}`, amount: code?.cashAmount, status: expect.any(String) },
    ]);
  });

  it('lists the requests within the operator’s sites, by status and order', async () => {
    const all = await admin.call(api.refundRequests, {}, tokens.finance);
    expect(all.body.data.total).toBeGreaterThanOrEqual(4);
    expect(all.body.data.list.every((r) => r.siteId === 719)).toBe(true);
    const mine = await admin.call(api.refundRequests, { status: 'executed' }, tokens.op719);
    expect(mine.body.data.list.every((r) => r.status === 'executed')).toBe(true);
    expect((await admin.call(api.refundRequests, {}, tokens.cs10110)).body.data.total).toBe(0);
    expect((await admin.call(api.refundRequests, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
    const one = all.body.data.list[0];
    const byOrder = await admin.call(api.refundRequests, { orderNo: one?.orderNo }, tokens.finance);
    expect(byOrder.body.data.list.every((r) => r.orderNo === one?.orderNo)).toBe(true);
    expect((await admin.call(api.approveRefund, { requestId: NONE }, tokens.finance)).body.msg).toBe(
      ADMIN_MSG.notFound,
    );
  });
});
