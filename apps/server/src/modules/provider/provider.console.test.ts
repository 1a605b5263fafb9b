import {
  ADMIN_MSG,
  adminProviderApi as api,
  orderApi,
  PROVIDER_ADMIN_MSG,
  type ProviderSubmitResult,
  topupApi,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chinaTime } from '../../lib/china-time';
import type { ProviderSimulator } from '../../simulators/provider';
import { PROVIDER_TEST_TIMEOUT_MS, type TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { mallOrder } from '../order/order.tables';
import { getBalance } from '../points/points.service';
import { providerCode, providerOrder, providerReconciliation } from './provider.tables';
import { reconcileYesterday } from './provider-admin';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let sim: ProviderSimulator;
let me: { id: number; token: string };
let tokens: Record<string, string>;
const SITE = 719;
const today = () => chinaTime(new Date(), 'YYYY-MM-DD');
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const rowOf = async (orderNo: string) =>
  (await t.db.select().from(providerOrder).where(eq(providerOrder.orderNo, orderNo)))[0];
const orderStatus = async (orderNo: string) =>
  (await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo)))[0]?.status;
const auditsOf = (action: string, entityId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));

/** A paid top-up whose issue went unanswered (issuing, sent once): what operators act on. */
async function stuckTopup(amount = 10, phone = '13800138000') {
  const res = await client(t).post<ProviderSubmitResult>(
    topupApi.submit.path,
    { siteId: SITE, phone, amount },
    me.token,
  );
  const { orderNo } = res.body.data;
  await client(t).post(orderApi.payOrder.path, { siteId: SITE, orderNo, payWay: 'ye' }, me.token);
  sim.fail('topup', 'timeout');
  expect((await t.app.providers.work()).retried).toBe(1);
  sim.releaseHeld();
  const row = await rowOf(orderNo);
  expect(row).toMatchObject({ status: 'issuing', attempts: 1 });
  return { orderNo, row: row as NonNullable<typeof row> };
}

/** A top-up issued at once. */
async function issuedTopup(amount = 20) {
  const res = await client(t).post<ProviderSubmitResult>(
    topupApi.submit.path,
    { siteId: SITE, phone: '13900139000', amount },
    me.token,
  );
  const { orderNo } = res.body.data;
  await client(t).post(orderApi.payOrder.path, { siteId: SITE, orderNo, payWay: 'ye' }, me.token);
  expect((await t.app.providers.work()).issued).toBe(1);
  return { orderNo, row: (await rowOf(orderNo)) as NonNullable<Awaited<ReturnType<typeof rowOf>>> };
}

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp({
    providerTimeoutMs: PROVIDER_TEST_TIMEOUT_MS,
    providerIssueOnPay: false,
  }));
  sim = t.app.providers.simulator as ProviderSimulator;
  me = await buyer(t, SITE, 1_000_000);
});
afterEach(() => sim.releaseHeld());
afterAll(() => t.close());

