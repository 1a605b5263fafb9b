import {
  ACTIVITY_ADMIN_MSG,
  ADMIN_MSG,
  type AdminBenefit,
  adminActivityApi,
  BENEFIT_MSG,
  type BenefitInfo,
  benefitApi,
  type MyBenefit,
} from '@sitemall/contract';
import { and, asc, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import type { client } from '../identity/identity.fixtures';
import { pickSpecs } from '../order/order.fixtures';
import { setMemberLevel } from '../vip/vip.service';
import { vipLevel } from '../vip/vip.tables';
import { consoleTime, quickMembers } from './activity.fixtures';
import { benefit, benefitReceive } from './benefit.tables';

/**
 * Benefits created and edited in the console (权益), on the real database: each write with its
 * audit row (before and after), checked on the server (window, product on the site, VIP level of
 * the site, a total not below what members received), another site refused; the storefront's
 * product, receive, receiveList and mine answer the edits; a benefit for a VIP level refuses
 * members below it; parallel receives of the last one hand out one.
 */

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let shop: ReturnType<typeof client>;
let tokens: Record<string, string>;
const SITE = 719;
const DAY = 86_400_000;
const save = (payload: Record<string, unknown>, who = 'op719') =>
  admin.call(adminActivityApi.saveBenefit, payload, tokens[who]);
const productList = async (token?: string) =>
  (await shop.post<{ list: BenefitInfo[] }>(benefitApi.product.path, { siteId: SITE }, token)).body.data.list;
const receive = (id: number, token: string) =>
  shop.post<MyBenefit>(benefitApi.receive.path, { siteId: SITE, id }, token);

async function auditOf(action: string, id: number) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id))))
    .orderBy(asc(auditLog.id));
}
const audits = async () => (await t.db.select({ n: count() }).from(auditLog))[0]?.n;

let spec: { productId: number; specificationId: number };
let other: { productId: number; specificationId: number };
const base = () => ({
  siteId: SITE,
  name: '新人权益',
  specificationId: spec.specificationId,
  total: 5,
  validDays: 7,
  startAt: consoleTime(-DAY),
  endAt: consoleTime(DAY),
  audience: 'all',
});

beforeAll(async () => {
  ({ t, admin, shop, tokens } = await consoleApp());
  const picked = await pickSpecs(t.db, SITE, { count: 2 });
  spec = picked[0]!;
  other = picked[1]!;
});
afterAll(() => t.close());

