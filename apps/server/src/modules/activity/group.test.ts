import {
  addressApi,
  GROUP_MSG,
  GROUP_TEAM_STATUS,
  type GroupDetail,
  type GroupSubmitResult,
  type GroupView,
  groupApi,
  type MyGroup,
  ORDER_STATUS,
  ORDER_TYPE_GROUP,
  orderApi,
  type PayResult,
  packsApi,
} from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WechatpaySimulator } from '../../simulators/wechatpay';
import { statementsOf, type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { expireOrders } from '../order/expiry';
import { refundPaidOrder, shipChildOrder } from '../order/fulfilment';
import { buyer, lineOf, NANJING, type PickedSpec, pickSpecs, stockOf } from '../order/order.fixtures';
import { mallOrder } from '../order/order.tables';
import { issuedCards } from '../packs/packs.fixtures';
import { packCard, packLedger, packProduct } from '../packs/packs.tables';
import { payRefund } from '../payment/payment.tables';
import { getBalance } from '../points/points.service';
import { pointsEntry } from '../points/points.tables';
import { quickMembers } from './activity.fixtures';
import { endTeamNow, makeGroupBuy, teamRow } from './group.fixtures';
import { groupMember } from './group.tables';
import { settleGroupTeams } from './group-settle';

let t: TestApp;
let api: ReturnType<typeof client>;
let specs: PickedSpec[];
let next = 0;

/** A fresh physical specification (stock 1000) for each test's activity. */
const freshSpec = () => specs[next++] as PickedSpec;

const post = <T>(path: string, body: Record<string, unknown>, token?: string) =>
  api.post<T>(path, { siteId: 719, ...body }, token);
const open = (token: string, activityId: number, extra: Record<string, unknown> = {}) =>
  post<GroupSubmitResult>(groupApi.submit.path, { activityId, ...extra }, token);
const join = (token: string, teamId: number, extra: Record<string, unknown> = {}) =>
  post<GroupSubmitResult>(groupApi.join.path, { teamId, ...extra }, token);
const pay = (token: string, orderNo: string) =>
  post<{ status: number }>(orderApi.payOrder.path, { orderNo, payWay: 'ye' }, token);
const view = (teamId: number, token?: string) => post<GroupView>(groupApi.view.path, { teamId }, token);
const cancel = (token: string, orderNo: string) => post(orderApi.cancelOrder.path, { orderNo }, token);

async function orderOf(orderNo: string) {
  const [row] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, orderNo));
  return row!;
}

/** A member with points and a delivery address. */
async function shopper(points = 100_000) {
  const b = await buyer(t, 719, points);
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
  return b;
}

async function activity(overrides: Partial<Parameters<typeof makeGroupBuy>[1]> = {}) {
  const spec = freshSpec();
  return { spec, activity: await makeGroupBuy(t.db, { siteId: 719, ...spec, price: 990, ...overrides }) };
}

const refundEntries = async (orderNo: string) =>
  (
    await t.db
      .select()
      .from(pointsEntry)
      .where(and(eq(pointsEntry.orderNo, orderNo), eq(pointsEntry.type, 'refund')))
  ).length;

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  specs = await pickSpecs(t.db, 719, { count: 30, stock: 1000 });
});
afterAll(() => t.close());