describe('provider orders in the console', () => {
  it('lists by state, kind, order number and day; detail shows the attempts; scope per operator', async () => {
    const { orderNo, row } = await stuckTopup();
    const list = await admin.call(api.orders, { siteId: SITE, needsAction: true }, tokens.op719);
    expect(list.body.data.list.map((r) => r.orderNo)).toContain(orderNo);
    const found = list.body.data.list.find((r) => r.orderNo === orderNo);
    expect(found).toMatchObject({
      status: 'issuing',
      statusName: '出票中',
      needsAction: true,
      kind: 'topup',
    });
    expect(found?.lastError).toMatch(/no answer/);
    expect(JSON.stringify(list.body.data)).not.toContain('13800138000');
    const byNo = await admin.call(
      api.orders,
      { orderNo, kind: 'topup', from: today(), to: today() },
      tokens.admin,
    );
    expect(byNo.body.data).toMatchObject({ total: 1 });
    const tomorrow = chinaTime(later(24 * 60), 'YYYY-MM-DD');
    expect((await admin.call(api.orders, { orderNo, from: tomorrow }, tokens.admin)).body.data.total).toBe(0);
    expect((await admin.call(api.orders, { status: 'issued', orderNo }, tokens.admin)).body.data.total).toBe(
      0,
    );

    // Read: admin, op719 (its site), finance (all sites), cs10110 only its own site.
    for (const who of ['admin', 'op719', 'finance'])
      expect((await admin.call(api.order, { siteId: SITE, id: row.id }, tokens[who])).body.code).toBe(200);
    expect((await admin.call(api.order, { siteId: SITE, id: row.id }, tokens.cs10110)).body.code).toBe(403);
    expect((await admin.call(api.orders, { siteId: SITE }, tokens.cs10110)).body.code).toBe(403);
    const own = await admin.call(api.orders, {}, tokens.cs10110);
    expect(own.body.data.list.every((r) => r.siteId === 10110)).toBe(true);
    expect((await admin.call(api.orders, {}, undefined)).body.code).toBe(401);

    const detail = await admin.call(api.order, { siteId: SITE, id: row.id }, tokens.finance);
    expect(detail.body.data).toMatchObject({ payAmount: 1000, orderStatus: 24 });
    expect(detail.body.data.attemptLog).toEqual([
      expect.objectContaining({ action: 'issue', outcome: 'retried', operatorName: null }),
    ]);
    const other = await admin.call(api.order, { siteId: 10110, id: row.id }, tokens.admin);
    expect(other.body.msg).toBe(PROVIDER_ADMIN_MSG.notFound);
  });

  it('retry: manage only, a reason required, audited; sends with the same id and issues', async () => {
    const { orderNo, row } = await stuckTopup(30);
    const body = { siteId: SITE, id: row.id, reason: '服务商已恢复' };
    expect((await admin.call(api.retry, body, tokens.finance)).body.code).toBe(403);
    expect((await admin.call(api.retry, body, tokens.cs10110)).body.code).toBe(403);
    const noReason = await admin.call(api.retry, { ...body, reason: ' ' }, tokens.op719);
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const done = await admin.call(api.retry, body, tokens.op719);
    expect(done.body).toMatchObject({ code: 200, msg: '已重新出票成功', data: { status: 'issued' } });
    expect(done.body.data.attemptLog.at(-1)).toMatchObject({
      action: 'retry',
      outcome: 'issued',
      operatorName: '汇通运营',
    });
    expect(done.body.data.maskedCodes[0]).toMatch(/^TP\*+/);
    expect(await orderStatus(orderNo)).toBe(23);
    const [audit] = await auditsOf('provider.retry', String(row.id));
    expect(audit).toMatchObject({ reason: '服务商已恢复', before: { status: 'issuing', attempts: 1 } });
    const again = await admin.call(api.retry, body, tokens.admin);
    expect(again.body.msg).toBe(PROVIDER_ADMIN_MSG.notIssuing);
  });

  it('two tabs retry at once: one claim, one send, one audit row', async () => {
    const { orderNo, row } = await stuckTopup(50, '13800138002');
    const body = { siteId: SITE, id: row.id, reason: '重试' };
    const both = await Promise.all([
      admin.call(api.retry, body, tokens.op719),
      admin.call(api.retry, body, tokens.admin),
    ]);
    expect(both.map((a) => a.body.code).sort()).toEqual([200, 500]);
    const lost = both.find((a) => a.body.code !== 200);
    expect([PROVIDER_ADMIN_MSG.busy, PROVIDER_ADMIN_MSG.notIssuing]).toContain(lost?.body.msg);
    expect(sim.record(row.providerReqId)?.requests).toBe(1);
    expect(sim.statement().filter((s) => s.reqId === row.providerReqId)).toHaveLength(1);
    expect(await rowOf(orderNo)).toMatchObject({ status: 'issued', attempts: 2 });
    expect(await auditsOf('provider.retry', String(row.id))).toHaveLength(1);
  });

  it('refund: cancelled at the provider first, then refunded once (two tabs), audited', async () => {
    const before = await getBalance(t, { siteId: SITE, memberId: me.id });
    const { orderNo, row } = await stuckTopup(100, '13800138003');
    const body = { siteId: SITE, id: row.id, reason: '会员要求退款' };
    expect((await admin.call(api.refund, body, tokens.finance)).body.code).toBe(403);
    const both = await Promise.all([
      admin.call(api.refund, body, tokens.op719),
      admin.call(api.refund, body, tokens.admin),
    ]);
    expect(both.map((a) => a.body.code).sort()).toEqual([200, 500]);
    expect(sim.record(row.providerReqId)?.state).toBe('cancelled');
    expect(await orderStatus(orderNo)).toBe(51);
    expect(await getBalance(t, { siteId: SITE, memberId: me.id })).toBe(before);
    expect(await auditsOf('provider.refund', String(row.id))).toHaveLength(1);
    const detail = await admin.call(api.order, { siteId: SITE, id: row.id }, tokens.admin);
    expect(detail.body.data.attemptLog.at(-1)).toMatchObject({ action: 'refund', outcome: 'failed' });
    // The worker later finds nothing to send: the row is settled.
    expect((await t.app.providers.work(later(60))).retried).toBe(0);
  });

  it('refund refused when the provider had issued after all: the ticket is kept, nothing refunded', async () => {
    const res = await client(t).post<ProviderSubmitResult>(
      topupApi.submit.path,
      { siteId: SITE, phone: '13800138004', amount: 10 },
      me.token,
    );
    const { orderNo } = res.body.data;
    await client(t).post(orderApi.payOrder.path, { siteId: SITE, orderNo, payWay: 'ye' }, me.token);
    sim.fail('topup', 'late');
    await t.app.providers.work();
    const row = (await rowOf(orderNo)) as NonNullable<Awaited<ReturnType<typeof rowOf>>>;
    const refused = await admin.call(api.refund, { siteId: SITE, id: row.id, reason: '退款' }, tokens.op719);
    expect(refused.body.msg).toBe(PROVIDER_ADMIN_MSG.alreadyIssued);
    expect(await orderStatus(orderNo)).toBe(23);
    expect(await auditsOf('provider.refund', String(row.id))).toHaveLength(0);
  });
});

