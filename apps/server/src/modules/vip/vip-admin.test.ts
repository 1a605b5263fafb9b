import { ADMIN_MSG, PROMO_MSG, adminPromotionsApi as promo, vipApi } from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { memberVip, vipLevel } from './vip.tables';

/** The console's VIP routes on the real database: levels and a member's level. */

let t: TestApp;
let api: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ t, admin: api, tokens } = await consoleApp());
});
afterAll(() => t.close());

const audits = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('VIP levels', () => {
  it('lists the site’s levels, creates one, refuses a rank taken, edits the discount with a reason', async () => {
    const list = await api.call(promo.vipLevels, { siteId: 719 }, tokens.op719);
    expect(list.body.data.list.map((l) => [l.rank, l.name, l.discountPct])).toEqual([
      [1, '银卡会员', 2],
      [2, '金卡会员', 5],
      [3, '白金会员', 8],
    ]);
    const created = await api.call(
      promo.createVipLevel,
      { siteId: 719, rank: 4, name: '钻石会员', discountPct: 12 },
      tokens.op719,
    );
    expect(created.body.data).toMatchObject({ rank: 4, name: '钻石会员', discountPct: 12, members: 0 });
    const taken = await api.call(
      promo.createVipLevel,
      { siteId: 719, rank: 4, name: '重复', discountPct: 1 },
      tokens.op719,
    );
    expect(taken.body.msg).toBe(PROMO_MSG.rankTaken);
    const id = created.body.data.id;
    const noReason = await api.call(
      promo.updateVipLevel,
      { siteId: 719, levelId: id, discountPct: 15, reason: '' },
      tokens.op719,
    );
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const edited = await api.call(
      promo.updateVipLevel,
      { siteId: 719, levelId: id, discountPct: 15, reason: '年度权益调整' },
      tokens.op719,
    );
    expect(edited.body.data.discountPct).toBe(15);
    const [audit] = (await audits('promotion.vip.update')).filter((a) => a.entityId === String(id));
    expect(audit).toMatchObject({
      before: { discountPct: 12 },
      after: { discountPct: 15 },
      reason: '年度权益调整',
    });
    const tooMuch = await api.call(
      promo.updateVipLevel,
      { siteId: 719, levelId: id, discountPct: 100, reason: '试' },
      tokens.op719,
    );
    expect(tooMuch.body.code).toBe(400);
    const outside = await api.call(promo.vipLevels, { siteId: 1000 }, tokens.op719);
    expect(outside.body.code).toBe(403);
  });
});

describe("a member's level", () => {
  it('sets a level by phone, the member sees it, the log and audit record it; removing works too', async () => {
    const member = await buyer(t, 719);
    const [gold] = await t.db.select().from(vipLevel).where(eq(vipLevel.name, '金卡会员'));
    const before = await api.call(promo.memberVip, { siteId: 719, member: member.phone }, tokens.op719);
    expect(before.body.data).toMatchObject({ memberId: member.id, levelId: null, log: [] });
    const set = await api.call(
      promo.setMemberVip,
      {
        siteId: 719,
        member: member.phone,
        levelId: gold?.id as number,
        expiresOn: '2099-12-31',
        reason: '大客户',
      },
      tokens.op719,
    );
    expect(set.body.data).toMatchObject({ levelName: '金卡会员', discountPct: 5, source: 'manual' });
    expect(set.body.data.log[0]).toMatchObject({
      toLevel: gold?.id,
      reason: '大客户',
      actor: 'operator:op719',
    });
    const seen = await client(t).post<{ level: { name: string } | null }>(
      vipApi.level.path,
      { siteId: 719 },
      member.token,
    );
    expect(seen.body.data).toMatchObject({ level: { name: '金卡会员', discountPct: 5 }, source: 'manual' });
    const [audit] = (await audits('promotion.vip.member')).filter((a) => a.entityId === String(member.id));
    expect(audit).toMatchObject({
      before: { levelId: null },
      after: { levelId: gold?.id },
      reason: '大客户',
    });
    const removed = await api.call(
      promo.setMemberVip,
      { siteId: 719, member: String(member.id), levelId: null, reason: '到期' },
      tokens.op719,
    );
    expect(removed.body.data.levelId).toBeNull();
    expect(await t.db.select().from(memberVip).where(eq(memberVip.memberId, member.id))).toEqual([]);
  });

  it('refuses a level of another site, an unknown member, and a member of another site', async () => {
    const member = await buyer(t, 719);
    const [foreign] = await t.db.select().from(vipLevel).where(eq(vipLevel.siteId, 1000));
    const wrong = await api.call(
      promo.setMemberVip,
      { siteId: 719, member: member.phone, levelId: foreign?.id as number, reason: '试' },
      tokens.op719,
    );
    expect(wrong.body.msg).toBe('会员等级不存在');
    const other = await buyer(t, 1000);
    const stranger = await api.call(promo.memberVip, { siteId: 719, member: other.phone }, tokens.op719);
    expect(stranger.body.msg).toBe(PROMO_MSG.memberNotFound);
    const outside = await api.call(
      promo.setMemberVip,
      { siteId: 1000, member: other.phone, levelId: foreign?.id as number, reason: '试' },
      tokens.op719,
    );
    expect(outside.body.code).toBe(403);
    expect(await t.db.select().from(memberVip).where(eq(memberVip.memberId, other.id))).toEqual([]);
  });
});
