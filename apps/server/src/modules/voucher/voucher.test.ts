import {
  type Available,
  addressApi,
  type CenterTemplate,
  type ClaimResult,
  cartApi,
  ORDER_STATUS,
  type OrderDetail,
  orderApi,
  type PayResult,
  type SubmitOrderResult,
  VOUCHER_MSG,
  type VoucherCount,
  type VoucherPage,
  type VoucherProducts,
  voucherApi,
} from '@sitemall/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { expireOrders } from '../order/expiry';
import { buyer, lineOf, NANJING, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { mallOrder, orderLine } from '../order/order.tables';
import { getBalance } from '../points/points.service';
import { makeTemplate } from './voucher.fixtures';
import { expireVouchers } from './voucher.service';
import { promotionBudget, voucher, voucherEvent } from './voucher.tables';

/** Vouchers through the API on the real database: every endpoint, the checkout, the ledgers. */
let t: TestApp;
let api: ReturnType<typeof client>;
let me: { id: number; token: string };
let other: { id: number; token: string };
let specs: PickedSpec[];

const post = <T>(e: { path: string }, payload: object, token = me.token) =>
  api.post<T>(e.path, { siteId: 719, ...payload }, token);
const claim = (templateId: number, token = me.token) =>
  post<ClaimResult>(voucherApi.claim, { templateId }, token);
const submit = (lines: object[], accVoucherIds?: unknown, token = me.token) =>
  api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    { siteId: 719, productInfos: lines, ...(accVoucherIds === undefined ? {} : { accVoucherIds }) },
    token,
  );
const statusOf = async (id: number) =>
  (
    await t.db
      .select({ status: voucher.status, orderNo: voucher.orderNo })
      .from(voucher)
      .where(eq(voucher.id, id))
  )[0];
const eventsOf = (id: number) =>
  t.db.select().from(voucherEvent).where(eq(voucherEvent.voucherId, id)).orderBy(asc(voucherEvent.id));

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719, 10_000_000);
  other = await buyer(t, 719, 10_000_000);
  for (const b of [me, other]) await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
  specs = await pickSpecs(t.db, 719, { count: 3, stock: 500 });
});
afterAll(() => t.close());

