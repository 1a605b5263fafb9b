import {
  ACTIVITY_ADMIN_MSG,
  ADMIN_API_PREFIX,
  ADMIN_MSG,
  addressApi,
  adminActivityApi,
  CODE,
  type DrawResult,
  type Endpoint,
  lotteryApi,
  MSG,
  ORDER_TYPE_SECKILL,
  orderApi,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { and, count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATORS } from '../../db/demo/operators';
import { DEMO_SITES } from '../../db/demo/sites';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, holds } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import type { client } from '../identity/identity.fixtures';
import { lineOf, NANJING, pickSpecs } from '../order/order.fixtures';
import { consoleTime, makeLottery, quickMembers } from './activity.fixtures';
import {
  mktActivity,
  mktPrize,
  mktWhiteUser,
  seckillActivity,
  seckillSession,
  seckillSku,
} from './activity.tables';
import { WHITE_ROW_MSG } from './white-users';

/**
 * The console's activity screens on the real database: flash-sale sessions and activities with
 * live stock, lottery activities and prizes, invited users by CSV, draws, gifts and their
 * delivery sheet, results; each write audited; every route × demo operator × demo site allowed
 * or 403 as the permission table says, a refused write changing nothing.
 */

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let shop: ReturnType<typeof client>;
let tokens: Record<string, string>;
const SITE = 719;
const DAY = 86_400_000;

const call = <E extends Endpoint>(e: E, payload: Record<string, unknown>, who = 'op719') =>
  admin.call(e, payload, tokens[who]);

async function auditCount(action?: string) {
  const [row] = await t.db
    .select({ n: count() })
    .from(auditLog)
    .where(action ? eq(auditLog.action, action) : undefined);
  return row?.n ?? 0;
}

beforeAll(async () => {
  ({ t, admin, shop, tokens } = await consoleApp());
});
afterAll(() => t.close());