describe('group buy: detail, open, view, my list', () => {
  it('lists the demo activity of the site, with its timing and the server time', async () => {
    const { body } = await post<GroupDetail>(groupApi.detail.path, {});
    expect(body.code).toBe(200);
    const demo = body.data.activities.find((a) => a.name === '两人拼团');
    expect(demo).toMatchObject({ teamSize: 2, teamHours: 24, timing: { status: 0 } });
    expect(demo!.price).toBeLessThan(demo!.marketPrice);
    expect(body.data.currentTime).toBeGreaterThan(0);
    const on1000 = await api.post<GroupDetail>(groupApi.detail.path, { siteId: 1000 });
    expect(on1000.body.data.activities).toHaveLength(1);
  });

  it('opens a team with an order at the group price; the team shows with its leader and countdown', async () => {
    const { spec, activity: a } = await activity({ teamSize: 3 });
    const leader = await shopper();
    const { body } = await open(leader.token, a.id);
    expect(body).toMatchObject({ code: 200, data: { status: ORDER_STATUS.pendingPayment } });
    expect((await orderOf(body.data.orderNo)).goodsAmount).toBe(990);
    const teamId = body.data.teamId;
    expect(await stockOf(t.db, spec.specificationId)).toBe(999);
    const team = await teamRow(t.db, teamId);
    expect(team).toMatchObject({ reserved: 1, paid: 0, size: 3, status: GROUP_TEAM_STATUS.forming });
    // The order must be paid before the team ends.
    expect(new Date(body.data.expireTime).getTime()).toBeLessThanOrEqual(team.expiresAt.getTime());

    const seen = await view(teamId);
    expect(seen.body.data).toMatchObject({
      team: { teamId, size: 3, joined: 1, paid: 0, status: 0, statusName: '拼团中' },
      members: [{ isLeader: true, status: 'reserved' }],
      mine: null,
    });
    expect(seen.body.data.members[0]!.nickname).toMatch(/^139\*{4}\d{4}$/);
    expect(seen.body.data.team.expireTimeStamp).toBe(team.expiresAt.getTime());
    expect((await view(teamId, leader.token)).body.data.mine).toEqual({
      orderNo: body.data.orderNo,
      status: 'reserved',
    });

    const detail = await post<GroupDetail>(groupApi.detail.path, { id: a.id });
    expect(detail.body.data.teams.map((x) => x.teamId)).toEqual([teamId]);
    const mine = await post<{ list: MyGroup[]; total: number }>(groupApi.myList.path, {}, leader.token);
    expect(mine.body.data).toMatchObject({
      total: 1,
      list: [{ orderNo: body.data.orderNo, isLeader: true }],
    });
  });

  it("refuses a visitor, another site's team, a voucher and a second place in the same team", async () => {
    const { activity: a } = await activity();
    const leader = await shopper();
    expect((await open('', a.id)).body.code).not.toBe(200);
    const { body } = await open(leader.token, a.id);
    const onOther = await api.post(groupApi.view.path, { siteId: 1000, teamId: body.data.teamId });
    expect(onOther.body.msg).toBe(GROUP_MSG.teamNotFound);
    expect((await join(leader.token, body.data.teamId)).body.msg).toBe(GROUP_MSG.joinedBefore);
    const other = await shopper();
    // The group endpoints take no vouchers; the order submit with the group's orderType refuses them.
    const withVoucher = await post(
      orderApi.submitOrder.path,
      {
        orderType: ORDER_TYPE_GROUP,
        teamId: body.data.teamId,
        productInfos: [lineOf(a)],
        accVoucherIds: '1',
      },
      other.token,
    );
    expect(withVoucher.body.msg).toBe(GROUP_MSG.noVoucher);
    expect((await teamRow(t.db, body.data.teamId)).reserved).toBe(1);
  });

  it('keeps to the per-member limit over the activity', async () => {
    const { activity: a } = await activity({ memberLimit: 2 });
    const m = await shopper();
    expect((await open(m.token, a.id, { num: 3 })).body.msg).toBe(GROUP_MSG.perMember(2));
    expect((await open(m.token, a.id, { num: 2 })).body.code).toBe(200);
    expect((await open(m.token, a.id)).body.msg).toBe(GROUP_MSG.perMember(2));
  });

  it('refuses before the start and after the end with the timing', async () => {
    const { activity: a } = await activity({
      startAt: new Date(Date.now() + 3_600_000),
      endAt: new Date(Date.now() + 7_200_000),
    });
    const m = await shopper();
    expect((await open(m.token, a.id)).body).toMatchObject({
      msg: GROUP_MSG.notStarted,
      data: { timing: { status: -1 } },
    });
  });
});

