import {
  BARGAIN_MSG,
  BARGAIN_STATUS,
  type BargainActivityCard,
  type BargainView,
  bargainApi,
  type HelpResult,
  ORDER_TYPE_BARGAIN,
  orderApi,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsOf, type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { expireOrders } from '../order/expiry';
import { buyer, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { quickMembers } from './activity.fixtures';
import { cutOf, expireBargains } from './bargain';
import { makeBargain } from './bargain.fixtures';
import { bargainHelp, bargainRecord } from './bargain.tables';

let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;

const start = (token: string, activityId: number) =>
  api.post<BargainView>(bargainApi.start.path, { siteId: 719, activityId }, token);
const help = (token: string, id: number) =>
  api.post<HelpResult>(bargainApi.help.path, { siteId: 719, id }, token);
const view = (id: number, token?: string) =>
  api.post<BargainView>(bargainApi.view.path, { siteId: 719, id }, token);
const buy = (token: string, bargainId: number, extra: Record<string, unknown> = {}) =>
  api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      orderType: ORDER_TYPE_BARGAIN,
      bargainId,
      productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num: 1 }],
      ...extra,
    },
    token,
  );

async function recordRow(id: number) {
  const [row] = await t.db.select().from(bargainRecord).where(eq(bargainRecord.id, id));
  return row!;
}
async function helpsOf(id: number) {
  return t.db.select().from(bargainHelp).where(eq(bargainHelp.recordId, id));
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  [spec] = (await pickSpecs(t.db, 719, { virtual: true, stock: 1000 })) as [PickedSpec];
  expect(spec.price).toBeGreaterThan(20);
});
afterAll(() => t.close());