describe('console: a benefit created and edited', () => {
  it('creates with its audit row; members see it, receive it, and see the edits', async () => {
    const created = await save(base());
    expect(created.body.code).toBe(200);
    const b = created.body.data as AdminBenefit;
    expect(b).toMatchObject({ name: '新人权益', total: 5, remaining: 5, validDays: 7, vipLevelId: null });
    expect(b.timing.status).toBe(0);
    const [createdAudit] = await auditOf('benefit.create', b.id);
    expect(createdAudit).toMatchObject({ siteId: SITE, entity: 'benefit' });
    expect(createdAudit?.after).toMatchObject({ name: '新人权益', total: 5 });

    const [m1, m2] = await quickMembers(t, SITE, 2);
    const listed = (await productList(m1!.token)).find((x) => x.id === b.id);
    expect(listed).toMatchObject({ name: '新人权益', remaining: 5, received: false, vipLevelName: '' });
    expect((await receive(b.id, m1!.token)).body.code).toBe(200);

    // Edit: another product, a bigger total (what is left moves by the difference), a new name.
    const edited = await save({
      ...base(),
      id: b.id,
      name: '老友权益',
      specificationId: other.specificationId,
      total: 8,
      validDays: 3,
    });
    expect(edited.body.code).toBe(200);
    expect(edited.body.data).toMatchObject({ name: '老友权益', total: 8, remaining: 7, received: 1 });
    const [editAudit] = await auditOf('benefit.update', b.id);
    expect(editAudit?.before).toMatchObject({ name: '新人权益', total: 5, remaining: 4 });
    expect(editAudit?.after).toMatchObject({ name: '老友权益', total: 8, remaining: 7 });

    const after = (await productList(m1!.token)).find((x) => x.id === b.id);
    expect(after).toMatchObject({
      name: '老友权益',
      productId: other.productId,
      remaining: 7,
      received: true,
    });
    const mine = await shop.post<{ list: MyBenefit[] }>(benefitApi.mine.path, { siteId: SITE }, m1!.token);
    expect(mine.body.data.list.find((x) => x.benefitId === b.id)?.name).toBe('老友权益');
    expect((await receive(b.id, m2!.token)).body.data.name).toBe('老友权益');
    const receivers = await shop.post<{ total: number }>(benefitApi.receiveList.path, {
      siteId: SITE,
      id: b.id,
    });
    expect(receivers.body.data.total).toBe(2);

    // Disabled: gone from the storefront, a receive refused.
    expect((await save({ ...base(), id: b.id, enabled: false })).body.code).toBe(200);
    expect((await productList()).some((x) => x.id === b.id)).toBe(false);
    const [m3] = await quickMembers(t, SITE, 1);
    expect((await receive(b.id, m3!.token)).body.msg).toBe(BENEFIT_MSG.notFound);

    // A window moved into the future: not started for members.
    expect(
      (await save({ ...base(), id: b.id, startAt: consoleTime(DAY), endAt: consoleTime(2 * DAY) })).body.code,
    ).toBe(200);
    const later = await receive(b.id, m3!.token);
    expect(later.body.msg).toBe(BENEFIT_MSG.notStarted);
  });

  it('refuses bad input with its words and changes nothing', async () => {
    const created = (await save({ ...base(), name: '校验权益', total: 2 })).body.data as AdminBenefit;
    const members = await quickMembers(t, SITE, 2);
    for (const m of members) expect((await receive(created.id, m.token)).body.code).toBe(200);
    const [otherLevel] = await t.db.select().from(vipLevel).where(eq(vipLevel.siteId, 1000)).limit(1);
    const [row] = await t.db.select().from(benefit).where(eq(benefit.id, created.id));
    const before = await audits();
    const tries: [Record<string, unknown>, string][] = [
      [
        { ...base(), id: created.id, startAt: consoleTime(DAY), endAt: consoleTime(-DAY) },
        ACTIVITY_ADMIN_MSG.badWindow,
      ],
      [{ ...base(), id: created.id, specificationId: 2_000_000_000 }, ACTIVITY_ADMIN_MSG.badSpec],
      [{ ...base(), id: created.id, audience: 'vip' }, ACTIVITY_ADMIN_MSG.badVipLevel],
      [
        { ...base(), id: created.id, audience: 'vip', vipLevelId: otherLevel!.id },
        ACTIVITY_ADMIN_MSG.badVipLevel,
      ],
      // Two members received it: the total may not go below 2.
      [{ ...base(), id: created.id, total: 1 }, ACTIVITY_ADMIN_MSG.benefitTotalBelowReceived],
      [{ ...base(), id: 2_000_000_000 }, ADMIN_MSG.notFound],
    ];
    for (const [payload, msg] of tries) expect((await save(payload)).body.msg, msg).toBe(msg);
    // Out of the contract's bounds: refused before the service.
    for (const bad of [{ total: 0 }, { validDays: 0 }, { name: '' }, { startAt: '明天' }, { audience: 'x' }])
      expect((await save({ ...base(), ...bad })).body.code, JSON.stringify(bad)).toBe(400);
    // Another site's benefit through this site: not found; on site 1000: 403 for this operator.
    const [far] = await t.db
      .insert(benefit)
      .values({
        siteId: 1000,
        name: '别站权益',
        productId: 1,
        specificationId: 1,
        total: 1,
        remaining: 1,
        startAt: new Date(Date.now() - DAY),
        endAt: new Date(Date.now() + DAY),
      })
      .returning();
    expect((await save({ ...base(), id: far!.id })).body.msg).toBe(ADMIN_MSG.notFound);
    expect((await save({ ...base(), siteId: 1000, id: far!.id })).body.code).toBe(403);
    expect((await save(base(), 'finance')).body.code).toBe(403);
    expect(await audits()).toBe(before);
    const [still] = await t.db.select().from(benefit).where(eq(benefit.id, created.id));
    expect(still).toEqual(row);
    // The total may go down to what was received: nothing left.
    const down = await save({ ...base(), id: created.id, name: '校验权益', total: 2 });
    expect(down.body.data).toMatchObject({ total: 2, remaining: 0 });
  });

  it('limits a benefit to a VIP level and above', async () => {
    const levels = await t.db
      .select()
      .from(vipLevel)
      .where(and(eq(vipLevel.siteId, SITE), eq(vipLevel.status, 'active')))
      .orderBy(asc(vipLevel.rank));
    const [low, high] = levels;
    const made = await save({ ...base(), name: '金卡权益', audience: 'vip', vipLevelId: high!.id });
    expect(made.body.data).toMatchObject({ vipLevelId: high!.id, vipLevelName: high!.name });
    const b = made.body.data as AdminBenefit;
    const [none, lower, same] = await quickMembers(t, SITE, 3);
    for (const [m, level] of [
      [lower!, low!],
      [same!, high!],
    ] as const)
      await setMemberLevel(t.db, {
        siteId: SITE,
        memberId: m.id,
        levelId: level.id,
        source: 'manual',
        actor: 'test',
        reason: 'test',
      });
    expect((await productList()).find((x) => x.id === b.id)?.vipLevelName).toBe(high!.name);
    expect((await receive(b.id, none!.token)).body.msg).toBe(BENEFIT_MSG.vipOnly);
    expect((await receive(b.id, lower!.token)).body.msg).toBe(BENEFIT_MSG.vipOnly);
    expect((await receive(b.id, same!.token)).body.code).toBe(200);
    // Opened to every member: the one without a level receives it.
    expect((await save({ ...base(), id: b.id, name: '金卡权益' })).body.data.vipLevelName).toBe('');
    expect((await receive(b.id, none!.token)).body.code).toBe(200);
  });
});

