import {
  AFTER_SALE_MSG,
  type AfterSaleComment,
  type AfterSaleDetail,
  type AfterSaleSummary,
  type ClaimResult,
  ORDER_TYPE_SECKILL,
  orderApi,
  VOUCHER_STATUS,
  voucherApi,
} from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import { type TestApp, testApp } from '../../test/harness';
import { makeSale } from '../activity/activity.fixtures';
import { seckillPurchase, seckillSku } from '../activity/activity.tables';
import { releaseGroup } from '../activity/group';
import { makeGroupBuy } from '../activity/group.fixtures';
import { groupMember, groupPurchase } from '../activity/group.tables';
import { releaseSeckill } from '../activity/seckill';
import { client } from '../identity/identity.fixtures';
import { IMAGES } from '../media/media.fixtures';
import { autoConfirmOrders } from '../order/auto-confirm';
import { shipChildOrder } from '../order/fulfilment';
import { lineOf, type PickedSpec, pickSpecs, stockOf } from '../order/order.fixtures';
import { mallOrder } from '../order/order.tables';
import { payJournal, payRefund } from '../payment/payment.tables';
import { getBalance } from '../points/points.service';
import { pointsEntry } from '../points/points.tables';
import { makeTemplate } from '../voucher/voucher.fixtures';
import { refundOrderVouchers } from '../voucher/voucher.service';
import { voucher, voucherEvent } from '../voucher/voucher.tables';
import {
  orderDetail,
  receivedDaysAgo,
  receivedOrder,
  type Shopper,
  sevenDay,
  shopper,
  uploadPic,
} from './aftersale.fixtures';
import { afterSale, afterSaleLine } from './aftersale.tables';
import {
  approveCase,
  completeExchange,
  receiveReturn,
  refundCase,
  refuseReturn,
  rejectCase,
  reshipCase,
  settleRefunds,
} from './operator';
import { expireUnshippedReturns } from './timers';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: Shopper;
let goods: PickedSpec[];
let virtual: PickedSpec;

const post = <T>(path: string, body: object, who: Shopper = me) =>
  api.post<T>(`/api/afterSale/${path}`, { siteId: who.siteId, ...body }, who.token);
const apply = (orderNo: string, lineId: number, extra: object = {}, who: Shopper = me) =>
  post<AfterSaleDetail>(
    'apply',
    { orderNo, lineId, kind: 'return_refund', qty: 1, reason: '不想要了', ...extra },
    who,
  );
const ref = (afterSaleNo: string) => ({ siteId: me.siteId, afterSaleNo });
const balance = (who: Shopper = me) => getBalance(t, { siteId: who.siteId, memberId: who.id });
const childStatus = async (orderNo: string, who: Shopper = me) =>
  (await orderDetail(t, who, orderNo)).childOrders.map((c) => c.status);

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await shopper(t, 719);
  goods = await pickSpecs(t.db, 719, { count: 2, stock: 100 });
  virtual = (await pickSpecs(t.db, 719, { virtual: true, stock: 100 }))[0] as PickedSpec;
});
afterAll(() => t.close());

