import {
  type ActivityInfo,
  addressApi,
  type DrawResult,
  type GiftRecord,
  LOTTERY_MSG,
  lotteryApi,
  MSG,
  type WhiteUserAnswer,
} from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { NANJING } from '../order/order.fixtures';
import { getBalance } from '../points/points.service';
import { invitedLottery, makeLottery, quickMembers } from './activity.fixtures';
import { mktActivity, mktGift, mktWhiteUser } from './activity.tables';
import { expireGifts } from './lottery';

/**
 * Invited users (create white user, gift records by white code), gift claims and their expiry,
 * the marketing list and the lottery budget, through the storefront API on the real database.
 */

let t: TestApp;
let api: ReturnType<typeof client>;
const SITE = 719;

const draw = (token: string, code: string) =>
  api.post<DrawResult>(lotteryApi.start.path, { siteId: SITE, code }, token);
const createWhite = (token: string, code: string, whiteCode: string) =>
  api.get<WhiteUserAnswer>(lotteryApi.createWhiteUser.path, { siteId: String(SITE), code, whiteCode }, token);
const byWhiteCode = (code: string, whiteCode: string) =>
  api.post<{ list: GiftRecord[] }>(lotteryApi.giftRecordsByWhiteCode.path, { siteId: SITE, code, whiteCode });

beforeAll(async () => {
  t = await testApp();
  api = client(t);
});
afterAll(() => t.close());

describe(`GET ${lotteryApi.createWhiteUser.path}`, () => {
  it('binds a loaded white code to the member, who may then draw; a second member is refused', async () => {
    const a = await invitedLottery(t.db, { siteId: SITE, code: 'inv1' });
    await t.db.insert(mktWhiteUser).values({ siteId: SITE, activityId: a.id, whiteCode: 'W-0001' });
    const [m, other] = await quickMembers(t, SITE, 2);
    expect((await draw(m!.token, 'inv1')).body).toMatchObject({ code: 500, msg: MSG.invitedOnly });

    const bound = await createWhite(m!.token, 'inv1', 'W-0001');
    expect(bound.body).toMatchObject({
      code: 200,
      data: { activityId: a.id, code: 'inv1', whiteCode: 'W-0001', invited: true },
    });
    // Again by the same member: still theirs.
    expect((await createWhite(m!.token, 'inv1', 'W-0001')).body.code).toBe(200);
    expect((await draw(m!.token, 'inv1')).body).toMatchObject({ code: 200, data: { won: true } });

    const taken = await createWhite(other!.token, 'inv1', 'W-0001');
    expect(taken.body).toMatchObject({ code: 500, msg: LOTTERY_MSG.whiteCodeTaken });
    const [row] = await t.db.select().from(mktWhiteUser).where(eq(mktWhiteUser.whiteCode, 'W-0001'));
    expect(row?.memberId).toBe(m!.id);
  });

  it('answers a code not loaded with the invited-only refusal and its authErrUrl', async () => {
    await invitedLottery(t.db, { siteId: SITE, code: 'inv2' });
    const [m] = await quickMembers(t, SITE, 1);
    const { body } = await createWhite(m!.token, 'inv2', 'NOPE-1');
    expect(body).toMatchObject({ code: 500, msg: MSG.invitedOnly });
    expect((body.data as unknown as { authErrUrl: string }).authErrUrl).toContain('authErr=invited');
  });

  it('needs a member and a well-formed code', async () => {
    expect(
      (await api.get(lotteryApi.createWhiteUser.path, { siteId: String(SITE), whiteCode: 'W-1' })).body.code,
    ).toBe(401);
    const [m] = await quickMembers(t, SITE, 1);
    expect((await createWhite(m!.token, 'inv2', '<script>')).body.code).toBe(400);
  });

  it('binds a code raced by two members to one of them', async () => {
    const a = await invitedLottery(t.db, { siteId: SITE, code: 'inv3' });
    await t.db.insert(mktWhiteUser).values({ siteId: SITE, activityId: a.id, whiteCode: 'RACE-1' });
    const members = await quickMembers(t, SITE, 6);
    const answers = await Promise.all(members.map((m) => createWhite(m.token, 'inv3', 'RACE-1')));
    expect(answers.filter((x) => x.body.code === 200)).toHaveLength(1);
    expect(answers.filter((x) => x.body.msg === LOTTERY_MSG.whiteCodeTaken)).toHaveLength(5);
  });
});

describe(`POST ${lotteryApi.giftRecordsByWhiteCode.path}`, () => {
  it("lists the prizes of the code's member in the activity; none before anyone takes the code", async () => {
    const a = await invitedLottery(t.db, { siteId: SITE, code: 'inv4' });
    await t.db.insert(mktWhiteUser).values([
      { siteId: SITE, activityId: a.id, whiteCode: 'G-1' },
      { siteId: SITE, activityId: a.id, whiteCode: 'G-2' },
    ]);
    const [m] = await quickMembers(t, SITE, 1);
    await createWhite(m!.token, 'inv4', 'G-1');
    await draw(m!.token, 'inv4');
    expect((await byWhiteCode('inv4', 'G-1')).body.data.list).toMatchObject([
      { prizeName: '台灯', status: 0, statusName: '待领取', address: null },
    ]);
    expect((await byWhiteCode('inv4', 'G-2')).body).toMatchObject({ code: 200, data: { list: [] } });
    expect((await byWhiteCode('inv4', 'G-3')).body).toMatchObject({ code: 500, msg: MSG.invitedOnly });
  });
});

