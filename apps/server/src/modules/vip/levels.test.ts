import { identityApi, type MemberVip, vipApi } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorIssue } from '../../simulators/partners';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { postEntry } from '../points/points.service';
import { PARTNER_LEVEL_DAYS, recalcAutoLevels, setMemberLevel, vipClaimOf } from './vip.service';
import { vipLevel } from './vip.tables';

/** VIP levels from partner claims at SSO login and by rule (points spent), on the real database. */
let t: TestApp;
let api: ReturnType<typeof client>;
const DAY = 86_400_000;

const levelOf = async (siteId: number, token: string) =>
  (await api.post<MemberVip>(vipApi.level.path, { siteId }, token)).body.data;
/** A bank SSO login with the bank's VIP claim: answers the session token. */
async function bankLogin(userId: string, vip?: { level: number; expiresAt?: number }) {
  const ticket = simulatorIssue(t.secrets.partnerKey).bankTicket(719, userId, undefined, vip);
  const login = await api.post<{ token: string; user: { id: number } }>(identityApi.haersLogin.path, {
    siteId: 719,
    ticket,
  });
  if (!login.body.data?.token) throw new Error(login.body.msg);
  return login.body.data.token;
}
async function bankMemberId(userId: string) {
  const ticket = simulatorIssue(t.secrets.partnerKey).bankTicket(719, userId);
  const login = await api.post<{ user: { id: number } }>(identityApi.haersLogin.path, {
    siteId: 719,
    ticket,
  });
  return login.body.data.user.id;
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
});
afterAll(() => t.close());

describe('VIP levels from partner claims', () => {
  it('reads a claim: rank, end, none, or nothing', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(vipClaimOf(undefined, undefined, now)).toBeUndefined();
    expect(vipClaimOf(0, undefined, now)).toBeNull();
    expect(vipClaimOf('3', now.getTime() + DAY, now)).toEqual({
      rank: 3,
      expiresAt: new Date(now.getTime() + DAY),
    });
    expect(vipClaimOf(3, undefined, now)?.expiresAt).toEqual(
      new Date(now.getTime() + PARTNER_LEVEL_DAYS * DAY),
    );
    expect(vipClaimOf(3, now.getTime() - 1, now)).toBeUndefined();
    expect(vipClaimOf(3, 'soon', now)).toBeUndefined();
    expect(vipClaimOf(-1, undefined, now)).toBeUndefined();
    expect(vipClaimOf(2.5, undefined, now)).toBeUndefined();
    // An end years away is capped.
    expect(vipClaimOf(3, now.getTime() + 5000 * DAY, now)?.expiresAt.getTime()).toBe(
      now.getTime() + 366 * DAY,
    );
  });

  it('sets the level the bank claims at login until its end; a later "none" ends it; an operator level wins', async () => {
    const end = Date.now() + 7 * DAY;
    const token = await bankLogin('vip-bank-user-1', { level: 3, expiresAt: end });
    const mine = await levelOf(719, token);
    expect(mine).toMatchObject({ level: { rank: 3, name: '白金会员', discountPct: 8 }, source: 'partner' });
    expect(new Date(mine.expiresAt as string).getTime()).toBe(end);
    // A login without a claim leaves it; one saying "no level" ends it.
    // (A member has one session at a time: each login's own token reads.)
    const plain = await bankLogin('vip-bank-user-1');
    expect((await levelOf(719, plain)).level?.rank).toBe(3);
    const after = await bankLogin('vip-bank-user-1', { level: 0 });
    expect((await levelOf(719, after)).level).toBeNull();
    // A rank the site lacks changes nothing.
    const other = await bankLogin('vip-bank-user-2', { level: 42 });
    expect((await levelOf(719, other)).level).toBeNull();
    // The operator's level is not overwritten by the partner.
    const meId = await bankMemberId('vip-bank-user-3');
    const [silver] = await t.db
      .select()
      .from(vipLevel)
      .where(and(eq(vipLevel.siteId, 719), eq(vipLevel.rank, 1)));
    await setMemberLevel(t.db, {
      siteId: 719,
      memberId: meId,
      levelId: silver!.id,
      source: 'manual',
      actor: 'op',
      reason: '人工设置',
    });
    const again = await bankLogin('vip-bank-user-3', { level: 3, expiresAt: end });
    expect(await levelOf(719, again)).toMatchObject({ level: { rank: 1 }, source: 'manual' });
  });
});

describe('VIP levels by rule', () => {
  it('gives the highest level whose points-spent threshold the member reaches, and ends it when refunds undo it', async () => {
    const [level] = await t.db
      .insert(vipLevel)
      .values({
        siteId: 1000,
        rank: 5,
        name: '消费达人',
        discountPct: 4,
        thresholdType: 'points_spent',
        threshold: 5_000,
      })
      .returning();
    const me = await buyer(t, 1000, 100_000);
    const ref = { siteId: 1000, memberId: me.id };
    await postEntry(t.db, { ...ref, amount: -6_000, type: 'pay', orderNo: 'SOTEST0001', note: '测试' });
    expect(await recalcAutoLevels(t.db)).toBeGreaterThanOrEqual(1);
    expect(await levelOf(1000, me.token)).toMatchObject({ level: { id: level!.id }, source: 'auto' });
    await postEntry(t.db, { ...ref, amount: 2_000, type: 'refund', orderNo: 'SOTEST0001', note: '测试' });
    await recalcAutoLevels(t.db);
    expect((await levelOf(1000, me.token)).level).toBeNull();
  });
});