describe('console: lottery activities, prizes, invited users, draws, gifts, results', () => {
  it('creates an invited-only lottery with a prize, imports invited users, and shows a draw in the results', async () => {
    const created = await call(adminActivityApi.saveLottery, {
      siteId: SITE,
      code: 'vip01',
      type: 1,
      name: '贵宾抽奖',
      startAt: consoleTime(-DAY),
      endAt: consoleTime(7 * DAY),
      audience: 'invited',
      costPoints: 0,
      chances: 2,
      period: 'activity',
      shareBonus: 0,
    });
    expect(created.body).toMatchObject({ code: 200, data: { code: 'vip01', timing: { status: 0 } } });
    const activityId = created.body.data.id;
    const prize = await call(adminActivityApi.savePrize, {
      siteId: SITE,
      activityId,
      name: '电饭煲',
      kind: 'product',
      weight: 1,
      total: 5,
    });
    expect(prize.body.data.prizes).toMatchObject([{ name: '电饭煲', total: 5, remaining: 5 }]);

    const [m] = await quickMembers(t, SITE, 1);
    const csv = 'whiteCode,phone\nVIP-001,\nVIP-002,13800000000\nbad code!,\nVIP-003,12345\nVIP-001,\n\n';
    const importCsv = () =>
      call(adminActivityApi.importWhiteUsers, { siteId: SITE, activityId, fileName: 'vip.csv', text: csv });
    const imported = await importCsv();
    expect(imported.body.data).toMatchObject({ created: 2, existing: 0, errors: 3 });
    expect(imported.body.data.rows).toEqual([
      { line: 2, whiteCode: 'VIP-001', phone: '', result: 'created', detail: '已导入' },
      { line: 3, whiteCode: 'VIP-002', phone: '13800000000', result: 'created', detail: '已导入' },
      { line: 4, whiteCode: 'bad code!', phone: '', result: 'error', detail: WHITE_ROW_MSG.code },
      { line: 5, whiteCode: 'VIP-003', phone: '12345', result: 'error', detail: WHITE_ROW_MSG.phone },
      { line: 6, whiteCode: 'VIP-001', phone: '', result: 'error', detail: WHITE_ROW_MSG.duplicate(2) },
    ]);
    // The same file again: nothing new, every valid line "already there".
    const again = await importCsv();
    expect(again.body.data).toMatchObject({ created: 0, existing: 2, errors: 3 });
    expect(
      await t.db.select().from(mktWhiteUser).where(eq(mktWhiteUser.activityId, activityId)),
    ).toHaveLength(2);

    const listed = await call(adminActivityApi.whiteUsers, { siteId: SITE, activityId });
    expect(listed.body.data.total).toBe(2);

    // Uninvited: refused; with the imported code: a draw, seen in the console.
    const draw = () =>
      shop.post<DrawResult>(lotteryApi.start.path, { siteId: SITE, code: 'vip01' }, m!.token);
    expect((await draw()).body.msg).toBe(MSG.invitedOnly);
    await shop.get(
      lotteryApi.createWhiteUser.path,
      { siteId: String(SITE), code: 'vip01', whiteCode: 'VIP-001' },
      m!.token,
    );
    expect((await draw()).body).toMatchObject({ code: 200, data: { won: true } });

    const draws = await call(adminActivityApi.draws, { siteId: SITE, activityId });
    expect(draws.body.data).toMatchObject({
      total: 1,
      list: [{ prizeName: '电饭煲', won: true, memberId: m!.id }],
    });
    const results = await call(adminActivityApi.lotteryResults, { siteId: SITE, activityId });
    expect(results.body.data).toMatchObject({
      draws: 1,
      members: 1,
      won: 1,
      pointsSpent: 0,
      orders: 0,
      prizes: [{ name: '电饭煲', awarded: 1, remaining: 4 }],
      gifts: { toClaim: 1, claimed: 0, expired: 0 },
    });

    // Claimed with an address, then on the delivery sheet.
    const address = await shop.post<{ id: number }>(
      addressApi.save.path,
      { siteId: SITE, ...NANJING },
      m!.token,
    );
    const gifts = await call(adminActivityApi.gifts, { siteId: SITE, activityId, status: 0 });
    const giftId = gifts.body.data.list[0]!.id;
    await shop.post(
      lotteryApi.claimGift.path,
      { siteId: SITE, giftId, addressId: address.body.data.id },
      m!.token,
    );
    const claimed = await call(adminActivityApi.gifts, { siteId: SITE, activityId, status: 1 });
    expect(claimed.body.data.list).toMatchObject([
      { id: giftId, statusName: '已领取', address: { consignee: '张三' } },
    ]);
    const res = await t.app.inject({
      method: 'GET',
      url: `${ADMIN_API_PREFIX}${adminActivityApi.exportGifts.path}`,
      query: { siteId: String(SITE), activityId: String(activityId) },
      headers: { token: tokens.op719 as string },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(6).value).toBe('收货人');
    expect(sheet.getRow(2).getCell(3).value).toBe('电饭煲');
    expect(sheet.getRow(2).getCell(6).value).toBe('张三');
    expect(String(sheet.getRow(2).getCell(8).value)).toContain(NANJING.detail);

    for (const action of ['lottery.create', 'lottery.prize.create', 'lottery.white.import'])
      expect(await auditCount(action)).toBeGreaterThanOrEqual(1);
  });

  it('refuses a code taken on the site, a backwards window, and a budget change without a reason', async () => {
    const base = {
      siteId: SITE,
      type: 1,
      name: '重复',
      startAt: consoleTime(-DAY),
      endAt: consoleTime(DAY),
      audience: 'all',
      costPoints: 10,
      chances: 1,
      period: 'day',
      shareBonus: 0,
    };
    expect((await call(adminActivityApi.saveLottery, { ...base, code: 'cj001' })).body.msg).toBe(
      ACTIVITY_ADMIN_MSG.codeTaken,
    );
    expect(
      (
        await call(adminActivityApi.saveLottery, {
          ...base,
          code: 'back1',
          startAt: consoleTime(DAY),
          endAt: consoleTime(-DAY),
        })
      ).body.msg,
    ).toBe(ACTIVITY_ADMIN_MSG.badWindow);
    expect((await call(adminActivityApi.saveLottery, { ...base, code: 'bud1', budget: 1000 })).body.msg).toBe(
      ADMIN_MSG.reasonRequired,
    );
    // Type 2 is a bargain (the bargain screens), never a lottery typed 2.
    expect((await call(adminActivityApi.saveLottery, { ...base, code: 'typ2', type: 2 })).body.code).toBe(
      400,
    );
    const saved = await call(adminActivityApi.saveLottery, {
      ...base,
      code: 'bud1',
      budget: 1000,
      reason: '季度预算',
    });
    expect(saved.body.data).toMatchObject({ budget: 1000, budgetUsed: 0 });
    // No budget (absent, as the console sends an empty field) needs no reason and stays uncapped.
    const open = await call(adminActivityApi.saveLottery, { ...base, code: 'nul1' });
    expect(open.body).toMatchObject({ code: 200, data: { budget: null } });
    const unlimited = await call(adminActivityApi.savePrize, {
      siteId: SITE,
      activityId: open.body.data.id,
      name: '不限量',
      kind: 'product',
      weight: 1,
    });
    expect(unlimited.body.data.prizes).toMatchObject([{ total: null, remaining: null }]);
  });

  it('never sets a budget below the points given, nor a prize total below what was awarded', async () => {
    const a = await makeLottery(t.db, {
      siteId: SITE,
      code: 'given1',
      chances: 1,
      prizes: [{ name: '3 积分', kind: 'points', amount: 300, weight: 1, total: 2 }],
    });
    const [m] = await quickMembers(t, SITE, 1);
    await shop.post(lotteryApi.start.path, { siteId: SITE, code: 'given1' }, m!.token);
    const [row] = await t.db.select().from(mktActivity).where(eq(mktActivity.id, a.id));
    expect(row?.budgetUsed).toBe(300);
    const edit = {
      siteId: SITE,
      id: a.id,
      code: 'given1',
      type: 1,
      name: row!.name,
      startAt: consoleTime(-DAY),
      endAt: consoleTime(DAY),
      audience: 'all',
      costPoints: 0,
      chances: 1,
      period: 'activity',
      shareBonus: 0,
      reason: '收紧预算',
    };
    expect((await call(adminActivityApi.saveLottery, { ...edit, budget: 200 })).body.msg).toBe(
      ACTIVITY_ADMIN_MSG.budgetBelowUsed,
    );
    expect((await call(adminActivityApi.saveLottery, { ...edit, budget: 300 })).body.data.budget).toBe(300);
    const [prize] = await t.db
      .select()
      .from(mktPrize)
      .where(and(eq(mktPrize.activityId, a.id), eq(mktPrize.kind, 'points')));
    const savePrize = (total: number) =>
      call(adminActivityApi.savePrize, {
        siteId: SITE,
        activityId: a.id,
        id: prize!.id,
        name: '3 积分',
        kind: 'points',
        amount: 300,
        weight: 1,
        total,
      });
    expect((await savePrize(0)).body.msg).toBe(ACTIVITY_ADMIN_MSG.prizeStockBelowAwarded);
    expect((await savePrize(10)).body.data.prizes.find((p) => p.id === prize!.id)).toMatchObject({
      total: 10,
      remaining: 9,
    });
  });

  it('ends a lottery with a reason only', async () => {
    const a = await makeLottery(t.db, { siteId: SITE, code: 'end1', prizes: [] });
    expect(
      (await call(adminActivityApi.endLottery, { siteId: SITE, activityId: a.id, reason: ' ' })).body.msg,
    ).toBe(ADMIN_MSG.reasonRequired);
    const ended = await call(adminActivityApi.endLottery, {
      siteId: SITE,
      activityId: a.id,
      reason: '提前结束',
    });
    expect(ended.body.data.timing.status).toBe(1);
    expect(
      (await call(adminActivityApi.endLottery, { siteId: SITE, activityId: a.id, reason: '再来' })).body.msg,
    ).toBe(ACTIVITY_ADMIN_MSG.ended);
  });

  it("does not show another site's activity through an allowed site id", async () => {
    const [other] = await t.db.select().from(mktActivity).where(eq(mktActivity.siteId, 1000)).limit(1);
    const answer = await call(adminActivityApi.draws, { siteId: SITE, activityId: other!.id });
    expect(answer.body.msg).toBe(ACTIVITY_ADMIN_MSG.notFound);
  });
});

describe('console: flash sale', () => {
  it('creates a session and an activity, shows live stock and sold, refuses stock below sold, ends it', async () => {
    const session = await call(adminActivityApi.saveSeckillSession, {
      siteId: SITE,
      name: '全天场',
      startTime: '00:00',
      endTime: '24:00',
    });
    expect(session.body).toMatchObject({ code: 200, data: { name: '全天场', endTime: '24:00' } });
    expect(
      (
        await call(adminActivityApi.saveSeckillSession, {
          siteId: SITE,
          name: '反',
          startTime: '10:00',
          endTime: '09:00',
        })
      ).body.msg,
    ).toBe(ACTIVITY_ADMIN_MSG.badSessionTime);

    const inSale = new Set((await t.db.select().from(seckillSku)).map((s) => s.specificationId));
    const spec = (await pickSpecs(t.db, SITE, { stock: 50, count: 20 })).find(
      (s) => !inSale.has(s.specificationId),
    )!;
    const body = {
      siteId: SITE,
      name: '控制台秒杀',
      sessionIds: [session.body.data.id],
      startAt: consoleTime(-DAY),
      endAt: consoleTime(DAY),
      memberLimit: 1,
      orderLimit: 1,
      expireMinutes: 5,
      skus: [{ specificationId: spec.specificationId, price: 1, totalStock: 3 }],
    };
    const created = await call(adminActivityApi.saveSeckillActivity, body);
    expect(created.body.data).toMatchObject({
      timing: { status: 0 },
      skus: [{ specificationId: spec.specificationId, price: 1, totalStock: 3, stock: 3, sold: 0 }],
    });
    const id = created.body.data.id;

    // A member buys one: the console reads it live.
    const [m] = await quickMembers(t, SITE, 1);
    await shop.post(addressApi.save.path, { siteId: SITE, ...NANJING }, m!.token);
    const bought = await shop.post<SubmitOrderResult>(
      orderApi.submitOrder.path,
      {
        siteId: SITE,
        orderType: ORDER_TYPE_SECKILL,
        productInfos: [lineOf(spec)],
      },
      m!.token,
    );
    expect(bought.body.code).toBe(200);
    const listed = await call(adminActivityApi.seckillActivities, { siteId: SITE });
    expect(listed.body.data.list.find((a) => a.id === id)).toMatchObject({
      orders: 1,
      skus: [{ stock: 2, sold: 1 }],
    });

    const edit = (totalStock: number) =>
      call(adminActivityApi.saveSeckillActivity, {
        ...body,
        id,
        skus: [{ specificationId: spec.specificationId, price: 2, totalStock }],
      });
    expect((await edit(0)).body.msg).toBe(ACTIVITY_ADMIN_MSG.stockBelowSold);
    expect((await edit(10)).body.data.skus).toMatchObject([{ price: 2, totalStock: 10, stock: 9, sold: 1 }]);
    expect(
      (
        await call(adminActivityApi.saveSeckillActivity, {
          ...body,
          id,
          skus: [{ specificationId: 2_000_000_000, price: 1, totalStock: 1 }],
        })
      ).body.msg,
    ).toBe(ACTIVITY_ADMIN_MSG.badSpec);

    const ended = await call(adminActivityApi.endSeckillActivity, {
      siteId: SITE,
      activityId: id,
      reason: '商品下架',
    });
    expect(ended.body.data.timing.status).toBe(1);
    expect(await auditCount('seckill.activity.end')).toBeGreaterThanOrEqual(1);
  });
});

describe('console activity permission matrix', () => {
  /** Each route with a payload naming the site; writes are shaped so an allowed one changes nothing much. */
  const routes = (
    siteId: number,
    lotteryId: number,
    saleId: number,
  ): [Endpoint, Record<string, unknown>][] => {
    const window = { startAt: consoleTime(-DAY), endAt: consoleTime(DAY) };
    return [
      [adminActivityApi.seckillSessions, { siteId }],
      [adminActivityApi.saveSeckillSession, { siteId, name: '矩阵', startTime: '10:00', endTime: '09:00' }],
      [adminActivityApi.seckillActivities, { siteId }],
      [
        adminActivityApi.saveSeckillActivity,
        {
          siteId,
          name: '矩阵',
          sessionIds: [2_000_000_000],
          ...window,
          memberLimit: 1,
          orderLimit: 1,
          expireMinutes: 5,
          skus: [{ specificationId: 1, price: 1, totalStock: 1 }],
        },
      ],
      [adminActivityApi.endSeckillActivity, { siteId, activityId: saleId, reason: '矩阵测试' }],
      [adminActivityApi.lotteries, { siteId }],
      [
        adminActivityApi.saveLottery,
        {
          siteId,
          code: 'cj001',
          type: 1,
          name: '矩阵',
          ...window,
          audience: 'all',
          costPoints: 0,
          chances: 1,
          period: 'day',
          shareBonus: 0,
        },
      ],
      [adminActivityApi.endLottery, { siteId, activityId: lotteryId, reason: '矩阵测试' }],
      [
        adminActivityApi.savePrize,
        { siteId, activityId: lotteryId, id: 2_000_000_000, name: '矩阵', kind: 'none', weight: 0 },
      ],
      [adminActivityApi.draws, { siteId, activityId: lotteryId }],
      [adminActivityApi.gifts, { siteId, activityId: lotteryId }],
      [adminActivityApi.exportGifts, { siteId, activityId: lotteryId }],
      [adminActivityApi.whiteUsers, { siteId, activityId: lotteryId }],
      [
        adminActivityApi.importWhiteUsers,
        { siteId, activityId: lotteryId, fileName: 'm.csv', text: 'bad code!' },
      ],
      [adminActivityApi.addWhiteUser, { siteId, activityId: lotteryId, whiteCode: 'bad code!' }],
      [adminActivityApi.removeWhiteUser, { siteId, activityId: lotteryId, id: 2_000_000_000 }],
      [adminActivityApi.benefits, { siteId }],
      [
        adminActivityApi.saveBenefit,
        {
          siteId,
          name: '矩阵',
          specificationId: 2_000_000_000,
          total: 1,
          validDays: 1,
          ...window,
          audience: 'all',
        },
      ],
      [adminActivityApi.lotteryResults, { siteId, activityId: lotteryId }],
    ];
  };

  it('answers every route allowed or 403 as the permission table says; a refused write changes nothing', async () => {
    // An ended lottery and flash sale per site: allowed "end" answers "already ended", nothing moves.
    const targets = new Map<number, { lottery: number; sale: number }>();
    for (const { id: siteId } of DEMO_SITES) {
      const lottery = await makeLottery(t.db, {
        siteId,
        code: `mx${siteId}`,
        startAt: new Date(Date.now() - 2 * DAY),
        endAt: new Date(Date.now() - DAY),
        prizes: [],
      });
      const [sale] = await t.db
        .insert(seckillActivity)
        .values({
          siteId,
          name: '矩阵',
          sessionIds: [],
          startAt: new Date(Date.now() - 2 * DAY),
          endAt: new Date(Date.now() - DAY),
        })
        .returning();
      targets.set(siteId, { lottery: lottery.id, sale: sale!.id });
    }
    const snapshot = async () =>
      JSON.stringify([
        await auditCount(),
        await t.db.select({ n: count() }).from(mktActivity),
        await t.db.select({ n: count() }).from(mktWhiteUser),
        await t.db.select({ n: count() }).from(seckillSession),
        await t.db.select({ n: count() }).from(seckillActivity),
      ]);
    const mismatches: string[] = [];
    for (const { username } of DEMO_OPERATORS)
      for (const { id: siteId } of DEMO_SITES) {
        const target = targets.get(siteId)!;
        for (const [declared, payload] of routes(siteId, target.lottery, target.sale)) {
          const expected = holds(username, declared.operator as string, siteId);
          const before = expected ? '' : await snapshot();
          const answer = await admin.call(declared, payload, tokens[username]);
          const code = answer.status === 200 && !answer.body ? 200 : answer.body.code;
          const allowed = code !== 403 && code !== CODE.unauthorized;
          if (allowed !== expected)
            mismatches.push(`${username} ${declared.path} ${siteId}: ${code} ${answer.body?.msg}`);
          if (!expected && (await snapshot()) !== before)
            mismatches.push(`${username} ${declared.path} ${siteId}: changed`);
        }
      }
    expect(mismatches).toEqual([]);
  });

  it('names promotions permissions on every activity route', () => {
    expect(
      Object.values(adminActivityApi).filter((e) => !/^promotions:(view|manage)$/.test(e.operator ?? '')),
    ).toEqual([]);
  });
});