describe('voucher centre, claim, code, tabs', () => {
  it('lists the demo templates to visitors and members, and claims within the per-member limit', async () => {
    const visitor = await api.post<{ list: CenterTemplate[] }>(voucherApi.center.path, { siteId: 719 });
    expect(visitor.body.code).toBe(200);
    const names = visitor.body.data.list.map((c) => c.name);
    expect(names).toContain('新人专享券');
    expect(names).not.toContain('兑换码专享券');
    const first = visitor.body.data.list.find((c) => c.name === '新人专享券') as CenterTemplate;
    expect(first).toMatchObject({
      title: '满50减10',
      scopeText: '全场通用',
      claimed: 0,
      canClaim: true,
      perMemberLimit: 1,
    });

    const got = await claim(first.templateId);
    expect(got.body).toMatchObject({ code: 200, msg: VOUCHER_MSG.claimed });
    expect(got.body.data.voucher).toMatchObject({
      status: 'unused',
      statusName: '未使用',
      templateId: first.templateId,
    });
    const again = await claim(first.templateId);
    expect(again.body).toMatchObject({ code: 500, msg: VOUCHER_MSG.perMemberLimit });
    const centre = await post<{ list: CenterTemplate[] }>(voucherApi.center, {});
    expect(centre.body.data.list.find((c) => c.templateId === first.templateId)).toMatchObject({
      claimed: 1,
      canClaim: false,
    });
    // Vouchers of another site's template are not claimable here.
    const foreign = await makeTemplate(t.db, { siteId: 1000 });
    expect((await claim(foreign)).body.msg).toBe(VOUCHER_MSG.notClaimable);
    // Claims need a member.
    expect(
      (await api.post(voucherApi.claim.path, { siteId: 719, templateId: first.templateId })).body.code,
    ).not.toBe(200);
  });

  it('refuses claims outside the window, of paused templates, once sold out, or over budget', async () => {
    const past = await makeTemplate(t.db, { claimTo: new Date(Date.now() - 1000) });
    expect((await claim(past)).body.msg).toBe(VOUCHER_MSG.notClaimable);
    const paused = await makeTemplate(t.db, { status: 'paused' });
    expect((await claim(paused)).body.msg).toBe(VOUCHER_MSG.notClaimable);
    const one = await makeTemplate(t.db, { totalLimit: 1 });
    expect((await claim(one)).body.code).toBe(200);
    expect((await claim(one, other.token)).body.msg).toBe(VOUCHER_MSG.soldOut);
    const [budget] = await t.db
      .insert(promotionBudget)
      .values({ siteId: 719, name: 'b', limitAmount: 1500 })
      .returning({ id: promotionBudget.id });
    const costly = await makeTemplate(t.db, { budgetId: budget?.id, value: 1000 });
    expect((await claim(costly)).body.code).toBe(200);
    expect((await claim(costly, other.token)).body.msg).toBe(VOUCHER_MSG.budgetOut);
    // The refused claim changed nothing: no counter, no voucher for the other member.
    const held = await t.db
      .select()
      .from(voucher)
      .where(and(eq(voucher.memberId, other.id), eq(voucher.templateId, costly)));
    expect(held).toHaveLength(0);
  });

  it('binds a code (any case), once; refuses an unknown code', async () => {
    const bad = await post(voucherApi.bind, { code: 'NOPE-0000' });
    expect(bad.body.msg).toBe(VOUCHER_MSG.badCode);
    const good = await post<ClaimResult>(voucherApi.bind, { code: ' welcome719 ' });
    expect(good.body).toMatchObject({ code: 200, msg: VOUCHER_MSG.claimed });
    expect(good.body.data.voucher.name).toBe('兑换码专享券');
    expect((await post(voucherApi.bind, { code: 'WELCOME719' })).body.msg).toBe(VOUCHER_MSG.perMemberLimit);
  });

  it('puts a reviewed claim in pending review', async () => {
    const centre = await post<{ list: CenterTemplate[] }>(voucherApi.center, {});
    const staff = centre.body.data.list.find((c) => c.name === '员工专享券') as CenterTemplate;
    const got = await claim(staff.templateId);
    expect(got.body).toMatchObject({ code: 200, msg: VOUCHER_MSG.pendingReview });
    const pending = await post<VoucherPage>(voucherApi.pendingReview, {});
    expect(pending.body.data.list.map((v) => v.templateId)).toEqual([staff.templateId]);
    expect(pending.body.data.list[0]?.statusName).toBe('待审核');
  });

  it("lists by tab, counts per tab, answers the use status, and never another member's", async () => {
    const unused = await post<VoucherPage>(voucherApi.find, { status: 'unused' });
    expect(unused.body.data.total).toBeGreaterThanOrEqual(3);
    expect(unused.body.data.pageSize).toBe(10);
    expect(unused.body.data.list.every((v) => v.status === 'unused')).toBe(true);
    const count = await post<VoucherCount>(voucherApi.count, {});
    expect(count.body.data.byStatus.find((s) => s.status === 'unused')?.count).toBe(unused.body.data.total);
    const id = unused.body.data.list[0]?.id as number;
    const status = await post(voucherApi.updateUseStatus, { id, status: 'used' });
    expect(status.body).toMatchObject({ code: 200, data: { id, status: 'unused' } });
    expect((await statusOf(id))?.status).toBe('unused');
    expect((await post(voucherApi.updateUseStatus, { id }, other.token)).body.msg).toBe(VOUCHER_MSG.notFound);
    expect(
      (await post<VoucherPage>(voucherApi.find, {}, other.token)).body.data.list.map((v) => v.id),
    ).not.toContain(id);
  });

  it('lists the products a template applies to', async () => {
    const tpl = await makeTemplate(t.db, {
      scope: { type: 'products', ids: [specs[0]!.productId, specs[1]!.productId] },
    });
    const page = await api.post<VoucherProducts>(voucherApi.products.path, { siteId: 719, templateId: tpl });
    expect(page.body.data.list.map((p) => p.productId).sort()).toEqual(
      [specs[0]!.productId, specs[1]!.productId].sort(),
    );
    const everything = await api.post<VoucherProducts>(voucherApi.products.path, {
      siteId: 719,
      templateId: 1,
    });
    expect(everything.body.data.total).toBeGreaterThan(2);
  });

  it('expires unused vouchers past their end (job), and shows them expired before it runs', async () => {
    const tpl = await makeTemplate(t.db, { validMode: 'days', validDays: 1 });
    const { id } = (await claim(tpl)).body.data.voucher;
    const later = new Date(Date.now() + 2 * 86_400_000);
    expect(await expireVouchers(t.db, later)).toBeGreaterThanOrEqual(1);
    expect((await statusOf(id))?.status).toBe('expired');
    expect((await eventsOf(id)).map((e) => e.toStatus)).toEqual(['unused', 'expired']);
    expect(await expireVouchers(t.db, later)).toBe(0);
  });
});