describe('bargain: list, start, view', () => {
  it('lists the demo bargain of the site with its timing', async () => {
    const { body } = await api.post<{ list: BargainActivityCard[] }>(bargainApi.list.path, { siteId: 719 });
    expect(body.code).toBe(200);
    expect(body.data.list.length).toBeGreaterThanOrEqual(1);
    expect(body.data.list[0]).toMatchObject({ timing: { status: 0 }, mine: null });
    expect(body.data.list[0]!.floorPrice).toBeLessThan(body.data.list[0]!.price);
  });

  it('starts one open bargain per member and product, also in parallel', async () => {
    const a = await makeBargain(t.db, { ...spec, siteId: 719, floorPrice: spec.price - 10 });
    const owner = await buyer(t, 719);
    const answers = await Promise.all([
      start(owner.token, a.id),
      start(owner.token, a.id),
      start(owner.token, a.id),
    ]);
    const ids = new Set(answers.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    expect(answers.map((r) => r.body.code)).toEqual([200, 200, 200]);
    expect(answers.filter((r) => r.body.msg === BARGAIN_MSG.started)).toHaveLength(1);
    const first = answers[0]!.body.data;
    expect(first).toMatchObject({
      startPrice: spec.price,
      price: spec.price,
      floorPrice: spec.price - 10,
      status: BARGAIN_STATUS.inProgress,
      statusName: '砍价中',
      mine: true,
      helpers: [],
    });
    expect(first.timing.endTimeStamp - first.timing.startTimeStamp).toBe(24 * 3_600_000);
    // The list shows it as the member's; a visitor sees the view, not as theirs.
    const list = await api.post<{ list: BargainActivityCard[] }>(
      bargainApi.list.path,
      { siteId: 719 },
      owner.token,
    );
    expect(list.body.data.list.find((c) => c.id === a.id)?.mine).toBe(first.id);
    expect((await view(first.id)).body.data).toMatchObject({ id: first.id, mine: false, helped: false });
    // Another site's bargain is not found here.
    expect((await api.post(bargainApi.view.path, { siteId: 1000, id: first.id })).body.msg).toBe(
      BARGAIN_MSG.recordNotFound,
    );
  });

  it('refuses an activity not started yet, with its timing', async () => {
    const startAt = new Date(Date.now() + 3_600_000);
    const a = await makeBargain(t.db, { ...spec, siteId: 719, floorPrice: 1, startAt });
    const { body } = await start((await buyer(t, 719)).token, a.id);
    expect(body).toMatchObject({ code: 500, msg: BARGAIN_MSG.notStarted, data: { timing: { status: -1 } } });
  });
});

describe('bargain: help', () => {
  it('cuts within the bounds once per helper; the owner cannot help; nothing changes on refusal', async () => {
    const a = await makeBargain(t.db, { ...spec, siteId: 719, floorPrice: 1, cutMin: 2, cutMax: 5 });
    const owner = await buyer(t, 719);
    const id = (await start(owner.token, a.id)).body.data.id;
    expect((await help(owner.token, id)).body).toMatchObject({ code: 500, msg: BARGAIN_MSG.self });
    const [h] = await quickMembers(t, 719, 1);
    const first = await help(h!.token, id);
    expect(first.body.code).toBe(200);
    expect(first.body.data.cut).toBeGreaterThanOrEqual(2);
    expect(first.body.data.cut).toBeLessThanOrEqual(5);
    expect(first.body.data.bargain).toMatchObject({
      price: spec.price - first.body.data.cut,
      helpCount: 1,
      helped: true,
    });
    expect(first.body.data.bargain.helpers).toEqual([
      expect.objectContaining({ cut: first.body.data.cut, name: expect.stringContaining('****') }),
    ]);
    expect((await help(h!.token, id)).body).toMatchObject({ code: 500, msg: BARGAIN_MSG.helped });
    expect(await recordRow(id)).toMatchObject({ price: spec.price - first.body.data.cut, helpCount: 1 });
  });

  it('a helper helping twice in parallel cuts once', async () => {
    const a = await makeBargain(t.db, { ...spec, siteId: 719, floorPrice: 1 });
    const id = (await start((await buyer(t, 719)).token, a.id)).body.data.id;
    const [h] = await quickMembers(t, 719, 1);
    const answers = await Promise.all(Array.from({ length: 6 }, () => help(h!.token, id)));
    expect(answers.filter((r) => r.body.code === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.body.msg === BARGAIN_MSG.helped)).toHaveLength(5);
    const helps = await helpsOf(id);
    expect(helps).toHaveLength(1);
    expect((await recordRow(id)).price).toBe(spec.price - helps[0]!.cut);
  });

  it('keeps each helper within the quota per day', async () => {
    const a = await makeBargain(t.db, { ...spec, siteId: 719, floorPrice: 1, helperDailyQuota: 1 });
    const [o1, o2] = await quickMembers(t, 719, 2);
    const id1 = (await start(o1!.token, a.id)).body.data.id;
    const id2 = (await start(o2!.token, a.id)).body.data.id;
    const [h] = await quickMembers(t, 719, 1);
    expect((await help(h!.token, id1)).body.code).toBe(200);
    expect((await help(h!.token, id2)).body).toMatchObject({ code: 500, msg: BARGAIN_MSG.quota(1) });
    expect(await helpsOf(id2)).toHaveLength(0);
    expect((await recordRow(id2)).price).toBe(spec.price);
  });

  it('succeeds when enough members helped, then takes no more help', async () => {
    const a = await makeBargain(t.db, {
      ...spec,
      siteId: 719,
      floorPrice: 1,
      helpMax: 2,
      cutMin: 1,
      cutMax: 1,
    });
    const id = (await start((await buyer(t, 719)).token, a.id)).body.data.id;
    const helpers = await quickMembers(t, 719, 3);
    await help(helpers[0]!.token, id);
    const second = await help(helpers[1]!.token, id);
    expect(second.body.data.bargain).toMatchObject({ status: BARGAIN_STATUS.success, price: spec.price - 2 });
    expect((await help(helpers[2]!.token, id)).body).toMatchObject({ code: 500, msg: BARGAIN_MSG.done });
  });

  it('names the owner and every helper, masked, in as many statements for 1 helper as for 5', async () => {
    const a = await makeBargain(t.db, {
      ...spec,
      siteId: 719,
      floorPrice: 1,
      helpMax: 100,
      cutMin: 1,
      cutMax: 1,
    });
    const owner = await buyer(t, 719);
    const id = (await start(owner.token, a.id)).body.data.id;
    const helpers = await quickMembers(t, 719, 5);
    await help(helpers[0]!.token, id);
    await view(id); // the caches and prepared statements warm up
    let one: BargainView | undefined;
    const withOne = await statementsOf(async () => {
      one = (await view(id)).body.data;
    });
    for (const h of helpers.slice(1)) await help(h.token, id);
    let five: BargainView | undefined;
    const withFive = await statementsOf(async () => {
      five = (await view(id)).body.data;
    });
    expect(one?.helpers).toHaveLength(1);
    expect(five?.helpers).toHaveLength(5);
    expect(five?.helpers.every((h) => /^\d{3}\*{4}\d+$/.test(h.name))).toBe(true);
    expect(five?.ownerName).toMatch(/^\d{3}\*{4}\d+$/);
    expect(withFive).toHaveLength(withOne.length);
  });

  it('20 helpers racing the last cut never take the price below the floor', async () => {
    const floorPrice = spec.price - 5;
    const a = await makeBargain(t.db, {
      ...spec,
      siteId: 719,
      floorPrice,
      helpMax: 100,
      cutMin: 1,
      cutMax: 3,
    });
    const id = (await start((await buyer(t, 719)).token, a.id)).body.data.id;
    const helpers = await quickMembers(t, 719, 20);
    const answers = await Promise.all(helpers.map((h) => help(h.token, id)));
    const won = answers.filter((r) => r.body.code === 200);
    expect(won.length).toBeGreaterThanOrEqual(2);
    expect(won.length).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.body.code !== 200).every((r) => r.body.msg === BARGAIN_MSG.done)).toBe(
      true,
    );
    const row = await recordRow(id);
    expect(row).toMatchObject({ price: floorPrice, status: BARGAIN_STATUS.success, helpCount: won.length });
    const helps = await helpsOf(id);
    expect(helps.reduce((s, h) => s + h.cut, 0)).toBe(5);
    expect(helps.every((h) => h.cut >= 1)).toBe(true);
  });

  it('chooses a cut between the bounds, never past the floor', () => {
    for (let i = 0; i < 200; i += 1) {
      const cut = cutOf({ cutMin: 3, cutMax: 7 }, 1000, 0);
      expect(cut).toBeGreaterThanOrEqual(3);
      expect(cut).toBeLessThanOrEqual(7);
    }
    expect(cutOf({ cutMin: 3, cutMax: 7 }, 102, 100)).toBe(2);
  });
});