describe('group buy: filling a team', () => {
  it('a paid member waits in 24 until the team fills; then the orders can ship', async () => {
    const { activity: a } = await activity();
    const leader = await shopper();
    const second = await shopper();
    const opened = (await open(leader.token, a.id)).body.data;
    expect((await pay(leader.token, opened.orderNo)).body.data.status).toBe(ORDER_STATUS.confirming);
    expect(await teamRow(t.db, opened.teamId)).toMatchObject({ paid: 1, status: GROUP_TEAM_STATUS.forming });
    const [child] = opened.childOrderNo;
    const ship = () =>
      shipChildOrder(t.db, { siteId: 719, childOrderNo: child!, company: '顺丰', trackingNo: 'SF1234567' });
    await expect(ship()).rejects.toThrow(GROUP_MSG.holdShipping);

    const joined = (await join(second.token, opened.teamId)).body;
    expect(joined.code).toBe(200);
    expect(joined.data.teamId).toBe(opened.teamId);
    // Full: a third member cannot even submit, so no payment can land in a full team.
    expect((await join((await shopper()).token, opened.teamId)).body.msg).toBe(GROUP_MSG.teamFull);
    expect((await teamRow(t.db, opened.teamId)).status).toBe(GROUP_TEAM_STATUS.forming);
    await pay(second.token, joined.data.orderNo);
    expect(await teamRow(t.db, opened.teamId)).toMatchObject({
      reserved: 2,
      paid: 2,
      status: GROUP_TEAM_STATUS.succeeded,
    });
    expect((await view(opened.teamId)).body.data.team.statusName).toBe('拼团成功');
    expect((await ship()).status).toBe(ORDER_STATUS.awaitingReceipt);
  });

  it('a cancelled or expired unpaid order gives its slot back once', async () => {
    const { activity: a } = await activity({ teamSize: 3 });
    const leader = await shopper();
    const opened = (await open(leader.token, a.id)).body.data;
    const b = await shopper();
    const joined = (await join(b.token, opened.teamId)).body.data;
    expect((await teamRow(t.db, opened.teamId)).reserved).toBe(2);
    expect((await cancel(b.token, joined.orderNo)).body.code).toBe(200);
    await cancel(b.token, joined.orderNo);
    expect((await teamRow(t.db, opened.teamId)).reserved).toBe(1);
    // The member may come back after their order ended.
    const again = (await join(b.token, opened.teamId)).body;
    expect(again.code).toBe(200);
    expect(await expireOrders(t.db, new Date(Date.now() + 31 * 60_000))).toBeGreaterThanOrEqual(2);
    expect(await expireOrders(t.db, new Date(Date.now() + 31 * 60_000))).toBe(0);
    // Both places ended: an empty team fails, nobody to refund.
    expect(await teamRow(t.db, opened.teamId)).toMatchObject({
      reserved: 0,
      paid: 0,
      status: GROUP_TEAM_STATUS.failed,
    });
    const places = await t.db.select().from(groupMember).where(eq(groupMember.teamId, opened.teamId));
    expect(places.map((p) => p.status).sort()).toEqual(['released', 'released', 'released']);
  });
});

describe('group buy: paying', () => {
  it('a payment marks the place of its own order only; an order without a place asks nothing of group buy', async () => {
    const { activity: a, spec } = await activity();
    const waiting = (await open((await shopper()).token, a.id)).body.data;
    const plain = await shopper();
    const submitted = await post<{ orderNo: string }>(
      orderApi.submitOrder.path,
      { productInfos: [lineOf(spec, 1)] },
      plain.token,
    );
    const touchesGroup = (statements: string[]) => statements.some((s) => /"group_member"/.test(s));
    const plainPay = await statementsOf(() => pay(plain.token, submitted.body.data.orderNo));
    // The other member's reserved place is asked about in the order's read, never updated.
    expect(plainPay.filter((s) => /^update "group_member"/.test(s.trimStart()))).toEqual([]);
    expect(await teamRow(t.db, waiting.teamId)).toMatchObject({ reserved: 1, paid: 0 });
    const leader = await shopper();
    const opened = (await open(leader.token, a.id)).body.data;
    expect(touchesGroup(await statementsOf(() => pay(leader.token, opened.orderNo)))).toBe(true);
    expect(await teamRow(t.db, opened.teamId)).toMatchObject({ reserved: 1, paid: 1 });
  });
});

describe('group buy: teams that run out of time', () => {
  it('an unfilled team fails and its paid members are refunded once; two parallel runs settle it once', async () => {
    const { spec, activity: a } = await activity({ teamSize: 3 });
    const leader = await shopper();
    const b = await shopper();
    const opened = (await open(leader.token, a.id)).body.data;
    const joined = (await join(b.token, opened.teamId)).body.data;
    await pay(leader.token, opened.orderNo);
    await pay(b.token, joined.orderNo);
    await endTeamNow(t.db, opened.teamId);
    const runs = await Promise.all([
      settleGroupTeams(t.db, refundPaidOrder),
      settleGroupTeams(t.db, refundPaidOrder),
    ]);
    expect(runs.reduce((s, n) => s + n, 0)).toBe(1);
    expect(await settleGroupTeams(t.db, refundPaidOrder)).toBe(0);
    expect((await teamRow(t.db, opened.teamId)).status).toBe(GROUP_TEAM_STATUS.failed);
    for (const no of [opened.orderNo, joined.orderNo]) {
      expect((await orderOf(no)).status).toBe(ORDER_STATUS.withdrawn);
      expect(await refundEntries(no)).toBe(1);
    }
    // Paid in points, refunded in points: the balance is whole again.
    expect(await getBalance(t, { siteId: 719, memberId: leader.id })).toBe(100_000);
    expect(await stockOf(t.db, spec.specificationId)).toBe(1000);
    const places = await t.db.select().from(groupMember).where(eq(groupMember.teamId, opened.teamId));
    expect(places.map((p) => p.status)).toEqual(['refunded', 'refunded']);
    expect((await view(opened.teamId)).body.data.team.statusName).toBe('拼团失败');
  });

  it('waits for an unpaid member before settling; virtual fill makes a team with a payment succeed', async () => {
    const { activity: a } = await activity({ teamSize: 3, virtualFill: true });
    const leader = await shopper();
    const b = await shopper();
    const opened = (await open(leader.token, a.id)).body.data;
    await join(b.token, opened.teamId);
    await pay(leader.token, opened.orderNo);
    await endTeamNow(t.db, opened.teamId);
    // b's order is still unpaid (it expires with the team): the team waits for it.
    expect(await settleGroupTeams(t.db, refundPaidOrder)).toBe(0);
    await expireOrders(t.db, new Date(Date.now() + 31 * 60_000));
    expect(await settleGroupTeams(t.db, refundPaidOrder)).toBe(1);
    expect(await teamRow(t.db, opened.teamId)).toMatchObject({
      paid: 1,
      status: GROUP_TEAM_STATUS.succeeded,
    });
    expect((await orderOf(opened.orderNo)).status).toBe(ORDER_STATUS.confirming);
  });
});