describe('checkout with vouchers', () => {
  it('shows usable vouchers with the best by default and the saving per line', async () => {
    const m = await buyer(t, 719, 1_000_000);
    const big = await makeTemplate(t.db, { value: 300, name: '立减3元' });
    const small = await makeTemplate(t.db, { value: 100, name: '立减1元' });
    const elsewhere = await makeTemplate(t.db, { scope: { type: 'products', ids: [999_999] } });
    const pts = await makeTemplate(t.db, { kind: 'points', value: 50, stackGroup: 'points' });
    const ids: number[] = [];
    for (const tpl of [big, small, elsewhere, pts])
      ids.push((await claim(tpl, m.token)).body.data.voucher.id);
    const lines = [lineOf(specs[0]!, 2), lineOf(specs[1]!)];
    const got = await post<Available>(voucherApi.available, { productInfos: lines }, m.token);
    expect(got.body.code).toBe(200);
    const a = got.body.data;
    expect(
      a.list
        .filter((v) => v.usable)
        .map((v) => v.id)
        .sort(),
    ).toEqual([ids[0], ids[1], ids[3]].sort());
    expect(a.list.find((v) => v.id === ids[2])?.reason).toBe(VOUCHER_MSG.outOfScope);
    expect(a.best).toEqual([ids[0], ids[3]]);
    expect(a.saving).toBe(350);
    expect(a.lines.reduce((s, l) => s + l.saving, 0)).toBe(350);
    expect(a.lines.map((l) => l.amount)).toEqual([specs[0]!.price * 2, specs[1]!.price]);
    const count = await post<{ count: number }>(voucherApi.availableCount, { productInfos: lines }, m.token);
    expect(count.body.data.count).toBe(3);
    const chosen = await post<Available>(
      voucherApi.available,
      { productInfos: lines, accVoucherIds: [ids[1]] },
      m.token,
    );
    expect(chosen.body.data).toMatchObject({ chosen: [ids[1]], saving: 100 });
    // The same answer for selected cart lines (cartIds), as the order submission takes them.
    const cart = await api.post<{ obj: { list: { id: number }[] } }>(
      cartApi.submitCart.path,
      { siteId: 719, productInfo: lines },
      m.token,
    );
    const cartIds = cart.body.data.obj.list.map((l) => l.id);
    const byCart = await post<Available>(voucherApi.available, { cartIds: cartIds.join(',') }, m.token);
    expect(byCart.body.data).toMatchObject({ best: a.best, saving: 350 });
    const twice = await post(
      voucherApi.available,
      { productInfos: lines, accVoucherIds: [ids[0], ids[1]] },
      m.token,
    );
    expect(twice.body.msg).toBe(VOUCHER_MSG.sameGroup);
  });

  it('submits with a voucher (saving frozen per line), pays, and the voucher is used', async () => {
    const m = await buyer(t, 719, 10_000_000);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, m.token);
    const tpl = await makeTemplate(t.db, { value: 1000 });
    const { id } = (await claim(tpl, m.token)).body.data.voucher;
    const lines = [lineOf(specs[0]!, 2), lineOf(specs[1]!)];
    const plain = (
      await api.post<{ goodsAmount: number; totalFare: number }>(
        orderApi.getFare.path,
        { siteId: 719, productInfos: lines },
        m.token,
      )
    ).body.data;
    const sub = await submit(lines, String(id), m.token);
    expect(sub.body.code).toBe(200);
    const { orderNo, payAmount } = sub.body.data;
    const [order] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo));
    expect(order?.voucherAmount).toBe(1000);
    expect(payAmount).toBe(order!.goodsAmount + order!.freightAmount - 1000);
    expect(order!.goodsAmount).toBe(plain.goodsAmount);
    const saved = await t.db.select().from(orderLine).where(eq(orderLine.orderId, order!.id));
    expect(saved.reduce((s, l) => s + l.voucherSaving, 0)).toBe(1000);
    expect(await statusOf(id)).toEqual({ status: 'locked', orderNo });
    // A locked voucher is no longer offered, nor accepted by a second order.
    expect((await submit(lines, [id], m.token)).body.msg).toBe(VOUCHER_MSG.unavailable);

    const before = await getBalance(t, { siteId: 719, memberId: m.id });
    const paid = await api.post<PayResult>(
      orderApi.payOrder.path,
      { siteId: 719, orderNo, payWay: 'ye', accVoucherIds: String(id) },
      m.token,
    );
    expect(paid.body.data.isPaid).toBe(true);
    expect(await getBalance(t, { siteId: 719, memberId: m.id })).toBe(before - payAmount);
    expect((await statusOf(id))?.status).toBe('used');
    expect((await eventsOf(id)).map((e) => [e.fromStatus, e.toStatus])).toEqual([
      [null, 'unused'],
      ['unused', 'locked'],
      ['locked', 'used'],
    ]);
    const usedTab = await post<VoucherPage>(voucherApi.find, { status: 'used' }, m.token);
    expect(usedTab.body.data.list[0]).toMatchObject({ id, orderNo, statusName: '已使用' });
  });

  it('a voucher of an order paid by WeChat is used once the notify pays it', async () => {
    const sim = t.app.payments.simulator as WechatpaySimulator;
    const tpl = await makeTemplate(t.db, { value: 100 });
    const { id } = (await claim(tpl)).body.data.voucher;
    const { orderNo } = (await submit([lineOf(specs[0]!)], [id])).body.data;
    const started = await api.post<PayResult>(
      orderApi.payOrder.path,
      { siteId: 719, orderNo, payWay: 'wx_pc' },
      me.token,
    );
    expect((await statusOf(id))?.status).toBe('locked');
    await sim.pay(started.body.data.wechat?.codeUrl as string);
    await sim.idle();
    expect(await statusOf(id)).toEqual({ status: 'used', orderNo });
  });

  it("refuses another member's voucher, one outside the lines, below threshold, or two of a group; nothing changes", async () => {
    const tpl = await makeTemplate(t.db);
    const { id: othersId } = (await claim(tpl, other.token)).body.data.voucher;
    const lines = [lineOf(specs[0]!)];
    const countOrders = async () =>
      (
        await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(mallOrder)
          .where(eq(mallOrder.memberId, me.id))
      )[0]?.n;
    const n = await countOrders();
    expect((await submit(lines, [othersId])).body.msg).toBe(VOUCHER_MSG.unavailable);
    const scoped = await makeTemplate(t.db, {
      name: '指定券',
      scope: { type: 'products', ids: [specs[2]!.productId] },
    });
    const { id: scopedId } = (await claim(scoped)).body.data.voucher;
    expect((await submit(lines, [scopedId])).body.msg).toBe(`指定券：${VOUCHER_MSG.outOfScope}`);
    const high = await makeTemplate(t.db, { name: '高门槛券', threshold: 99_999_999 });
    const { id: highId } = (await claim(high)).body.data.voucher;
    expect((await submit(lines, [highId])).body.msg).toBe(`高门槛券：${VOUCHER_MSG.belowThreshold}`);
    const a = (await claim(await makeTemplate(t.db))).body.data.voucher.id;
    const b = (await claim(await makeTemplate(t.db, { name: '同组券' }))).body.data.voucher.id;
    expect((await submit(lines, [a, b])).body.msg).toBe(`同组券：${VOUCHER_MSG.sameGroup}`);
    expect((await submit(lines, 'x,1')).body.msg).toBe(VOUCHER_MSG.unavailable);
    expect((await submit(lines, [a, a])).body.msg).toBe(VOUCHER_MSG.unavailable);
    expect(await countOrders()).toBe(n);
    for (const id of [othersId, scopedId, highId, a, b]) expect((await statusOf(id))?.status).toBe('unused');
  });

  it('cancelling an unpaid order gives its voucher back once; expiry does too', async () => {
    const tpl = await makeTemplate(t.db, { value: 200 });
    const { id } = (await claim(tpl)).body.data.voucher;
    const { orderNo } = (await submit([lineOf(specs[1]!)], [id])).body.data;
    const cancels = await Promise.all(
      [1, 2, 3].map(() => api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo }, me.token)),
    );
    expect(cancels.filter((c) => c.body.code === 200)).toHaveLength(1);
    expect(await statusOf(id)).toEqual({ status: 'unused', orderNo: null });
    const events = await eventsOf(id);
    expect(events.filter((e) => e.fromStatus === 'locked')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ fromStatus: 'locked', toStatus: 'unused', orderNo });

    const second = (await submit([lineOf(specs[1]!)], [id])).body.data.orderNo;
    expect((await statusOf(id))?.status).toBe('locked');
    await expireOrders(t.db, new Date(Date.now() + 31 * 60_000));
    const detail = (
      await api.post<OrderDetail>(orderApi.orderDetail.path, { siteId: 719, orderNo: second }, me.token)
    ).body.data;
    expect(detail.status).toBe(ORDER_STATUS.expired);
    expect(await statusOf(id)).toEqual({ status: 'unused', orderNo: null });
  });

  it('a voucher past its end when its order is cancelled becomes expired', async () => {
    const tpl = await makeTemplate(t.db, { value: 200 });
    const { id } = (await claim(tpl)).body.data.voucher;
    const { orderNo } = (await submit([lineOf(specs[1]!)], [id])).body.data;
    await t.db
      .update(voucher)
      .set({ validTo: new Date(Date.now() - 1000) })
      .where(eq(voucher.id, id));
    expect((await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo }, me.token)).body.code).toBe(
      200,
    );
    expect((await statusOf(id))?.status).toBe('expired');
  });
});