describe('seven-day check and apply', () => {
  it('lists what each line may get; nothing before receipt, nothing for virtual goods', async () => {
    const unreceived = await receivedOrder(t, me, [lineOf(goods[0]!)], { confirm: false });
    expect(unreceived.check.lines[0]).toMatchObject({ kinds: [], msg: AFTER_SALE_MSG.notReceived });
    const applied = await apply(unreceived.orderNo, unreceived.check.lines[0]!.lineId);
    expect(applied.body).toMatchObject({ code: 500, msg: AFTER_SALE_MSG.notReceived });

    const mixed = await receivedOrder(t, me, [lineOf(goods[0]!, 2), lineOf(virtual)]);
    const [physical, code] = mixed.check.lines;
    expect(physical).toMatchObject({
      num: 2,
      availableQty: 2,
      kinds: ['refund_only', 'return_refund', 'exchange'],
      openAfterSaleNo: null,
      msg: '',
    });
    expect(code).toMatchObject({ kinds: [], msg: AFTER_SALE_MSG.virtual });
    expect((await apply(mixed.orderNo, code!.lineId)).body.msg).toBe(AFTER_SALE_MSG.virtual);
  });

  it('refuses a return after 7 days and an exchange after 15; another member gets "not found"', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!)]);
    const lineId = order.check.lines[0]!.lineId;
    await receivedDaysAgo(t, order.orderNo, 8);
    expect((await sevenDay(t, me, order.orderNo)).lines[0]!.kinds).toEqual(['exchange']);
    expect((await apply(order.orderNo, lineId)).body.msg).toBe(AFTER_SALE_MSG.returnWindow);
    expect((await apply(order.orderNo, lineId, { kind: 'refund_only' })).body.msg).toBe(
      AFTER_SALE_MSG.returnWindow,
    );
    await receivedDaysAgo(t, order.orderNo, 16);
    expect((await apply(order.orderNo, lineId, { kind: 'exchange' })).body.msg).toBe(
      AFTER_SALE_MSG.exchangeWindow,
    );

    const other = await shopper(t, 719);
    const fresh = await receivedOrder(t, me, [lineOf(goods[0]!)]);
    const stranger = await apply(fresh.orderNo, fresh.check.lines[0]!.lineId, {}, other);
    expect(stranger.body).toMatchObject({ code: 500, msg: '订单不存在' });
    // Nor may they read, message or cancel another member's case.
    const mine = (await apply(fresh.orderNo, fresh.check.lines[0]!.lineId)).body.data.afterSaleNo;
    for (const path of ['progress', 'commentList', 'logistics', 'cancel'])
      expect((await post(path, { afterSaleNo: mine }, other)).body.msg).toBe(AFTER_SALE_MSG.notFound);
    expect((await post('comment', { afterSaleNo: mine, content: '你好' }, other)).body.msg).toBe(
      AFTER_SALE_MSG.notFound,
    );
    expect(await t.db.select().from(afterSale).where(eq(afterSale.memberId, other.id))).toEqual([]);
  });

  it('refuses more pieces than bought, bad pictures, an empty reason', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!, 2)]);
    const lineId = order.check.lines[0]!.lineId;
    expect((await apply(order.orderNo, lineId, { qty: 3 })).body.msg).toBe(AFTER_SALE_MSG.badQty);
    expect((await apply(order.orderNo, lineId, { pics: ['http://evil/x.png'] })).body.msg).toBe(
      AFTER_SALE_MSG.badPics,
    );
    expect((await apply(order.orderNo, lineId, { reason: '   ' })).body.msg).toBe(AFTER_SALE_MSG.badReason);
    expect(await childStatus(order.orderNo)).toEqual([23]);
  });

  it('two parallel applications for one line open one case', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!, 2)]);
    const lineId = order.check.lines[0]!.lineId;
    const answers = await Promise.all([
      apply(order.orderNo, lineId),
      apply(order.orderNo, lineId, { qty: 2 }),
    ]);
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 500]);
    expect(answers.find((a) => a.body.code === 500)?.body.msg).toBe(AFTER_SALE_MSG.open);
    const rows = await t.db.select().from(afterSale).where(eq(afterSale.orderNo, order.orderNo));
    expect(rows).toHaveLength(1);
    expect(await childStatus(order.orderNo)).toEqual([31]);
    expect((await sevenDay(t, me, order.orderNo)).lines[0]).toMatchObject({
      kinds: [],
      openAfterSaleNo: rows[0]!.afterSaleNo,
    });
  });
});