describe('group buy: refunds go back the way they came', () => {
  it('a failed team refunds WeChat through the outbox and cards to the same cards, once each', async () => {
    const { activity: a } = await activity({ teamSize: 3 });
    const leader = await shopper(0);
    const b = await shopper(0);
    const opened = (await open(leader.token, a.id)).body.data;
    const joined = (await join(b.token, opened.teamId)).body.data;
    // The leader pays by WeChat (the simulator scans the code and notifies).
    const sim = t.app.payments.simulator as WechatpaySimulator;
    const code = (
      await post<PayResult>(
        orderApi.payOrder.path,
        { orderNo: opened.orderNo, payWay: 'wx_pc' },
        leader.token,
      )
    ).body.data.wechat;
    await sim.pay(code?.codeUrl as string);
    await sim.idle();
    expect((await orderOf(opened.orderNo)).status).toBe(ORDER_STATUS.confirming);
    // b pays with a gift card.
    const [card] = await issuedCards(t, {
      siteId: 719,
      productId: (await t.db.select().from(packProduct).where(eq(packProduct.siteId, 719)))[0]!.id,
    });
    expect((await post(packsApi.bind.path, { code: card!.code, pin: card!.pin }, b.token)).body.code).toBe(
      200,
    );
    const cardId = (await t.db.select().from(packCard).where(eq(packCard.memberId, b.id)))[0]!.id;
    const full = (await t.db.select().from(packCard).where(eq(packCard.id, cardId)))[0]!.balance;
    expect(
      (await post(orderApi.payOrder.path, { orderNo: joined.orderNo, payWay: 'pack' }, b.token)).body.code,
    ).toBe(200);
    expect(await teamRow(t.db, opened.teamId)).toMatchObject({ paid: 2, status: GROUP_TEAM_STATUS.forming });

    await endTeamNow(t.db, opened.teamId);
    await Promise.all([settleGroupTeams(t.db, refundPaidOrder), settleGroupTeams(t.db, refundPaidOrder)]);
    expect(await settleGroupTeams(t.db, refundPaidOrder)).toBe(0);
    const refunds = await t.db
      .select()
      .from(payRefund)
      .where(eq(payRefund.outRefundNo, `RF${opened.orderNo}`));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe((await orderOf(opened.orderNo)).payAmount);
    expect(await refundEntries(opened.orderNo)).toBe(0);
    expect((await t.db.select().from(packCard).where(eq(packCard.id, cardId)))[0]!.balance).toBe(full);
    const back = await t.db
      .select()
      .from(packLedger)
      .where(and(eq(packLedger.cardId, cardId), eq(packLedger.bizType, 'refund')));
    expect(back).toHaveLength(1);
    expect(await refundEntries(joined.orderNo)).toBe(0);
  });
});

describe('group buy: the last slot', () => {
  it('20 members race for the last slot: one wins, the team never exceeds its size', async () => {
    const { activity: a } = await activity({ teamSize: 2 });
    const leader = await shopper();
    const opened = (await open(leader.token, a.id)).body.data;
    const members = await quickMembers(t, 719, 20);
    for (const m of members) await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, m.token);
    const answers = await Promise.all(members.map((m) => join(m.token, opened.teamId)));
    const won = answers.filter((x) => x.body.code === 200);
    expect(won).toHaveLength(1);
    for (const x of answers.filter((y) => y.body.code !== 200))
      expect([GROUP_MSG.teamFull]).toContain(x.body.msg);
    expect(await teamRow(t.db, opened.teamId)).toMatchObject({ reserved: 2, size: 2 });
    const live = await t.db.execute(
      sql`select count(*)::int as n from group_member where team_id = ${opened.teamId} and status <> 'released'`,
    );
    expect(Number((live as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(2);
  }, 120_000);
});