describe(`POST ${lotteryApi.claimGift.path} and the gift deadline job`, () => {
  async function wonGift(code: string) {
    await makeLottery(t.db, { siteId: SITE, code, prizes: [{ name: '保温杯', kind: 'product', weight: 1 }] });
    const [m] = await quickMembers(t, SITE, 1);
    const won = await draw(m!.token, code);
    expect(won.body.data.won).toBe(true);
    const address = await api.post<{ id: number }>(
      addressApi.save.path,
      { siteId: SITE, ...NANJING },
      m!.token,
    );
    const [gift] = await t.db.select().from(mktGift).where(eq(mktGift.drawId, won.body.data.drawId));
    return { member: m!, giftId: gift!.id, addressId: address.body.data.id };
  }
  const claim = (token: string, giftId: number, addressId: number) =>
    api.post<GiftRecord>(lotteryApi.claimGift.path, { siteId: SITE, giftId, addressId }, token);

  it('claims a physical prize with an address once (0 → 1); a second claim is refused', async () => {
    const g = await wonGift('claim1');
    const answers = await Promise.all([1, 2, 3].map(() => claim(g.member.token, g.giftId, g.addressId)));
    expect(answers.filter((x) => x.body.code === 200)).toHaveLength(1);
    expect(answers.filter((x) => x.body.msg === LOTTERY_MSG.giftNotClaimable)).toHaveLength(2);
    const ok = answers.find((x) => x.body.code === 200)!;
    expect(ok.body.data).toMatchObject({
      status: 1,
      statusName: '已领取',
      address: { consignee: NANJING.consignee, phone: NANJING.phone },
    });
    expect(ok.body.data.address?.address).toContain(NANJING.detail);
  });

  it("refuses another member's gift and an expired one", async () => {
    const g = await wonGift('claim2');
    const [other] = await quickMembers(t, SITE, 1);
    expect((await claim(other!.token, g.giftId, g.addressId)).body.msg).toBe(LOTTERY_MSG.giftNotFound);
    await expireGifts(t.db, new Date(Date.now() + 31 * 86_400_000));
    expect((await claim(g.member.token, g.giftId, g.addressId)).body.msg).toBe(LOTTERY_MSG.giftNotClaimable);
  });

  it('the deadline job run twice in parallel (two processes) expires each gift once', async () => {
    const g = await wonGift('claim3');
    const later = new Date(Date.now() + 31 * 86_400_000);
    const moved = await Promise.all([expireGifts(t.db, later), expireGifts(t.db, later)]);
    const [gift] = await t.db.select().from(mktGift).where(eq(mktGift.id, g.giftId));
    expect(gift?.status).toBe(-1);
    // Each expired gift was counted by exactly one of the two runs.
    expect(moved[0]! + moved[1]!).toBeGreaterThanOrEqual(1);
    expect(await expireGifts(t.db, later)).toBe(0);
  });

  it('a claimed gift is never expired by the job', async () => {
    const g = await wonGift('claim4');
    await claim(g.member.token, g.giftId, g.addressId);
    await expireGifts(t.db, new Date(Date.now() + 31 * 86_400_000));
    const [gift] = await t.db.select().from(mktGift).where(eq(mktGift.id, g.giftId));
    expect(gift?.status).toBe(1);
  });
});

describe(`POST ${lotteryApi.marketingList.path}`, () => {
  it("pages the site's marketing activities, filtered by type", async () => {
    const { body } = await api.post<{ list: ActivityInfo[]; total: number; pageSize: number }>(
      lotteryApi.marketingList.path,
      { siteId: SITE, type: 1 },
    );
    expect(body.code).toBe(200);
    expect(body.data.pageSize).toBe(10);
    expect(body.data.total).toBeGreaterThanOrEqual(2);
    expect(body.data.list.every((a) => a.type === 1)).toBe(true);
    expect(body.data.list.map((a) => a.code)).toContain('cj001');
    // Type 2: the site's bargain activities, from the bargain tables (marketing.test.ts).
    const bargains = await api.post<{ list: ActivityInfo[] }>(lotteryApi.marketingList.path, {
      siteId: SITE,
      type: 2,
    });
    expect(bargains.body.data.list.every((a) => a.type === 2)).toBe(true);
    const other = await api.post<{ list: ActivityInfo[] }>(lotteryApi.marketingList.path, { siteId: 1000 });
    expect(other.body.data.list.map((a) => a.code)).not.toContain('inv1');
  });
});

describe('lottery budget', () => {
  it('gives no points prize past the budget, and never overspends under parallel draws', async () => {
    const a = await makeLottery(t.db, {
      siteId: SITE,
      code: 'budget1',
      chances: 1,
      prizes: [{ name: '5 积分', kind: 'points', amount: 500, weight: 1 }],
    });
    await t.db.update(mktActivity).set({ budget: 1500 }).where(eq(mktActivity.id, a.id));
    const members = await quickMembers(t, SITE, 8);
    const answers = await Promise.all(members.map((m) => draw(m.token, 'budget1')));
    expect(answers.every((x) => x.body.code === 200)).toBe(true);
    expect(answers.filter((x) => x.body.data.won)).toHaveLength(3);
    const [row] = await t.db.select().from(mktActivity).where(eq(mktActivity.id, a.id));
    expect(row?.budgetUsed).toBe(1500);
    const balances = await Promise.all(members.map((m) => getBalance(t, { siteId: SITE, memberId: m.id })));
    expect(balances.reduce((s, b) => s + b, 0)).toBe(1500);
  });
});
