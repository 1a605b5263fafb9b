import {
  ADMIN_MSG,
  AFTER_SALE_CONSOLE_MSG,
  type AfterSaleComment,
  type AfterSaleDetail,
  afterSaleApi,
  adminAfterSaleApi as api,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { lineOf, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { getBalance } from '../points/points.service';
import { receivedOrder, type Shopper, shopper } from './aftersale.fixtures';
import { afterSaleRefund, afterSaleRefundProposal } from './aftersale.tables';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let me: Shopper;
let goods: PickedSpec[];
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
  me = await shopper(t, 719);
  goods = await pickSpecs(t.db, 719, { count: 2, stock: 100 });
});
afterAll(() => t.close());

const member = (path: string, body: object) =>
  client(t).post<AfterSaleDetail>(`/api/afterSale/${path}`, { siteId: me.siteId, ...body }, me.token);

/** A received order of one line and a case of `kind` applied for on it. */
async function openCase(kind: 'refund_only' | 'return_refund' | 'exchange', wechatPoints?: number) {
  const order = await receivedOrder(t, me, [lineOf(goods[0] as PickedSpec, 2)], { wechatPoints });
  const applied = await member('apply', {
    orderNo: order.orderNo,
    lineId: order.check.lines[0]?.lineId,
    kind,
    qty: 1,
    reason: '商品质量问题',
  });
  if (applied.body.code !== 200) throw new Error(applied.body.msg);
  return { siteId: 719, afterSaleNo: applied.body.data.afterSaleNo };
}

const audits = (action: string, entityId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));

describe('after-sales queue and case page', () => {
  it('lists the cases of the operator’s sites, longest waiting first; another site answers 403', async () => {
    const first = await openCase('return_refund');
    const second = await openCase('refund_only');
    const queue = await admin.call(api.cases, { siteId: 719, openOnly: true }, tokens.op719);
    const nos = queue.body.data.list.map((c) => c.afterSaleNo);
    expect(nos.indexOf(first.afterSaleNo)).toBeLessThan(nos.indexOf(second.afterSaleNo));
    expect(queue.body.data.list[0]).toMatchObject({ siteId: 719, statusName: '待审核', waitingHours: 0 });
    const byNo = await admin.call(api.cases, { keyword: second.afterSaleNo }, tokens.op719);
    expect(byNo.body.data.list.map((c) => c.afterSaleNo)).toEqual([second.afterSaleNo]);

    expect((await admin.call(api.cases, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
    const own = await admin.call(api.cases, {}, tokens.cs10110);
    expect(own.body.data.list.every((c) => c.siteId === 10110)).toBe(true);
    const foreign = await admin.call(api.caseDetail, first, tokens.cs10110);
    expect(foreign.body).toMatchObject({ code: 403, msg: ADMIN_MSG.forbiddenSite });
  });

  it('rejects with a reason only, answers the member’s thread and shows the timeline', async () => {
    const ref = await openCase('refund_only');
    await member('comment', { afterSaleNo: ref.afterSaleNo, content: '盒子压坏了' });
    const noReason = await admin.call(api.reject, { ...ref, reason: ' ' }, tokens.op719);
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const replied = await admin.call(api.reply, { ...ref, content: '<b>已收到</b>，请稍候' }, tokens.op719);
    expect(replied.body.data.comments.map((c) => [c.author, c.content])).toEqual([
      ['member', '盒子压坏了'],
      ['operator', '<b>已收到</b>，请稍候'],
    ]);
    const thread = await client(t).post<{ list: AfterSaleComment[] }>(
      afterSaleApi.commentList.path,
      { siteId: 719, afterSaleNo: ref.afterSaleNo },
      me.token,
    );
    expect(thread.body.data.list.at(-1)?.author).toBe('operator');
    const rejected = await admin.call(api.reject, { ...ref, reason: '照片无法证明破损' }, tokens.op719);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', auditNote: '照片无法证明破损' });
    expect(rejected.body.data.steps.map((s) => s.statusName)).toEqual(['待审核', '审核不通过']);
    const [row] = await audits('aftersale.reject', ref.afterSaleNo);
    expect(row).toMatchObject({
      before: { status: 'applied' },
      after: { status: 'rejected' },
      reason: '照片无法证明破损',
    });
  });
});

describe('return, receipt and a four-eyes refund', () => {
  it('is proposed by after-sales with the split, executed once by another operator with finance', async () => {
    const ref = await openCase('return_refund');
    const approved = await admin.call(api.approve, { ...ref, note: '同意退货' }, tokens.op719);
    expect(approved.body.data).toMatchObject({ status: 'awaiting_return', refundPreview: null });
    await member('delivery', { afterSaleNo: ref.afterSaleNo, company: '顺丰速运', trackingNo: 'SF20261125' });
    const received = await admin.call(api.receive, ref, tokens.op719);
    const preview = received.body.data.refundPreview;
    expect(preview).toEqual({ cash: 0, points: (goods[0] as PickedSpec).price });

    // finance may not propose (no after-sales permission); op719 may not execute (no finance).
    expect((await admin.call(api.proposeRefund, { ...ref, reason: '退货' }, tokens.finance)).body.code).toBe(
      403,
    );
    const proposed = await admin.call(api.proposeRefund, { ...ref, reason: '退货已入库' }, tokens.admin);
    const proposal = proposed.body.data.proposals[0];
    expect(proposal).toMatchObject({ status: 'proposed', proposerName: '平台管理员', ...preview });
    const again = await admin.call(api.proposeRefund, { ...ref, reason: '再来一次' }, tokens.op719);
    expect(again.body.msg).toBe(AFTER_SALE_CONSOLE_MSG.proposalOpen);
    const proposalId = proposal?.id as number;
    expect((await admin.call(api.executeRefund, { ...ref, proposalId }, tokens.op719)).body.code).toBe(403);
    const own = await admin.call(api.executeRefund, { ...ref, proposalId }, tokens.admin);
    expect(own.body).toMatchObject({ code: 403, msg: AFTER_SALE_CONSOLE_MSG.ownProposal });

    // Two finance tabs execute the one proposal at once: one refund.
    const before = await getBalance(t, { siteId: 719, memberId: me.id });
    const answers = await Promise.all(
      [1, 2].map(() => admin.call(api.executeRefund, { ...ref, proposalId }, tokens.finance)),
    );
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 500]);
    expect(answers.find((a) => a.body.code === 500)?.body.msg).toMatch(/状态已变化/);
    const done = answers.find((a) => a.body.code === 200)?.body.data;
    expect(done).toMatchObject({ status: 'refunded', refundPoints: preview?.points });
    expect(done?.proposals[0]).toMatchObject({ status: 'executed', deciderName: '财务复核' });
    expect(await getBalance(t, { siteId: 719, memberId: me.id })).toBe(before + (preview?.points ?? 0));
    expect(await audits('aftersale.refund.execute', ref.afterSaleNo)).toHaveLength(1);
    expect(await audits('aftersale.receive', ref.afterSaleNo)).toHaveLength(1);
  });

  it('makes one proposal of two tabs proposing at once; a rejected one lets a new one be made', async () => {
    const ref = await openCase('refund_only');
    await admin.call(api.approve, ref, tokens.op719);
    const answers = await Promise.all(
      [1, 2].map(() => admin.call(api.proposeRefund, { ...ref, reason: '仅退款' }, tokens.op719)),
    );
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 500]);
    const rows = await t.db.select().from(afterSaleRefundProposal);
    const mine = rows.filter((r) => r.status === 'proposed');
    expect(mine).toHaveLength(1);
    const proposalId = mine[0]?.id as number;
    const noReason = await admin.call(api.rejectRefund, { ...ref, proposalId, reason: '' }, tokens.finance);
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const rejected = await admin.call(
      api.rejectRefund,
      { ...ref, proposalId, reason: '金额需与会员确认' },
      tokens.finance,
    );
    expect(rejected.body.data.proposals[0]).toMatchObject({
      status: 'rejected',
      decideNote: '金额需与会员确认',
    });
    expect(rejected.body.data.status).toBe('approved');
    const anew = await admin.call(api.proposeRefund, { ...ref, reason: '已与会员确认' }, tokens.op719);
    expect(anew.body.data.proposals.map((p) => p.status)).toEqual(['proposed', 'rejected']);
  });
});

