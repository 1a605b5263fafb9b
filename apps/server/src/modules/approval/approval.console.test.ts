import {
  ADMIN_MSG,
  adminApprovalApi as api,
  orderApi,
  type PayResult,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { type Shopper, shopper } from '../aftersale/aftersale.fixtures';
import { client } from '../identity/identity.fixtures';
import { lineOf, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { setMemberLevel } from '../vip/vip.service';
import { vipLevel } from '../vip/vip.tables';
import { APPROVAL_MSG, type ApprovalRule, ruleMatches } from './approval.service';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let me: Shopper;
let spec: PickedSpec;
let tokens: Record<string, string>;

const submit = async (num: number) => {
  const answer = await client(t).post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    { siteId: 719, productInfos: [lineOf(spec, num)] },
    me.token,
  );
  expect(answer.body.code).toBe(200);
  return answer.body.data;
};
const rule = (over: Record<string, unknown> = {}) => ({
  siteId: 719,
  isEnabled: true,
  minAmount: spec.price * 3,
  minQty: null,
  sources: [],
  vipLevelIds: [],
  levels: 1 as const,
  expireHours: 48,
  reason: '大额订单须审批',
  ...over,
});

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
  me = await shopper(t, 719);
  [spec] = (await pickSpecs(t.db, 719, { stock: 200 })) as [PickedSpec];
});
afterAll(() => t.close());

describe('approval rule matching', () => {
  const base: ApprovalRule = {
    siteId: 1,
    isEnabled: true,
    minAmount: 10_000,
    minQty: 5,
    sources: [26],
    vipLevelIds: [],
    levels: 1,
    expireHours: 48,
    updatedAt: new Date(),
  };
  it.each([
    ['amount reached', {}, { payAmount: 10_000 }, true],
    ['below everything', {}, { payAmount: 9_999, qty: 4, sources: [1] }, false],
    ['pieces reached', {}, { payAmount: 1, qty: 5 }, true],
    ['a listed source', {}, { payAmount: 1, qty: 1, sources: [1, 26] }, true],
    ['member outside the groups', { vipLevelIds: [3] }, { payAmount: 99_999, vipLevelId: 4 }, false],
    ['member without a level, groups listed', { vipLevelIds: [3] }, { payAmount: 99_999 }, false],
    ['member in a group', { vipLevelIds: [3] }, { payAmount: 99_999, vipLevelId: 3 }, true],
    ['disabled', { isEnabled: false }, { payAmount: 99_999 }, false],
  ])('%s', (_, over, order, expected) => {
    expect(ruleMatches({ ...base, ...over }, { siteId: 1, ...order })).toBe(expected);
  });
});

describe('approval rule in the console', () => {
  it('saves with a reason and an audit row; another site’s operator gets 403', async () => {
    const empty = await admin.call(api.rule, { siteId: 719 }, tokens.op719);
    expect(empty.body.data).toMatchObject({ isEnabled: false, levels: 1, updatedAt: null });
    const noReason = await admin.call(api.saveRule, rule({ reason: '' }), tokens.op719);
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    expect((await admin.call(api.saveRule, rule(), tokens.cs10110)).body.code).toBe(403);
    expect((await admin.call(api.saveRule, rule(), tokens.finance)).body.code).toBe(403);
    const saved = await admin.call(api.saveRule, rule({ sources: [26, 1, 26] }), tokens.op719);
    expect(saved.body.data).toMatchObject({ isEnabled: true, minAmount: spec.price * 3, sources: [1, 26] });
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'approval.rule'), eq(auditLog.siteId, 719)));
    expect(row).toMatchObject({
      before: null,
      after: { minAmount: spec.price * 3 },
      reason: '大额订单须审批',
    });
    const bad = await admin.call(api.saveRule, { ...rule(), minAmount: -1 }, tokens.op719);
    expect(bad.body.code).toBe(400);
  });
});

