import {
  ACTIVITY_ADMIN_MSG,
  ADMIN_API_PREFIX,
  type AdminGift,
  adminActivityApi,
  BENEFIT_STATUS,
  benefitApi,
  CODE,
  type DrawResult,
  type Endpoint,
  lotteryApi,
  MSG,
} from '@sitemall/contract';
import { and, count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import type { client } from '../identity/identity.fixtures';
import { pickSpecs } from '../order/order.fixtures';
import { invitedLottery, makeLottery, quickMembers, wholeDay } from './activity.fixtures';
import { mktGift, mktWhiteUser } from './activity.tables';
import { benefit, benefitReceive } from './benefit.tables';
import { WHITE_ROW_MSG } from './white-users';

/**
 * The console's gifts, invited users and benefits (权益与礼品) on the real database: a site's
 * gifts over its activities with filters and the delivery sheet; invited users added one by one
 * (a duplicate refused by the unique key), found, removed (the member then refused at the
 * invited-only gate), each write with its audit row; benefits with their receive counts; another
 * site's data refused with 403 and nothing changed.
 */

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let shop: ReturnType<typeof client>;
let tokens: Record<string, string>;
const SITE = 719;

const call = <E extends Endpoint>(e: E, payload: Record<string, unknown>, who = 'op719') =>
  admin.call(e, payload, tokens[who]);
const draw = (token: string, code: string) =>
  shop.post<DrawResult>(lotteryApi.start.path, { siteId: SITE, code }, token);

async function auditRows(action: string, entityId: number) {
  const [row] = await t.db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(entityId))));
  return row?.n ?? 0;
}

beforeAll(async () => {
  ({ t, admin, shop, tokens } = await consoleApp());
});
afterAll(() => t.close());