describe('WeChat refund retry and exchange', () => {
  it('retries the WeChat part with its one refund number until WeChat confirms it', async () => {
    const sim = t.app.payments.simulator as WechatpaySimulator;
    const ref = await openCase('refund_only', 101);
    await admin.call(api.approve, ref, tokens.op719);
    const proposed = await admin.call(api.proposeRefund, { ...ref, reason: '仅退款' }, tokens.op719);
    const proposalId = proposed.body.data.proposals[0]?.id as number;
    const executed = await admin.call(api.executeRefund, { ...ref, proposalId }, tokens.finance);
    expect(executed.body.data.status).toBe('refunding');
    const wechat = executed.body.data.refunds.find((r) => r.channel === 'wechat');
    expect(wechat).toMatchObject({ status: 'pending', wechatStatus: 'requested' });

    const first = await admin.call(api.retryRefund, ref, tokens.finance);
    expect(first.body.data.refunds.find((r) => r.channel === 'wechat')?.wechatStatus).toBe('PROCESSING');
    await sim.idle();
    const second = await admin.call(api.retryRefund, ref, tokens.finance);
    expect(second.body.data.status).toBe('refunded');
    const again = await admin.call(api.retryRefund, ref, tokens.finance);
    expect(again.body.msg).toBe(AFTER_SALE_CONSOLE_MSG.noRetry);
    const refunds = await t.db.select().from(afterSaleRefund).where(eq(afterSaleRefund.channel, 'wechat'));
    expect(refunds.filter((r) => r.outRefundNo === wechat?.outRefundNo)).toHaveLength(1);
    expect(await audits('aftersale.refund.retry', ref.afterSaleNo)).toHaveLength(2);
  });

  it('receives an exchange, reships it and completes it', async () => {
    const ref = await openCase('exchange');
    await admin.call(api.approve, ref, tokens.op719);
    await member('delivery', { afterSaleNo: ref.afterSaleNo, company: '中通快递', trackingNo: 'ZT12345678' });
    const received = await admin.call(api.receive, ref, tokens.op719);
    expect(received.body.data).toMatchObject({ status: 'returned', refundPreview: null });
    const bad = await admin.call(
      api.reship,
      { ...ref, company: '中通快递', trackingNo: '中文' },
      tokens.op719,
    );
    expect(bad.body.code).toBe(500);
    const reshipped = await admin.call(
      api.reship,
      { ...ref, company: '中通快递', trackingNo: 'ZT87654321' },
      tokens.op719,
    );
    expect(reshipped.body.data.reshipParcel).toMatchObject({ trackingNo: 'ZT87654321' });
    const done = await admin.call(api.completeExchange, ref, tokens.op719);
    expect(done.body.data.status).toBe('completed');
  });
});