describe('approval queue', () => {
  it('holds an order over the amount in 11 until approved, then the member pays', async () => {
    await admin.call(api.saveRule, rule(), tokens.op719);
    const big = await submit(3);
    expect(big.status).toBe(11);
    const queue = await admin.call(api.queue, { siteId: 719 }, tokens.op719);
    expect(queue.body.data.list.map((o) => o.orderNo)).toContain(big.orderNo);
    expect((await admin.call(api.queue, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
    const approved = await admin.call(
      api.approve,
      { siteId: 719, orderNo: big.orderNo, status: 11 },
      tokens.op719,
    );
    expect(approved.body.data).toMatchObject({ status: 15 });
    expect(approved.body.data.timeline.at(-1)?.note).toMatch(/审批通过，待付款（汇通运营/);
    const paid = await client(t).post<PayResult>(
      orderApi.payOrder.path,
      { siteId: 719, orderNo: big.orderNo, payWay: 'ye' },
      me.token,
    );
    expect(paid.body.data).toMatchObject({ isPaid: true, status: 24 });
  });

  it('a rule for member groups holds the orders of members in them only', async () => {
    const [gold] = await t.db
      .select()
      .from(vipLevel)
      .where(and(eq(vipLevel.siteId, 719), eq(vipLevel.name, '金卡会员')));
    await admin.call(api.saveRule, rule({ minAmount: 0, vipLevelIds: [gold!.id] }), tokens.op719);
    const setLevel = (levelId: number | null) =>
      setMemberLevel(t.db, {
        siteId: 719,
        memberId: me.id,
        levelId,
        source: 'manual',
        actor: 't',
        reason: 't',
      });
    expect((await submit(1)).status).toBe(0);
    await setLevel(gold!.id);
    try {
      expect((await submit(1)).status).toBe(11);
    } finally {
      await setLevel(null);
    }
    expect((await submit(1)).status).toBe(0);
  });

  it('rejects with a reason only (→ 21); pieces alone can require approval', async () => {
    await admin.call(api.saveRule, rule({ minAmount: 2_000_000_000, minQty: 2 }), tokens.op719);
    expect((await submit(1)).status).toBe(0);
    const two = await submit(2);
    expect(two.status).toBe(11);
    const noReason = await admin.call(
      api.reject,
      { siteId: 719, orderNo: two.orderNo, reason: ' ' },
      tokens.op719,
    );
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const rejected = await admin.call(
      api.reject,
      { siteId: 719, orderNo: two.orderNo, reason: '超出部门预算' },
      tokens.op719,
    );
    expect(rejected.body.data).toMatchObject({ status: 21 });
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'approval.reject'), eq(auditLog.entityId, two.orderNo)));
    expect(row).toMatchObject({ before: { status: 11 }, after: { status: 21 }, reason: '超出部门预算' });
  });

  it('two levels: 11 → 12 → 15 by two people; a double click passes one level only', async () => {
    await admin.call(api.saveRule, rule({ levels: 2 }), tokens.op719);
    const big = await submit(3);
    const first = { siteId: 719, orderNo: big.orderNo, status: 11 as const };
    const both = await Promise.all([
      admin.call(api.approve, first, tokens.op719),
      admin.call(api.approve, first, tokens.op719),
    ]);
    expect(both.map((a) => a.body.code).sort()).toEqual([200, 500]);
    const second = await admin.call(api.queue, { siteId: 719, status: 12 }, tokens.admin);
    expect(second.body.data.list.map((o) => o.orderNo)).toEqual([big.orderNo]);
    const final = { ...first, status: 12 as const };
    const same = await admin.call(api.approve, final, tokens.op719);
    expect(same.body).toMatchObject({ code: 403, msg: APPROVAL_MSG.sameApprover });
    const last = await admin.call(api.approve, final, tokens.admin);
    expect(last.body.data.status).toBe(15);
  });
});
