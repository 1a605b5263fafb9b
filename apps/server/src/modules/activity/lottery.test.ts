import {
  type ActivityInfo,
  type Chances,
  type DrawResult,
  type GiftRecord,
  LOTTERY_MSG,
  type LotteryRule,
  lotteryApi,
  MSG,
  orderApi,
} from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, pickSpecs } from '../order/order.fixtures';
import { getBalance } from '../points/points.service';
import { makeLottery, quickMembers } from './activity.fixtures';
import { mktDraw, mktPrize } from './activity.tables';
import { expireGifts, pickPrize } from './lottery';

let t: TestApp;
let api: ReturnType<typeof client>;

const draw = (token: string, code = 'cj001', requestId?: string) =>
  api.post<DrawResult>(
    lotteryApi.start.path,
    { siteId: 719, code, ...(requestId ? { requestId } : {}) },
    token,
  );
const chances = (token: string, code = 'cj001') =>
  api.post<Chances>(lotteryApi.chance.path, { siteId: 719, code }, token);
const gifts = (token: string) =>
  api.post<{ list: GiftRecord[] }>(lotteryApi.giftRecords.path, { siteId: 719 }, token);

async function drawsOf(activityId: number): Promise<number> {
  const r = await t.db.execute(
    sql`select count(*)::int as n from mkt_draw where activity_id = ${activityId}`,
  );
  return Number((r as unknown as { rows: { n: number }[] }).rows[0]?.n);
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
});
afterAll(() => t.close());

describe('activities: list, get, in-mall check, rules', () => {
  it('lists the demo activities of the site with their timing', async () => {
    const { body } = await api.post<{ list: ActivityInfo[] }>(lotteryApi.list.path, { siteId: 719 });
    // The lotteries (type 1); the bargains (type 2) are in marketing.test.ts.
    const lotteries = body.data.list.filter((a) => a.type === 1);
    expect(lotteries.map((a) => [a.code, a.invitedOnly, a.timing.status])).toEqual([
      ['cj001', false, 0],
      ['cj002', true, 0],
    ]);
    const first = lotteries[0]!;
    expect(first.link).toBe('/lottery?code=cj001');
    expect((await api.post(lotteryApi.get.path, { siteId: 719, id: first.id })).body).toMatchObject({
      code: 200,
      data: { code: 'cj001', type: 1 },
    });
    // Another site's activity is not found here.
    const other = await api.post<{ list: ActivityInfo[] }>(lotteryApi.list.path, { siteId: 1000 });
    const foreign = await api.post(lotteryApi.get.path, { siteId: 719, id: other.body.data.list[0]!.id });
    expect(foreign.body).toMatchObject({ code: 500, msg: LOTTERY_MSG.notFound });
  });

  it('answers in-mall for a running activity and the default code cj001', async () => {
    expect((await api.post(lotteryApi.inMall.path, { siteId: 719 })).body.data).toEqual({ inMall: true });
    expect((await api.post(lotteryApi.inMall.path, { siteId: 719, code: 'nope' })).body.data).toEqual({
      inMall: false,
    });
  });

  it('answers the rule with cost, chances and prizes', async () => {
    const { body } = await api.post<LotteryRule>(lotteryApi.rule.path, { siteId: 719 });
    expect(body.data).toMatchObject({
      code: 'cj001',
      costPoints: 100,
      chances: 3,
      period: 'day',
      shareBonus: 1,
    });
    expect(body.data.prizes.map((p) => p.name)).toEqual(['谢谢参与', '10 积分', '50 积分', '蓝牙耳机']);
  });
});

