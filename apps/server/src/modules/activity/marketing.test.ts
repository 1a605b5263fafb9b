import { type ActivityInfo, LOTTERY_MSG, lotteryApi } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { pickSpecs } from '../order/order.fixtures';
import { makeLottery } from './activity.fixtures';
import { bargainActivity } from './bargain.tables';

/**
 * Marketing activities of both spec types on the real database: type 1 the lotteries, type 2
 * the bargain activities answered from the bargain tables (an edit there shows at once, a
 * disabled one is gone), each with its storefront link; list, get by id and type, and the paged
 * marketing list with its type filter and total; another site's activity not found.
 */

let t: TestApp;
let api: ReturnType<typeof client>;
const SITE = 1000;
const DAY = 86_400_000;

type Page = { list: ActivityInfo[]; total: number; pageNum: number; pageSize: number };
/** A bargain activity of the site on one of its products, open in the given window. */
async function insertBargain(name: string, window: { start: Date; end: Date }) {
  const [spec] = await pickSpecs(t.db, SITE, { count: 1 });
  const [made] = await t.db
    .insert(bargainActivity)
    .values({
      siteId: SITE,
      name,
      productId: spec!.productId,
      specificationId: spec!.specificationId,
      floorPrice: 1,
      helpMax: 2,
      cutMin: 1,
      cutMax: 2,
      startAt: window.start,
      endAt: window.end,
    })
    .returning();
  return made!;
}

const marketing = (body: Record<string, unknown>) =>
  api.post<Page>(lotteryApi.marketingList.path, { siteId: SITE, ...body });

beforeAll(async () => {
  t = await testApp();
  api = client(t);
});
afterAll(() => t.close());

describe('bargain activities as marketing activity type 2', () => {
  it('answers bargains from the bargain tables in list, get and marketing list, with their links', async () => {
    const made = await insertBargain('类型二砍价', {
      start: new Date(Date.now() - DAY),
      end: new Date(Date.now() + DAY),
    });
    const lottery = await makeLottery(t.db, { siteId: SITE, code: 'mk-1', prizes: [] });

    const list = (await api.post<{ list: ActivityInfo[] }>(lotteryApi.list.path, { siteId: SITE })).body.data
      .list;
    const bargain = list.find((a) => a.type === 2 && a.id === made!.id);
    expect(bargain).toMatchObject({
      name: '类型二砍价',
      code: '',
      invitedOnly: false,
      link: `/bargain#bargain-activity-${made!.id}`,
      timing: { status: 0 },
    });
    expect(list.find((a) => a.type === 1 && a.id === lottery.id)?.link).toBe('/lottery?code=mk-1');
    // Every bargain row of the site is there, and nothing typed 2 comes from elsewhere.
    const rows = await t.db
      .select({ id: bargainActivity.id })
      .from(bargainActivity)
      .where(and(eq(bargainActivity.siteId, SITE), eq(bargainActivity.enabled, true)));
    expect(
      list
        .filter((a) => a.type === 2)
        .map((a) => a.id)
        .sort(),
    ).toEqual(rows.map((r) => r.id).sort());

    // Get by id and type: the bargain with type 2; the same id as type 1 is another table.
    const got = await api.post<ActivityInfo>(lotteryApi.get.path, { siteId: SITE, id: made!.id, type: 2 });
    expect(got.body.data).toMatchObject({ id: made!.id, type: 2, name: '类型二砍价' });
    const lotteryGot = await api.post<ActivityInfo>(lotteryApi.get.path, { siteId: SITE, id: lottery.id });
    expect(lotteryGot.body.data).toMatchObject({ type: 1, code: 'mk-1' });

    // The marketing list of type 2: the bargains only, counted; without a type both kinds.
    const typed = await marketing({ type: 2 });
    expect(typed.body.data.list.every((a) => a.type === 2)).toBe(true);
    expect(typed.body.data.total).toBe(rows.length);
    expect(typed.body.data.list.map((a) => a.id)).toContain(made!.id);
    const both = await marketing({});
    expect(new Set(both.body.data.list.map((a) => a.type))).toEqual(new Set([1, 2]));
    const lotteries = await marketing({ type: 1 });
    expect(both.body.data.total).toBe(lotteries.body.data.total + rows.length);

    // An edit in the bargain table shows at once; a disabled bargain is gone (not a copy).
    await t.db.update(bargainActivity).set({ name: '改名砍价' }).where(eq(bargainActivity.id, made!.id));
    expect(
      (await api.post<ActivityInfo>(lotteryApi.get.path, { siteId: SITE, id: made!.id, type: 2 })).body.data
        .name,
    ).toBe('改名砍价');
    await t.db.update(bargainActivity).set({ enabled: false }).where(eq(bargainActivity.id, made!.id));
    const gone = await api.post(lotteryApi.get.path, { siteId: SITE, id: made!.id, type: 2 });
    expect(gone.body).toMatchObject({ code: 500, msg: LOTTERY_MSG.notFound });
    expect((await marketing({ type: 2 })).body.data.total).toBe(rows.length - 1);
  });

  it('pages ended activities after running ones, and refuses bad input and another site', async () => {
    const ended = await insertBargain('已结束砍价', {
      start: new Date(Date.now() - 3 * DAY),
      end: new Date(Date.now() - 2 * DAY),
    });
    const { list } = (await marketing({ type: 2 })).body.data;
    const at = list.findIndex((a) => a.id === ended!.id);
    expect(list[at]?.timing.status).toBe(1);
    expect(list.slice(0, at).every((a) => a.timing.status !== 1)).toBe(true);
    for (const bad of [{ type: 3 }, { type: 0 }, { pageNum: 0 }])
      expect((await marketing(bad)).body.code, JSON.stringify(bad)).toBe(400);
    expect((await api.post(lotteryApi.get.path, { siteId: SITE, id: ended!.id, type: 5 })).body.code).toBe(
      400,
    );
    const foreign = await api.post(lotteryApi.get.path, { siteId: 719, id: ended!.id, type: 2 });
    expect(foreign.body).toMatchObject({ code: 500, msg: LOTTERY_MSG.notFound });
  });
});