describe('return and refund with points', () => {
  it('walks applied → awaiting return → returned → refunded; points and stock come back, the child order goes back to 23', async () => {
    const spec = goods[1]!;
    const order = await receivedOrder(t, me, [lineOf(spec, 3)]);
    const lineId = order.check.lines[0]!.lineId;
    const stock = await stockOf(t.db, spec.specificationId);
    const before = await balance();

    expect((await uploadPic(t, me, Buffer.from('<html></html>'.repeat(8)))).msg).toMatch(/PNG/);
    const pic = (await uploadPic(t, me, IMAGES.png)).data?.url as string;
    expect(pic).toMatch(/^\/uploads\/aftersale\/.+\.png$/);

    const applied = await apply(order.orderNo, lineId, { qty: 2, pics: [pic], description: '尺码不合适' });
    expect(applied.body).toMatchObject({ code: 200, msg: AFTER_SALE_MSG.applied });
    const no = applied.body.data.afterSaleNo;
    expect(applied.body.data).toMatchObject({ status: 'applied', statusName: '待审核', qty: 2, pics: [pic] });
    expect(await childStatus(order.orderNo)).toEqual([31]);

    // Nothing to ship yet; refunding before the goods are back is refused.
    expect(
      (await post('delivery', { afterSaleNo: no, company: '顺丰', trackingNo: 'SF00000001' })).body.msg,
    ).toBe(AFTER_SALE_MSG.notAwaitingReturn);
    await expect(refundCase(t.db, ref(no))).rejects.toThrow(/不能进行此操作/);

    const approved = await approveCase(t.db, { ...ref(no), note: '同意退货' });
    expect(approved.status).toBe('awaiting_return');
    expect(approved.returnDeadline).not.toBeNull();
    const shipped = await post<AfterSaleDetail>('delivery', {
      afterSaleNo: no,
      company: '顺丰速运',
      trackingNo: 'SF00000001',
    });
    expect(shipped.body.data.returnParcel).toMatchObject({ company: '顺丰速运', trackingNo: 'SF00000001' });
    expect((await post('cancel', { afterSaleNo: no })).body.msg).toBe(AFTER_SALE_MSG.notCancellable);
    const logistics = await post<{ returnParcel: { trackingNo: string } }>('logistics', { afterSaleNo: no });
    expect(logistics.body.data.returnParcel.trackingNo).toBe('SF00000001');

    await post('comment', { afterSaleNo: no, content: '已寄出，请查收' });
    const thread = await post<{ list: AfterSaleComment[] }>('commentList', { afterSaleNo: no });
    expect(thread.body.data.list).toMatchObject([{ author: 'member', content: '已寄出，请查收' }]);

    await receiveReturn(t.db, ref(no));
    const refunded = await refundCase(t.db, ref(no));
    const paidForTwo = Math.floor((spec.price * 3 * 2) / 3);
    expect(refunded).toMatchObject({ status: 'refunded', refundPoints: paidForTwo, refundCash: 0 });
    expect(await balance()).toBe(before + paidForTwo);
    expect(await stockOf(t.db, spec.specificationId)).toBe(stock + 2);
    expect(await childStatus(order.orderNo)).toEqual([23]);

    const progress = await post<AfterSaleDetail>('progress', { afterSaleNo: no });
    expect(progress.body.data.steps.map((s) => s.status)).toEqual([
      'applied',
      'approved',
      'awaiting_return',
      'awaiting_return',
      'returned',
      'refunding',
      'refunded',
    ]);
    const list = await post<{ list: AfterSaleSummary[] }>('list', { isOpen: false });
    expect(list.body.data.list.map((c) => c.afterSaleNo)).toContain(no);

    // The last piece: what is left of the line, exactly.
    const last = await apply(order.orderNo, lineId, { kind: 'refund_only', qty: 1 });
    expect(last.body.code).toBe(200);
    await approveCase(t.db, ref(last.body.data.afterSaleNo));
    const lastRefund = await refundCase(t.db, ref(last.body.data.afterSaleNo));
    expect(lastRefund.refundPoints).toBe(spec.price * 3 - paidForTwo);
    const [account] = await t.db.select().from(afterSaleLine).where(eq(afterSaleLine.orderLineId, lineId));
    expect(account).toMatchObject({ refundedPoints: spec.price * 3, refundedQty: 3 });
    expect((await apply(order.orderNo, lineId, { kind: 'exchange' })).body.msg).toBe(AFTER_SALE_MSG.badQty);
  });

  it('refunds a case once when two operators refund it in parallel', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!)]);
    const no = (await apply(order.orderNo, order.check.lines[0]!.lineId, { kind: 'refund_only' })).body.data
      .afterSaleNo;
    await approveCase(t.db, ref(no));
    const before = await balance();
    const results = await Promise.allSettled([refundCase(t.db, ref(no)), refundCase(t.db, ref(no))]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await balance()).toBe(before + goods[0]!.price);
    const entries = await t.db
      .select()
      .from(pointsEntry)
      .where(eq(pointsEntry.requestKey, `aftersale:${no}`));
    expect(entries).toHaveLength(1);
  });

  it('refuses a refund larger than what was paid for the line, changing nothing; the CHECK backs it', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!)]);
    const lineId = order.check.lines[0]!.lineId;
    const no = (await apply(order.orderNo, lineId, { kind: 'refund_only' })).body.data.afterSaleNo;
    await approveCase(t.db, ref(no));
    const before = await balance();
    await expect(refundCase(t.db, { ...ref(no), points: goods[0]!.price + 1 })).rejects.toThrow(
      AFTER_SALE_MSG.overRefund,
    );
    expect(await balance()).toBe(before);
    expect((await post<AfterSaleDetail>('progress', { afterSaleNo: no })).body.data.status).toBe('approved');
    await expect(
      t.db
        .update(afterSaleLine)
        .set({ refundedPoints: sql`paid_points + 1` })
        .where(eq(afterSaleLine.orderLineId, lineId)),
    ).rejects.toThrow();
    // A smaller refund (a deduction) is fine.
    expect(await refundCase(t.db, { ...ref(no), points: 1 })).toMatchObject({
      status: 'refunded',
      refundPoints: 1,
    });
    expect(await balance()).toBe(before + 1);
  });
});