describe('bargain: buy and expiry', () => {
  it('buys a successful bargain once at its price, gets it back when the unpaid order ends', async () => {
    const a = await makeBargain(t.db, {
      ...spec,
      siteId: 719,
      floorPrice: 10,
      helpMax: 1,
      cutMin: 7,
      cutMax: 7,
    });
    const owner = await buyer(t, 719);
    const id = (await start(owner.token, a.id)).body.data.id;
    expect((await buy(owner.token, id)).body).toMatchObject({ code: 500, msg: BARGAIN_MSG.notSuccess });
    const [h] = await quickMembers(t, 719, 1);
    expect((await help(h!.token, id)).body.data.bargain.status).toBe(BARGAIN_STATUS.success);
    // Somebody else's bargain, two pieces, a voucher: refused.
    expect((await buy(h!.token, id)).body.msg).toBe(BARGAIN_MSG.notYours);
    const two = await buy(owner.token, id, {
      productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num: 2 }],
    });
    expect(two.body.msg).toBe(BARGAIN_MSG.oneLine);
    // Any price the client sends is ignored.
    const order = await buy(owner.token, id, { price: 1, payAmount: 1 });
    expect(order.body).toMatchObject({ code: 200, data: { payAmount: spec.price - 7 } });
    expect(await recordRow(id)).toMatchObject({
      status: BARGAIN_STATUS.ordered,
      orderNo: order.body.data.orderNo,
    });
    expect((await buy(owner.token, id)).body.msg).toBe(BARGAIN_MSG.ordered);
    // Cancelled unpaid: the bargain may be bought again.
    await api.post(orderApi.cancelOrder.path, { siteId: 719, orderNo: order.body.data.orderNo }, owner.token);
    expect(await recordRow(id)).toMatchObject({ status: BARGAIN_STATUS.success, orderNo: null });
    const again = await buy(owner.token, id);
    expect(again.body.data.payAmount).toBe(spec.price - 7);
    // Expired unpaid: the same.
    await expireOrders(t.db, new Date(Date.now() + 31 * 60_000));
    expect((await recordRow(id)).status).toBe(BARGAIN_STATUS.success);
  });

  it('fails past its deadline: no help, no purchase, and a new one may start', async () => {
    const a = await makeBargain(t.db, { ...spec, siteId: 719, floorPrice: 1, hours: 1 });
    const owner = await buyer(t, 719);
    const id = (await start(owner.token, a.id)).body.data.id;
    await t.db
      .update(bargainRecord)
      .set({ expireAt: sql`now() - interval '1 second'` })
      .where(eq(bargainRecord.id, id));
    expect((await view(id)).body.data).toMatchObject({
      status: BARGAIN_STATUS.failed,
      statusName: '砍价失败',
    });
    const [h] = await quickMembers(t, 719, 1);
    expect((await help(h!.token, id)).body.msg).toBe(BARGAIN_MSG.expired);
    expect((await buy(owner.token, id)).body.msg).toBe(BARGAIN_MSG.expired);
    expect(await expireBargains(t.db)).toBeGreaterThanOrEqual(1);
    expect((await recordRow(id)).status).toBe(BARGAIN_STATUS.failed);
    expect(await expireBargains(t.db)).toBe(0);
    const next = await start(owner.token, a.id);
    expect(next.body).toMatchObject({ code: 200, msg: BARGAIN_MSG.started });
    expect(next.body.data.id).not.toBe(id);
  });
});