describe('lottery: chances, draws, gifts', () => {
  it('draws: a chance used, the cost debited, the prize credited and recorded', async () => {
    const b = await buyer(t, 719, 10_000);
    expect((await chances(b.token)).body.data).toMatchObject({ granted: 3, used: 0, left: 3, shared: false });
    const { body } = await draw(b.token);
    expect(body.code).toBe(200);
    expect(body.data.left).toBe(2);
    const won = body.data.prize;
    const credit = won.kind === 'points' ? won.amount : 0;
    expect(await getBalance(t, { siteId: 719, memberId: b.id })).toBe(10_000 - 100 + credit);
    const list = (await gifts(b.token)).body.data.list;
    if (body.data.won) expect(list).toMatchObject([{ prizeName: won.name, status: credit ? 1 : 0 }]);
    else expect(list).toEqual([]);
  });

  it('a share adds the bonus once per day', async () => {
    const b = await buyer(t, 719, 0);
    const first = await api.post<Chances>(lotteryApi.share.path, { siteId: 719 }, b.token);
    expect(first.body).toMatchObject({
      msg: LOTTERY_MSG.shared,
      data: { granted: 4, left: 4, shared: true },
    });
    const again = await api.post<Chances>(lotteryApi.share.path, { siteId: 719 }, b.token);
    expect(again.body).toMatchObject({ msg: LOTTERY_MSG.sharedBefore, data: { granted: 4 } });
  });

  it('a paid order adds one chance, once; an unpaid one none', async () => {
    const b = await buyer(t, 719, 1_000_000);
    const [spec] = await pickSpecs(t.db, 719, { virtual: true, stock: 100 });
    const submit = await api.post<{ orderNo: string }>(
      orderApi.submitOrder.path,
      { siteId: 719, productInfos: [{ productId: spec!.productId, specificationId: spec!.specificationId }] },
      b.token,
    );
    const { orderNo } = submit.body.data;
    const add = () => api.post<Chances>(lotteryApi.addChance.path, { siteId: 719, orderNo }, b.token);
    expect((await add()).body.msg).toBe(LOTTERY_MSG.orderNotPaid);
    await api.post(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'ye' }, b.token);
    expect((await add()).body).toMatchObject({ code: 200, data: { granted: 4 } });
    expect((await add()).body.msg).toBe(LOTTERY_MSG.orderUsed);
  });

  it('a spent balance is refused and keeps the chance', async () => {
    const b = await buyer(t, 719, 50);
    const { body } = await draw(b.token);
    expect(body).toMatchObject({ code: 500, msg: '积分余额不足' });
    expect((await chances(b.token)).body.data.left).toBe(3);
  });

  it('refuses an uninvited member with the invited-only answer; an invited one draws', async () => {
    const b = await buyer(t, 719, 0);
    const { body } = await chances(b.token, 'cj002');
    expect(body).toMatchObject({
      code: 500,
      msg: MSG.invitedOnly,
      data: { authErrUrl: expect.stringContaining('authErr') },
    });
    expect((await draw(b.token, 'cj002')).body.msg).toBe(MSG.invitedOnly);
    const [invited] = await quickMembers(t, 719, 1);
    await t.db.execute(
      sql`insert into mkt_white_user (site_id, activity_id, white_code, member_id) select 719, id, 'W-test', ${invited!.id} from mkt_activity where site_id = 719 and code = 'cj002'`,
    );
    expect((await draw(invited!.token, 'cj002')).body.code).toBe(200);
  });

  it('refuses before the start and after the end with the timing', async () => {
    const b = await buyer(t, 719, 0);
    const hour = 3_600_000;
    await makeLottery(t.db, {
      siteId: 719,
      code: 'late',
      startAt: new Date(Date.now() - 2 * hour),
      endAt: new Date(Date.now() - hour),
      prizes: [],
    });
    expect((await draw(b.token, 'late')).body).toMatchObject({
      code: 500,
      msg: LOTTERY_MSG.ended,
      data: { timing: { status: 1 } },
    });
    await makeLottery(t.db, {
      siteId: 719,
      code: 'soon',
      startAt: new Date(Date.now() + hour),
      endAt: new Date(Date.now() + 2 * hour),
      prizes: [],
    });
    expect((await draw(b.token, 'soon')).body).toMatchObject({
      msg: LOTTERY_MSG.notStarted,
      data: { timing: { status: -1 } },
    });
  });
});