describe('benefit receives race for the last one', () => {
  it('hands the last benefit to one of many parallel members, and the edit counts it', async () => {
    const made = (await save({ ...base(), name: '最后一份', total: 3 })).body.data as AdminBenefit;
    const early = await quickMembers(t, SITE, 2);
    for (const m of early) expect((await receive(made.id, m.token)).body.code).toBe(200);
    const racers = await quickMembers(t, SITE, 12);
    const answers = await Promise.all(racers.map((m) => receive(made.id, m.token)));
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.body.code !== 200).map((a) => a.body.msg))).toEqual(
      new Set([BENEFIT_MSG.soldOut]),
    );
    const [row] = await t.db.select().from(benefit).where(eq(benefit.id, made.id));
    expect(row?.remaining).toBe(0);
    const [received] = await t.db
      .select({ n: count() })
      .from(benefitReceive)
      .where(eq(benefitReceive.benefitId, made.id));
    expect(received?.n).toBe(3);
    // An edit raced with receives never hands out more than the new total.
    const more = await quickMembers(t, SITE, 6);
    const [edit, ...receives] = await Promise.all([
      save({ ...base(), id: made.id, name: '最后一份', total: 5 }),
      ...more.map((m) => receive(made.id, m.token)),
    ]);
    expect(edit?.body.code).toBe(200);
    const [final] = await t.db.select().from(benefit).where(eq(benefit.id, made.id));
    const [all] = await t.db
      .select({ n: count() })
      .from(benefitReceive)
      .where(eq(benefitReceive.benefitId, made.id));
    expect(all?.n).toBe(3 + receives.filter((a) => a.body.code === 200).length);
    expect((all?.n ?? 0) + (final?.remaining ?? 0)).toBe(5);
  });
});