describe('flash sale', () => {
  it("gives the member's flash-sale count back, once, when the whole order is refunded", async () => {
    const [spec] = (await pickSpecs(t.db, 719, { count: 3, stock: 100 })).slice(2) as [PickedSpec];
    const { activity } = await makeSale(t.db, { ...spec, siteId: 719, price: 1, stock: 5, memberLimit: 1 });
    const buyer = await shopper(t, 719);
    const order = await receivedOrder(t, buyer, [lineOf(spec)], { extra: { orderType: ORDER_TYPE_SECKILL } });
    const sku = async () =>
      (await t.db.select().from(seckillSku).where(eq(seckillSku.activityId, activity.id)))[0]?.stock;
    const bought = async () =>
      (await t.db.select().from(seckillPurchase).where(eq(seckillPurchase.memberId, buyer.id)))[0]?.qty;
    expect(await bought()).toBe(1);
    const no = (await apply(order.orderNo, order.check.lines[0]!.lineId, { kind: 'refund_only' }, buyer)).body
      .data.afterSaleNo;
    await approveCase(t.db, ref(no));
    await refundCase(t.db, ref(no));
    expect(await bought()).toBe(0);
    // Given back once: releasing the order again changes nothing.
    const stock = await sku();
    await releaseSeckill(t.db, [order.orderNo]);
    expect(await sku()).toBe(stock);
  });
});