describe('lottery: races', () => {
  it('50 parallel draws with 3 chances make 3 draws and debit 3 times', async () => {
    const a = await makeLottery(t.db, {
      siteId: 719,
      code: 'race1',
      costPoints: 10,
      chances: 3,
      prizes: [{ name: '1 积分', kind: 'points', amount: 100, weight: 1 }],
    });
    const b = await buyer(t, 719, 1000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => draw(b.token, 'race1')));
    expect(answers.filter((x) => x.body.code === 200)).toHaveLength(3);
    for (const x of answers.filter((y) => y.body.code !== 200))
      expect(x.body.msg).toBe(LOTTERY_MSG.noChances);
    expect(await drawsOf(a.id)).toBe(3);
    expect(await getBalance(t, { siteId: 719, memberId: b.id })).toBe(1000 - 30 + 300);
  });

  it('a double click answers the first result and uses one chance', async () => {
    const a = await makeLottery(t.db, {
      siteId: 719,
      code: 'dbl',
      costPoints: 10,
      prizes: [{ name: '1 积分', kind: 'points', amount: 100, weight: 1 }],
    });
    const b = await buyer(t, 719, 1000);
    const answers = await Promise.all(Array.from({ length: 5 }, () => draw(b.token, 'dbl', 'click-0001')));
    expect(new Set(answers.map((x) => x.body.data?.drawId)).size).toBe(1);
    expect(await drawsOf(a.id)).toBe(1);
    expect((await chances(b.token, 'dbl')).body.data.used).toBe(1);
    expect(await getBalance(t, { siteId: 719, memberId: b.id })).toBe(1000 - 10 + 100);
  });

  it('the last piece of a prize raced by 20 members is awarded once; the others get no prize', async () => {
    const a = await makeLottery(t.db, {
      siteId: 719,
      code: 'last1',
      prizes: [{ name: '耳机', kind: 'product', weight: 1, total: 1 }],
    });
    const members = await quickMembers(t, 719, 20);
    const answers = await Promise.all(members.map((m) => draw(m.token, 'last1')));
    expect(answers.every((x) => x.body.code === 200)).toBe(true);
    expect(answers.filter((x) => x.body.data.won)).toHaveLength(1);
    for (const x of answers.filter((y) => !y.body.data.won)) expect(x.body.data.prize.name).toBe('谢谢参与');
    const [prize] = await t.db
      .select()
      .from(mktPrize)
      .where(eq(mktPrize.activityId, a.id))
      .orderBy(mktPrize.sort)
      .offset(1);
    expect(prize?.remaining).toBe(0);
    const winners = await t.db.select().from(mktDraw).where(eq(mktDraw.prizeId, prize!.id));
    expect(winners).toHaveLength(1);
  });
});

describe('gift expiry', () => {
  it('moves unclaimed prizes past their deadline to -1, once; claimed ones stay', async () => {
    const [m] = await quickMembers(t, 719, 1);
    await makeLottery(t.db, {
      siteId: 719,
      code: 'gifts',
      prizes: [{ name: '台灯', kind: 'product', weight: 1 }],
    });
    expect((await draw(m!.token, 'gifts')).body.data.won).toBe(true);
    const later = new Date(Date.now() + 31 * 86_400_000);
    expect(await expireGifts(t.db)).toBe(0);
    expect(await expireGifts(t.db, later)).toBeGreaterThanOrEqual(1);
    expect(await expireGifts(t.db, later)).toBe(0);
    expect((await gifts(m!.token)).body.data.list).toMatchObject([
      { prizeName: '台灯', status: -1, statusName: '已过期' },
    ]);
  });
});

describe('pickPrize', () => {
  const prizes = [
    { id: 1, weight: 1 },
    { id: 2, weight: 0 },
    { id: 3, weight: 3 },
  ];
  it('maps every number below the total weight to a prize, by weight', () => {
    expect([0, 1, 2, 3].map((n) => pickPrize(prizes, () => n)?.id)).toEqual([1, 3, 3, 3]);
    expect(pickPrize([{ id: 1, weight: 0 }])).toBeUndefined();
  });
});