describe('e-code stock import', () => {
  const SPEC = 990_001;
  const body = (text: string, over: Record<string, unknown> = {}) => ({
    siteId: SITE,
    specificationId: SPEC,
    fileName: 'codes.csv',
    text,
    reason: '补充库存',
    ...over,
  });

  it('imports sealed codes with a report per line; duplicates refused by the unique key', async () => {
    const csv = '电子码\r\nECA0000001\nECA0000002\nECA0000001\n\nbad code\n"ECA0000003",x\n';
    expect((await admin.call(api.importCodes, body(csv), tokens.finance)).body.code).toBe(403);
    expect((await admin.call(api.importCodes, body(csv), tokens.cs10110)).body.code).toBe(403);
    expect((await admin.call(api.importCodes, body(csv, { siteId: 10110 }), tokens.op719)).body.code).toBe(
      403,
    );
    const noReason = await admin.call(api.importCodes, body(csv, { reason: '' }), tokens.op719);
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const first = await admin.call(api.importCodes, body(csv), tokens.op719);
    expect(first.body.data).toMatchObject({ added: 3, duplicates: 1, invalid: 1, available: 3 });
    expect(first.body.data.rows.map((r) => [r.line, r.result])).toEqual([
      [2, 'added'],
      [3, 'added'],
      [4, 'repeated'],
      [6, 'invalid'],
      [7, 'added'],
    ]);
    expect(first.body.data.rows[0]?.maskedCode).toBe('EC******01');
    const again = await admin.call(api.importCodes, body('ECA0000002\nECA0000009'), tokens.admin);
    expect(again.body.data).toMatchObject({ added: 1, duplicates: 1, available: 4 });
    expect(again.body.data.rows[0]).toMatchObject({ result: 'duplicate', msg: '库存中已有该电子码' });
    const stored = await t.db.select().from(providerCode).where(eq(providerCode.specificationId, SPEC));
    expect(stored).toHaveLength(4);
    for (const s of stored) expect(s.codeSealed).not.toContain('ECA');
    const [audit] = await auditsOf('provider.codes.import', String(SPEC));
    expect(audit).toMatchObject({ reason: '补充库存', after: { fileName: 'codes.csv', added: 3 } });
    const empty = await admin.call(api.importCodes, body('code\n\n'), tokens.op719);
    expect(empty.body).toMatchObject({ code: 400, msg: PROVIDER_ADMIN_MSG.noCodes });
  });

  it('parallel imports of one file load each code once', async () => {
    const csv = Array.from({ length: 40 }, (_, i) => `ECP${String(i).padStart(6, '0')}`).join('\n');
    const both = await Promise.all([
      admin.call(api.importCodes, body(csv, { specificationId: SPEC + 1 }), tokens.op719),
      admin.call(api.importCodes, body(csv, { specificationId: SPEC + 1 }), tokens.admin),
    ]);
    expect(both.map((a) => a.body.data.added).reduce((a, b) => a + b, 0)).toBe(40);
  });

  it('shows the stock per goods within the scope', async () => {
    const stock = await admin.call(api.codeStock, { siteId: SITE }, tokens.op719);
    expect(stock.body.data.list).toContainEqual(
      expect.objectContaining({ specificationId: SPEC, total: 4, available: 4, assigned: 0 }),
    );
    expect((await admin.call(api.codeStock, {}, tokens.admin)).body.code).toBe(200);
    expect((await admin.call(api.codeStock, {}, tokens.finance)).body.code).toBe(403);
    expect((await admin.call(api.codeStock, {}, tokens.cs10110)).body.code).toBe(403);
  });
});