describe('vouchers', () => {
  it('gives a used voucher back once the last piece is refunded, once, where its template says so', async () => {
    const spec = goods[1]!;
    const buyer = await shopper(t, 719);
    const claim = async (refundReturns: boolean) => {
      const templateId = await makeTemplate(t.db, {
        name: refundReturns ? '售后退回券' : '售后不退券',
        refundReturns,
      });
      const res = await api.post<ClaimResult>(
        voucherApi.claim.path,
        { siteId: 719, templateId },
        buyer.token,
      );
      return res.body.data.voucher.id;
    };
    const voucherOf = async (id: number) => (await t.db.select().from(voucher).where(eq(voucher.id, id)))[0];
    // Two pieces over the voucher's 10 yuan, refunded one case at a time.
    const num = Math.max(2, Math.ceil(2_000 / spec.price));
    const refundAll = async (voucherId: number) => {
      const order = await receivedOrder(t, buyer, [lineOf(spec, num)], {
        extra: { accVoucherIds: [voucherId] },
      });
      expect(await voucherOf(voucherId)).toMatchObject({
        status: VOUCHER_STATUS.used,
        orderNo: order.orderNo,
      });
      const lineId = order.check.lines[0]!.lineId;
      const refundPieces = async (qty: number) => {
        const no = (await apply(order.orderNo, lineId, { kind: 'refund_only', qty }, buyer)).body.data
          .afterSaleNo;
        await approveCase(t.db, ref(no));
        await refundCase(t.db, ref(no));
      };
      await refundPieces(1);
      // One piece back: the order is not refunded in full, the voucher stays used.
      expect((await voucherOf(voucherId))?.status).toBe(VOUCHER_STATUS.used);
      await refundPieces(num - 1);
      return order.orderNo;
    };

    const giving = await claim(true);
    const orderNo = await refundAll(giving);
    expect(await voucherOf(giving)).toMatchObject({ status: VOUCHER_STATUS.unused, orderNo: null });
    // Once: giving the order's vouchers back again moves none.
    await refundOrderVouchers(t.db, orderNo);
    const events = await t.db.select().from(voucherEvent).where(eq(voucherEvent.voucherId, giving));
    expect(events.filter((e) => e.toStatus === VOUCHER_STATUS.unused)).toHaveLength(2);

    const keeping = await claim(false);
    await refundAll(keeping);
    expect((await voucherOf(keeping))?.status).toBe(VOUCHER_STATUS.used);
  });
});

describe('group buy', () => {
  it("gives the member's group-buy place back, once, when the order is refunded after delivery", async () => {
    const spec = (await pickSpecs(t.db, 719, { count: 4, stock: 100 }))[3] as PickedSpec;
    const a = await makeGroupBuy(t.db, { siteId: 719, ...spec, price: 990, teamSize: 2, memberLimit: 1 });
    const [leader, joiner] = [await shopper(t, 719), await shopper(t, 719)];
    const group = <T>(path: string, body: object, who: Shopper) =>
      api.post<T>(`/api/group/${path}`, { siteId: 719, ...body }, who.token);
    const payWithPoints = (orderNo: string, who: Shopper) =>
      api.post(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'ye' }, who.token);
    const opened = (await group<{ orderNo: string; teamId: number }>('submit', { activityId: a.id }, leader))
      .body.data;
    await payWithPoints(opened.orderNo, leader);
    const joined = (await group<{ orderNo: string }>('join', { teamId: opened.teamId }, joiner)).body.data;
    await payWithPoints(joined.orderNo, joiner);
    // The team is full: the leader's order is shipped and received.
    for (const child of (await orderDetail(t, leader, opened.orderNo)).childOrders)
      await shipChildOrder(t.db, {
        siteId: 719,
        childOrderNo: child.childOrderNo,
        company: '顺丰速运',
        trackingNo: 'SF0000000001',
      });
    await api.post(orderApi.confirmOrder.path, { siteId: 719, orderNo: opened.orderNo }, leader.token);
    const lineId = (await sevenDay(t, leader, opened.orderNo)).lines[0]!.lineId;

    const placeOf = async () =>
      (await t.db.select().from(groupMember).where(eq(groupMember.orderNo, opened.orderNo)))[0]?.status;
    const boughtOf = async () =>
      (await t.db.select().from(groupPurchase).where(eq(groupPurchase.memberId, leader.id)))[0]?.qty;
    expect([await placeOf(), await boughtOf()]).toEqual(['paid', 1]);
    // The member's limit (one) is used up: another team is refused.
    expect((await group('submit', { activityId: a.id }, leader)).body.code).not.toBe(200);

    const no = (await apply(opened.orderNo, lineId, { kind: 'refund_only' }, leader)).body.data.afterSaleNo;
    await approveCase(t.db, { siteId: 719, afterSaleNo: no });
    await refundCase(t.db, { siteId: 719, afterSaleNo: no });
    expect([await placeOf(), await boughtOf()]).toEqual(['refunded', 0]);
    // Once: releasing the order again changes nothing; the member may join a group buy again.
    await releaseGroup(t.db, [opened.orderNo]);
    expect([await placeOf(), await boughtOf()]).toEqual(['refunded', 0]);
    expect((await group('submit', { activityId: a.id }, leader)).body.code).toBe(200);
  });
});

