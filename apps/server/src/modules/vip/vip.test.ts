import {
  addressApi,
  type ClaimResult,
  type MemberVip,
  orderApi,
  type PayResult,
  type SubmitOrderResult,
  type VipTotalDiscount,
  vipApi,
  voucherApi,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, lineOf, NANJING, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { mallOrder, orderLine } from '../order/order.tables';
import { makeTemplate } from '../voucher/voucher.fixtures';
import { setMemberLevel } from './vip.service';
import { memberVipLog, vipLevel } from './vip.tables';

/** VIP levels and member prices through the API on the real database. */
let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;
let gold: number;

const levelOf = (token: string) => api.post<MemberVip>(vipApi.level.path, { siteId: 719 }, token);
const totalOf = async (token: string) =>
  (await api.post<VipTotalDiscount>(vipApi.totalDiscount.path, { siteId: 719 }, token)).body.data
    .totalDiscount;
const submit = (token: string, num: number, accVoucherIds?: number[]) =>
  api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      productInfos: [lineOf(spec, num)],
      ...(accVoucherIds ? { accVoucherIds } : {}),
    },
    token,
  );
const pay = (token: string, orderNo: string) =>
  api.post<PayResult>(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'ye' }, token);

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  spec = (await pickSpecs(t.db, 719, { stock: 500 }))[0] as PickedSpec;
  const [row] = await t.db
    .select()
    .from(vipLevel)
    .where(and(eq(vipLevel.siteId, 719), eq(vipLevel.name, '金卡会员')));
  gold = row!.id;
});
afterAll(() => t.close());

/** Sets the member's level by hand, as an operator would. */
const setLevel = (memberId: number, levelId: number | null) =>
  setMemberLevel(t.db, { siteId: 719, memberId, levelId, source: 'manual', actor: 't', reason: 't' });

/** Gives the member the gold level as a partner login would, ended a second ago. */
const endedLevel = (memberId: number) =>
  setMemberLevel(t.db, {
    siteId: 719,
    memberId,
    levelId: gold,
    source: 'partner',
    expiresAt: new Date(Date.now() - 1000),
    actor: 'partner',
    reason: '登录同步',
  });

async function vipBuyer() {
  const b = await buyer(t, 719, 100_000_000);
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
  return b;
}

describe('VIP levels and member prices', () => {
  it('answers no level, then the level set, then none once it ended', async () => {
    const b = await vipBuyer();
    const none = await levelOf(b.token);
    expect(none.body.data).toMatchObject({ level: null, source: null });
    expect(none.body.data.levels.map((l) => l.name)).toEqual(['银卡会员', '金卡会员', '白金会员']);
    await setMemberLevel(t.db, {
      siteId: 719,
      memberId: b.id,
      levelId: gold,
      source: 'manual',
      actor: 'test',
      reason: '测试',
    });
    expect((await levelOf(b.token)).body.data).toMatchObject({
      level: { name: '金卡会员', discountPct: 5 },
      source: 'manual',
    });
    await endedLevel(b.id);
    expect((await levelOf(b.token)).body.data.level).toBeNull();
    const log = await t.db.select().from(memberVipLog).where(eq(memberVipLog.memberId, b.id));
    expect(log.map((l) => [l.fromLevel, l.toLevel])).toEqual([
      [null, gold],
      [gold, gold],
    ]);
    const [other] = await t.db.select().from(vipLevel).where(eq(vipLevel.siteId, 1000));
    await expect(
      setMemberLevel(t.db, {
        siteId: 719,
        memberId: b.id,
        levelId: other!.id,
        source: 'manual',
        actor: 'test',
        reason: 'x',
      }),
    ).rejects.toThrow('会员等级不存在');
  });

  it('prices the order at the member price, freezes the saving per line, and sums it once paid', async () => {
    const b = await vipBuyer();
    await setLevel(b.id, gold);
    const unit = spec.price - Math.floor((spec.price * 5) / 100);
    const { orderNo, payAmount } = (await submit(b.token, 3)).body.data;
    const [order] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo));
    expect(order!.goodsAmount).toBe(unit * 3);
    expect(payAmount).toBe(unit * 3 + order!.freightAmount);
    const [saved] = await t.db.select().from(orderLine).where(eq(orderLine.orderId, order!.id));
    expect(saved).toMatchObject({ price: unit, amount: unit * 3, vipSaving: (spec.price - unit) * 3 });
    // Unpaid orders do not count; paid ones do, at the frozen saving even if the level changes.
    expect(await totalOf(b.token)).toBe(0);
    expect((await pay(b.token, orderNo)).body.data.isPaid).toBe(true);
    await setLevel(b.id, null);
    expect(await totalOf(b.token)).toBe((spec.price - unit) * 3);
    // Without a level the list price again.
    const goodsOf = async (orderNo: string) =>
      (await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo)))[0]!.goodsAmount;
    expect(await goodsOf((await submit(b.token, 1)).body.data.orderNo)).toBe(spec.price);
    // A level that has ended, or one the site no longer uses, prices at the list price too.
    await endedLevel(b.id);
    expect(await goodsOf((await submit(b.token, 1)).body.data.orderNo)).toBe(spec.price);
    await setLevel(b.id, gold);
    expect(await goodsOf((await submit(b.token, 1)).body.data.orderNo)).toBe(unit);
    await t.db.update(vipLevel).set({ status: 'inactive' }).where(eq(vipLevel.id, gold));
    try {
      expect(await goodsOf((await submit(b.token, 1)).body.data.orderNo)).toBe(spec.price);
    } finally {
      await t.db.update(vipLevel).set({ status: 'active' }).where(eq(vipLevel.id, gold));
    }
  });

  it('takes vouchers off the member price, not the list price', async () => {
    const b = await vipBuyer();
    await setLevel(b.id, gold);
    const tpl = await makeTemplate(t.db, { kind: 'percent', value: 10 });
    const claimed = await api.post<ClaimResult>(
      voucherApi.claim.path,
      { siteId: 719, templateId: tpl },
      b.token,
    );
    const id = claimed.body.data.voucher.id;
    const unit = spec.price - Math.floor((spec.price * 5) / 100);
    const preview = await api.post<{ saving: number; lines: { amount: number }[] }>(
      voucherApi.available.path,
      {
        siteId: 719,
        productInfos: [lineOf(spec, 2)],
      },
      b.token,
    );
    expect(preview.body.data.lines[0]?.amount).toBe(unit * 2);
    expect(preview.body.data.saving).toBe(Math.floor((unit * 2 * 10) / 100));
    const { orderNo } = (await submit(b.token, 2, [id])).body.data;
    const [order] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo));
    expect(order!.voucherAmount).toBe(preview.body.data.saving);
  });
});