describe('daily reconciliation', () => {
  it('matched, missing on either side, amount differs; one row per day and provider; re-runnable', async () => {
    const matched = await issuedTopup(20);
    const hidden = await issuedTopup(30);
    const differs = await issuedTopup(50);
    sim.alterStatement(hidden.row.providerReqId, { hidden: true });
    sim.alterStatement(differs.row.providerReqId, { amount: 4_900 });
    // Issued at the provider, but our row is still waiting (we never heard the answer).
    const { row: unheard } = await stuckTopup(10, '13800138005');
    await t.app.providers.deps.topup.issue({
      reqId: unheard.providerReqId,
      phone: '13800138005',
      faceValue: 10,
    });

    const body = { day: today(), reason: '每日核对' };
    for (const who of ['op719', 'cs10110'])
      expect((await admin.call(api.reconcile, body, tokens[who])).body.code).toBe(403);
    expect((await admin.call(api.reconciliations, {}, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(api.reconcile, { ...body, reason: '' }, tokens.finance)).body.msg).toBe(
      ADMIN_MSG.reasonRequired,
    );
    const future = chinaTime(later(48 * 60), 'YYYY-MM-DD');
    expect((await admin.call(api.reconcile, { ...body, day: future }, tokens.finance)).body.msg).toBe(
      PROVIDER_ADMIN_MSG.badDay,
    );
    const run = await admin.call(api.reconcile, body, tokens.finance);
    expect(run.body.code).toBe(200);
    const topup = run.body.data.find((r) => r.provider === 'topup');
    const kindOf = (reqId: string) => topup?.items.find((i) => i.reqId === reqId)?.kind;
    expect(kindOf(matched.row.providerReqId)).toBeUndefined();
    expect(kindOf(hidden.row.providerReqId)).toBe('missingTheirs');
    expect(kindOf(differs.row.providerReqId)).toBe('amountDiffers');
    expect(kindOf(unheard.providerReqId)).toBe('missingOurs');
    expect(topup?.items.find((i) => i.reqId === differs.row.providerReqId)).toMatchObject({
      ourAmount: 5_000,
      theirAmount: 4_900,
      orderNo: differs.orderNo,
    });
    expect(topup?.matched).toBeGreaterThanOrEqual(1);
    expect(topup).toMatchObject({ missingTheirs: 1, amountDiffers: 1, missingOurs: 1, ranBy: '财务复核' });

    // Again (the button twice, or in parallel): still one row per day and provider, same counts.
    const twice = await Promise.all([
      admin.call(api.reconcile, body, tokens.finance),
      admin.call(api.reconcile, body, tokens.admin),
    ]);
    expect(twice.map((a) => a.body.code)).toEqual([200, 200]);
    const rows = await t.db
      .select()
      .from(providerReconciliation)
      .where(eq(providerReconciliation.day, today()));
    expect(rows.map((r) => r.provider).sort()).toEqual(['cinema', 'topup']);
    expect(rows.find((r) => r.provider === 'topup')).toMatchObject({
      missingTheirs: 1,
      amountDiffers: 1,
      missingOurs: 1,
    });
    expect(await auditsOf('provider.reconcile', today())).toHaveLength(3);

    const listed = await admin.call(api.reconciliations, { day: today() }, tokens.finance);
    expect(listed.body.data.total).toBe(2);
    expect((await admin.call(api.reconciliations, {}, tokens.admin)).body.code).toBe(200);
  });

  it('the daily job reconciles yesterday once', async () => {
    const tomorrow = chinaTime(later(24 * 60), 'YYYY-MM-DD');
    const dayAfter = later(48 * 60);
    const first = await reconcileYesterday(t.db, t.app.providers.deps.statement, dayAfter);
    expect(first.map((r) => r.day)).toEqual([tomorrow, tomorrow]);
    expect(first.every((r) => r.operatorId === null)).toBe(true);
    expect(await reconcileYesterday(t.db, t.app.providers.deps.statement, dayAfter)).toEqual([]);
    const listed = await admin.call(api.reconciliations, { day: tomorrow }, tokens.finance);
    expect(listed.body.data.list[0]?.ranBy).toBe('每日任务');
  });
});