describe('exits, exchange and timers', () => {
  it('member cancel, operator reject and refused return close the case and give the child order back', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!), lineOf(goods[1]!)]);
    const [a, b] = order.check.lines;
    const first = (await apply(order.orderNo, a!.lineId)).body.data.afterSaleNo;
    const second = (await apply(order.orderNo, b!.lineId, { kind: 'refund_only' })).body.data.afterSaleNo;
    expect(await childStatus(order.orderNo)).toEqual([31]);
    const cancelled = await post<AfterSaleDetail>('cancel', { afterSaleNo: first });
    expect(cancelled.body).toMatchObject({ msg: AFTER_SALE_MSG.cancelled, data: { status: 'cancelled' } });
    // The other case still holds the child order in after-sales.
    expect(await childStatus(order.orderNo)).toEqual([31]);
    await expect(rejectCase(t.db, { ...ref(second), reason: '' })).rejects.toThrow(/原因/);
    await rejectCase(t.db, { ...ref(second), reason: '商品已使用，不符合退货条件' });
    expect(await childStatus(order.orderNo)).toEqual([23]);
    expect((await post('cancel', { afterSaleNo: second })).body.msg).toBe(AFTER_SALE_MSG.notCancellable);

    const again = (await apply(order.orderNo, a!.lineId)).body.data.afterSaleNo;
    await approveCase(t.db, ref(again));
    await refuseReturn(t.db, { ...ref(again), reason: '退回商品与订单不符' });
    expect(await childStatus(order.orderNo)).toEqual([23]);
  });

  it('exchange: returned → reshipped → completed without money moving', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!)]);
    const before = await balance();
    const no = (await apply(order.orderNo, order.check.lines[0]!.lineId, { kind: 'exchange' })).body.data
      .afterSaleNo;
    await approveCase(t.db, ref(no));
    await post('delivery', { afterSaleNo: no, company: '中通快递', trackingNo: 'ZT12345678' });
    await receiveReturn(t.db, ref(no));
    await expect(refundCase(t.db, ref(no))).rejects.toThrow(/不能进行此操作/);
    await reshipCase(t.db, { ...ref(no), company: '中通快递', trackingNo: 'ZT87654321' });
    const logistics = await post<{ reshipParcel: { trackingNo: string } }>('logistics', { afterSaleNo: no });
    expect(logistics.body.data.reshipParcel.trackingNo).toBe('ZT87654321');
    expect(await completeExchange(t.db, ref(no))).toMatchObject({ status: 'completed' });
    expect(await balance()).toBe(before);
    expect(await childStatus(order.orderNo)).toEqual([23]);
  });

  it('closes a return not shipped within 7 days, and confirms receipt of old shipments', async () => {
    const order = await receivedOrder(t, me, [lineOf(goods[0]!)]);
    const no = (await apply(order.orderNo, order.check.lines[0]!.lineId)).body.data.afterSaleNo;
    await approveCase(t.db, ref(no));
    expect(await expireUnshippedReturns(t.db)).toBe(0);
    const inEightDays = new Date(Date.now() + 8 * 86_400_000);
    expect(
      await Promise.all([
        expireUnshippedReturns(t.db, inEightDays),
        expireUnshippedReturns(t.db, inEightDays),
      ]),
    ).toEqual(expect.arrayContaining([1]));
    const closed = (await post<AfterSaleDetail>('progress', { afterSaleNo: no })).body.data;
    expect(closed.status).toBe('cancelled');
    expect(closed.steps.at(-1)).toMatchObject({ actor: 'system' });
    expect(await childStatus(order.orderNo)).toEqual([23]);

    const shipped = await receivedOrder(t, me, [lineOf(goods[0]!)], { confirm: false });
    expect(await autoConfirmOrders(t.db)).toBe(0);
    const later = new Date(Date.now() + 11 * 86_400_000);
    const counts = await Promise.all([autoConfirmOrders(t.db, later), autoConfirmOrders(t.db, later)]);
    expect(counts.reduce((s, n) => s + n, 0)).toBeGreaterThanOrEqual(1);
    const [row] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, shipped.orderNo));
    expect(row?.status).toBe(23);
    const log = (await orderDetail(t, me, shipped.orderNo)).logs.at(-1);
    expect(log?.note).toContain('自动确认收货');
  });
});