describe('console: a site’s gifts over its activities', () => {
  it('lists gifts of every activity with activity, status and member filters, and exports the delivery sheet', async () => {
    const lamp = await makeLottery(t.db, {
      siteId: SITE,
      code: 'gl01',
      prizes: [{ name: '台灯', kind: 'product', weight: 1 }],
    });
    const pot = await makeLottery(t.db, {
      siteId: SITE,
      code: 'gl02',
      prizes: [{ name: '电饭煲', kind: 'product', weight: 1 }],
    });
    const [a, b] = await quickMembers(t, SITE, 2);
    expect((await draw(a!.token, 'gl01')).body.data.won).toBe(true);
    expect((await draw(b!.token, 'gl02')).body.data.won).toBe(true);
    // b's gift passes its deadline: the job moves it to -1.
    await t.db.update(mktGift).set({ status: -1 }).where(eq(mktGift.activityId, pot.id));

    const site = await call(adminActivityApi.gifts, { siteId: SITE });
    const ours = site.body.data.list.filter((g) => [lamp.id, pot.id].includes(g.activityId));
    expect(ours).toMatchObject([
      { activityCode: 'gl02', activityName: pot.name, prizeName: '电饭煲', status: -1, statusName: '已过期' },
      { activityCode: 'gl01', activityName: lamp.name, prizeName: '台灯', status: 0, statusName: '待领取' },
    ]);
    const one = await call(adminActivityApi.gifts, { siteId: SITE, activityId: lamp.id });
    expect(one.body.data).toMatchObject({ total: 1, list: [{ activityId: lamp.id }] });
    const expired = await call(adminActivityApi.gifts, { siteId: SITE, status: -1 });
    expect(expired.body.data.list.every((g: AdminGift) => g.status === -1)).toBe(true);
    expect(expired.body.data.list.map((g: AdminGift) => g.activityId)).toContain(pot.id);

    // By the member's phone (the list shows it as the member's label).
    const phone = ours[1]!.member;
    const byPhone = await call(adminActivityApi.gifts, { siteId: SITE, phone });
    expect(byPhone.body.data).toMatchObject({ total: 1, list: [{ memberId: a!.id }] });
    const nobody = await call(adminActivityApi.gifts, { siteId: SITE, phone: '19999999999' });
    expect(nobody.body.data).toMatchObject({ total: 0, list: [] });
    const badPhone = await call(adminActivityApi.gifts, { siteId: SITE, phone: '12' });
    expect(badPhone.body.code).toBe(CODE.badRequest);
    // Another site's activity under this site is not found.
    const other = await makeLottery(t.db, { siteId: 1000, code: 'gl03', prizes: [] });
    const crossed = await call(adminActivityApi.gifts, { siteId: SITE, activityId: other.id });
    expect(crossed.body).toMatchObject({ code: CODE.failure, msg: ACTIVITY_ADMIN_MSG.notFound });

    // The site's delivery sheet names each gift's activity; a status narrows it.
    const sheet = async (query: Record<string, string>) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${ADMIN_API_PREFIX}${adminActivityApi.exportGifts.path}`,
        query,
        headers: { token: tokens.op719 as string },
      });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(res.headers['content-disposition']).toContain(
        query.activityId ? 'gifts-gl01-' : `gifts-site${SITE}-`,
      );
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows: string[][] = [];
      book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map(String)));
      return rows;
    };
    const all = await sheet({ siteId: String(SITE) });
    expect(all[0]).toEqual(expect.arrayContaining(['活动', '奖品', '状态', '收货人']));
    expect(all.find((r) => r[1] === lamp.name)).toEqual(expect.arrayContaining(['台灯', '待领取']));
    expect(all.find((r) => r[1] === pot.name)).toEqual(expect.arrayContaining(['电饭煲', '已过期']));
    const toClaim = await sheet({ siteId: String(SITE), status: '0' });
    expect(toClaim.slice(1).every((r) => r[4] === '待领取')).toBe(true);
    expect(toClaim.some((r) => r[1] === pot.name)).toBe(false);
    expect((await sheet({ siteId: String(SITE), activityId: String(lamp.id) })).length).toBe(2);
  });
});

describe('console: invited users added, found and removed', () => {
  it('adds one (audited), refuses a duplicate by the unique key, and a removed member meets the gate again', async () => {
    const a = await invitedLottery(t.db, { siteId: SITE, code: 'inv-add' });
    const [m] = await quickMembers(t, SITE, 1);
    expect((await draw(m!.token, 'inv-add')).body).toMatchObject({
      code: CODE.failure,
      msg: MSG.invitedOnly,
    });
    const phoneOf = async () => {
      // Any gift of this member shows their phone; here, their own phone comes from a draw elsewhere.
      const other = await makeLottery(t.db, {
        siteId: SITE,
        code: 'inv-phone',
        prizes: [{ name: '谢谢', kind: 'product', weight: 1 }],
      });
      await draw(m!.token, 'inv-phone');
      const g = await call(adminActivityApi.gifts, { siteId: SITE, activityId: other.id });
      return g.body.data.list[0]!.member;
    };
    const phone = await phoneOf();

    const added = await call(adminActivityApi.addWhiteUser, {
      siteId: SITE,
      activityId: a.id,
      whiteCode: ' VIP-ONE ',
      phone,
    });
    expect(added.body).toMatchObject({
      code: 200,
      msg: '已添加受邀用户',
      data: { whiteCode: 'VIP-ONE', phone, memberId: null },
    });
    expect(await auditRows('lottery.white.add', added.body.data.id)).toBe(1);
    // Invited by phone: the member passes the gate.
    expect((await draw(m!.token, 'inv-add')).body).toMatchObject({ code: 200, data: { won: true } });

    // Parallel adds of one code: one row, the others told the code is taken.
    const twice = await Promise.all(
      [1, 2, 3].map(() =>
        call(adminActivityApi.addWhiteUser, { siteId: SITE, activityId: a.id, whiteCode: 'VIP-TWO' }),
      ),
    );
    expect(twice.filter((r) => r.body.code === 200)).toHaveLength(1);
    expect(twice.filter((r) => r.body.msg === ACTIVITY_ADMIN_MSG.whiteCodeTaken)).toHaveLength(2);
    const rows = await t.db
      .select()
      .from(mktWhiteUser)
      .where(and(eq(mktWhiteUser.activityId, a.id), eq(mktWhiteUser.whiteCode, 'VIP-TWO')));
    expect(rows).toHaveLength(1);

    // Bad input: a clear envelope, nothing written.
    const bad = [
      [{ whiteCode: 'bad code!' }, WHITE_ROW_MSG.code],
      [{ whiteCode: 'VIP-3', phone: '12345' }, WHITE_ROW_MSG.phone],
    ] as const;
    for (const [body, msg] of bad) {
      const answer = await call(adminActivityApi.addWhiteUser, { siteId: SITE, activityId: a.id, ...body });
      expect(answer.body).toMatchObject({ code: CODE.badRequest, msg });
    }
    const tooLong = await call(adminActivityApi.addWhiteUser, {
      siteId: SITE,
      activityId: a.id,
      whiteCode: 'x'.repeat(65),
    });
    expect(tooLong.body.code).toBe(CODE.badRequest);
    const [{ n } = { n: 0 }] = await t.db
      .select({ n: count() })
      .from(mktWhiteUser)
      .where(eq(mktWhiteUser.activityId, a.id));
    expect(n).toBe(2);

    // Found by part of a code or a phone.
    const found = await call(adminActivityApi.whiteUsers, { siteId: SITE, activityId: a.id, keyword: 'two' });
    expect(found.body.data).toMatchObject({ total: 1, list: [{ whiteCode: 'VIP-TWO' }] });
    const byPhone = await call(adminActivityApi.whiteUsers, {
      siteId: SITE,
      activityId: a.id,
      keyword: phone.slice(-6),
    });
    expect(byPhone.body.data.list.map((w) => w.whiteCode)).toEqual(['VIP-ONE']);

    // Removed: audited with what it was; the member is refused again, the prize won stays.
    const removed = await call(adminActivityApi.removeWhiteUser, {
      siteId: SITE,
      activityId: a.id,
      id: added.body.data.id,
    });
    expect(removed.body).toMatchObject({ code: 200, msg: '已移除受邀用户' });
    expect(await auditRows('lottery.white.remove', added.body.data.id)).toBe(1);
    expect((await draw(m!.token, 'inv-add')).body).toMatchObject({
      code: CODE.failure,
      msg: MSG.invitedOnly,
    });
    const gifts = await call(adminActivityApi.gifts, { siteId: SITE, activityId: a.id });
    expect(gifts.body.data.total).toBe(1);
    const again = await call(adminActivityApi.removeWhiteUser, {
      siteId: SITE,
      activityId: a.id,
      id: added.body.data.id,
    });
    expect(again.body).toMatchObject({ code: CODE.failure, msg: ACTIVITY_ADMIN_MSG.whiteNotFound });
    // An invited user of another activity is not removed through this one.
    const second = await invitedLottery(t.db, { siteId: SITE, code: 'inv-add2' });
    const two = rows[0]!;
    const crossed = await call(adminActivityApi.removeWhiteUser, {
      siteId: SITE,
      activityId: second.id,
      id: two.id,
    });
    expect(crossed.body.msg).toBe(ACTIVITY_ADMIN_MSG.whiteNotFound);
    expect(await t.db.select().from(mktWhiteUser).where(eq(mktWhiteUser.id, two.id))).toHaveLength(1);
  });

  it('refuses the 719 operator on site 1000 with 403 and changes nothing', async () => {
    const other = await makeLottery(t.db, { siteId: 1000, code: 'inv-1000', prizes: [] });
    const [w] = await t.db
      .insert(mktWhiteUser)
      .values({ siteId: 1000, activityId: other.id, whiteCode: 'K-1' })
      .returning();
    const before = await t.db.select({ n: count() }).from(mktWhiteUser);
    const audits = await t.db.select({ n: count() }).from(auditLog);
    const tries: [Endpoint, Record<string, unknown>][] = [
      [adminActivityApi.addWhiteUser, { siteId: 1000, activityId: other.id, whiteCode: 'K-2' }],
      [adminActivityApi.removeWhiteUser, { siteId: 1000, activityId: other.id, id: w!.id }],
      [adminActivityApi.whiteUsers, { siteId: 1000, activityId: other.id }],
      [adminActivityApi.gifts, { siteId: 1000 }],
      [adminActivityApi.benefits, { siteId: 1000 }],
    ];
    for (const [declared, payload] of tries)
      expect((await call(declared, payload)).body.code, declared.path).toBe(403);
    const sheet = await t.app.inject({
      method: 'GET',
      url: `${ADMIN_API_PREFIX}${adminActivityApi.exportGifts.path}`,
      query: { siteId: '1000' },
      headers: { token: tokens.op719 as string },
    });
    expect(sheet.json().code).toBe(403);
    // The finance reviewer reads but may not write.
    const add = await call(
      adminActivityApi.addWhiteUser,
      { siteId: SITE, activityId: other.id, whiteCode: 'K-3' },
      'finance',
    );
    expect(add.body.code).toBe(403);
    expect(await t.db.select({ n: count() }).from(mktWhiteUser)).toEqual(before);
    expect(await t.db.select({ n: count() }).from(auditLog)).toEqual(audits);
    // The platform operator may.
    const byAdmin = await call(
      adminActivityApi.addWhiteUser,
      { siteId: 1000, activityId: other.id, whiteCode: 'K-2' },
      'admin',
    );
    expect(byAdmin.body.code).toBe(200);
  });
});

describe('console: benefits with their receive counts', () => {
  it('counts receives to use, used and expired (a lapsed one as expired) per benefit of the operator’s sites', async () => {
    const [spec] = await pickSpecs(t.db, SITE, { count: 1 });
    const day = wholeDay();
    const [b] = await t.db
      .insert(benefit)
      .values({
        siteId: SITE,
        name: '控制台权益',
        productId: spec!.productId,
        specificationId: spec!.specificationId,
        total: 10,
        remaining: 10,
        validDays: 7,
        startAt: day.start,
        endAt: new Date(day.end.getTime() + 86_400_000),
      })
      .returning();
    const members = await quickMembers(t, SITE, 4);
    for (const m of members)
      expect((await shop.post(benefitApi.receive.path, { siteId: SITE, id: b!.id }, m.token)).body.code).toBe(
        200,
      );
    const receives = await t.db.select().from(benefitReceive).where(eq(benefitReceive.benefitId, b!.id));
    const [r1, r2, r3] = receives;
    await t.db
      .update(benefitReceive)
      .set({ status: BENEFIT_STATUS.used })
      .where(eq(benefitReceive.id, r1!.id));
    await t.db
      .update(benefitReceive)
      .set({ status: BENEFIT_STATUS.expired })
      .where(eq(benefitReceive.id, r2!.id));
    // Past its deadline but not moved by the job yet: expired all the same.
    await t.db
      .update(benefitReceive)
      .set({ expireAt: new Date(Date.now() - 1000) })
      .where(eq(benefitReceive.id, r3!.id));

    const listed = await call(adminActivityApi.benefits, { siteId: SITE });
    const row = listed.body.data.list.find((x) => x.id === b!.id);
    expect(row).toMatchObject({
      name: '控制台权益',
      total: 10,
      remaining: 6,
      received: 4,
      toUse: 1,
      used: 1,
      expired: 2,
      timing: { status: 0 },
    });
    expect(row?.productName).not.toBe('');
    // Without a site: only the operator's sites; the demo benefit of 719 is there too.
    const mine = await call(adminActivityApi.benefits, {});
    expect(mine.body.data.list.every((x) => x.siteId === SITE)).toBe(true);
    expect(mine.body.data.list.some((x) => x.name === '会员专享免费领')).toBe(true);
    const everywhere = await call(adminActivityApi.benefits, {}, 'admin');
    expect(new Set(everywhere.body.data.list.map((x) => x.siteId)).size).toBeGreaterThan(1);
  });
});