describe('mixed points and WeChat payment', () => {
  it('refunds pro rata: points at once, WeChat through the outbox with one refund number, then refunded', async () => {
    const sim = t.app.payments.simulator as WechatpaySimulator;
    const spec = goods[0]!;
    const order = await receivedOrder(t, me, [lineOf(spec, 2)], { wechatPoints: 101 });
    const [paid] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, order.orderNo));
    const payAmount = paid!.payAmount;
    const before = await balance();
    const no = (await apply(order.orderNo, order.check.lines[0]!.lineId, { kind: 'refund_only' })).body.data
      .afterSaleNo;
    await approveCase(t.db, ref(no));
    const refunding = await refundCase(t.db, ref(no));
    const [account] = await t.db
      .select()
      .from(afterSaleLine)
      .where(eq(afterSaleLine.orderLineId, order.check.lines[0]!.lineId));
    // The line's share: its amount of the payment, split in the payment's proportion.
    expect(account!.paidCash + account!.paidPoints).toBe(spec.price * 2);
    expect(account!.paidPoints).toBe(Math.round((101 * spec.price * 2) / payAmount));
    expect(refunding).toMatchObject({
      status: 'refunding',
      refundCash: Math.floor(account!.paidCash / 2),
      refundPoints: Math.floor(account!.paidPoints / 2),
    });
    expect(await balance()).toBe(before + refunding.refundPoints);
    expect(await childStatus(order.orderNo)).toEqual([31]);

    // The outbox: the reconciliation job sends it; a second round sends nothing new.
    await t.app.payments.wechat.reconcile(t.db);
    await sim.idle();
    await t.app.payments.wechat.reconcile(t.db);
    await sim.idle();
    const refunds = await t.db
      .select()
      .from(payRefund)
      .where(eq(payRefund.outRefundNo, `R${no}`));
    expect(refunds).toMatchObject([{ status: 'SUCCESS', amount: refunding.refundCash }]);
    expect(await settleRefunds(t.db)).toBe(1);
    expect(await settleRefunds(t.db)).toBe(0);
    const done = (await post<AfterSaleDetail>('progress', { afterSaleNo: no })).body.data;
    expect(done.status).toBe('refunded');
    expect(await childStatus(order.orderNo)).toEqual([23]);
    const journal = await t.db.select().from(payJournal).where(eq(payJournal.orderNo, order.orderNo));
    expect(journal.map((j) => j.amount).sort((x, y) => x - y)).toEqual([
      -refunding.refundCash,
      payAmount - 101,
    ]);
  });
});
