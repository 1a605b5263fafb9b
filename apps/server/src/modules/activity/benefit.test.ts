import {
  BENEFIT_MSG,
  BENEFIT_STATUS,
  type BenefitInfo,
  type BenefitReceiver,
  benefitApi,
  type MyBenefit,
} from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { quickMembers, wholeDay } from './activity.fixtures';
import { expireBenefits } from './benefit';
import { benefit, benefitReceive } from './benefit.tables';

let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;

const list = (token?: string, productId?: number) =>
  api.post<{ list: BenefitInfo[] }>(
    benefitApi.product.path,
    { siteId: 719, ...(productId ? { productId } : {}) },
    token,
  );
const receive = (token: string, id: number) =>
  api.post<MyBenefit>(benefitApi.receive.path, { siteId: 719, id }, token);
const mine = (token: string) => api.post<{ list: MyBenefit[] }>(benefitApi.mine.path, { siteId: 719 }, token);

async function makeBenefit(total: number, startAt?: Date) {
  const day = wholeDay();
  const [row] = await t.db
    .insert(benefit)
    .values({
      siteId: 719,
      name: '测试权益',
      productId: spec.productId,
      specificationId: spec.specificationId,
      total,
      remaining: total,
      validDays: 7,
      startAt: startAt ?? day.start,
      endAt: new Date(day.end.getTime() + 86_400_000),
    })
    .returning();
  return row!;
}
const remainingOf = async (id: number) =>
  (await t.db.select({ n: benefit.remaining }).from(benefit).where(eq(benefit.id, id)))[0]?.n;

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  [spec] = (await pickSpecs(t.db, 719, { virtual: true })) as [PickedSpec];
});
afterAll(() => t.close());

describe('benefits', () => {
  it('lists the demo benefit, of all products or of one', async () => {
    const { body } = await list();
    expect(body.code).toBe(200);
    const demo = body.data.list[0]!;
    expect(demo).toMatchObject({ total: 100, remaining: 100, received: false, timing: { status: 0 } });
    // Of one product: its benefits only (the demo's VIP benefit may share the product).
    const ofProduct = (await list(undefined, demo.productId)).body.data.list;
    expect(ofProduct.map((b) => b.id)).toContain(demo.id);
    expect(ofProduct.every((b) => b.productId === demo.productId)).toBe(true);
    expect((await list(undefined, spec.productId)).body.data.list).toEqual([]);
  });

  it('receives once per member; my benefits and the receive list show it', async () => {
    const b = await makeBenefit(5);
    const [m] = await quickMembers(t, 719, 1);
    const first = await receive(m!.token, b.id);
    expect(first.body).toMatchObject({
      code: 200,
      msg: BENEFIT_MSG.received,
      data: { benefitId: b.id, status: BENEFIT_STATUS.toUse, statusName: '待使用' },
    });
    const days = (new Date(first.body.data.expireTime).getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(7);
    expect((await receive(m!.token, b.id)).body).toMatchObject({
      code: 500,
      msg: BENEFIT_MSG.receivedBefore,
    });
    expect(await remainingOf(b.id)).toBe(4);
    expect((await mine(m!.token)).body.data.list.map((r) => r.benefitId)).toEqual([b.id]);
    expect((await list(m!.token, spec.productId)).body.data.list[0]).toMatchObject({
      received: true,
      remaining: 4,
    });
    const receivers = await api.post<{ list: BenefitReceiver[]; total: number }>(
      benefitApi.receiveList.path,
      {
        siteId: 719,
        id: b.id,
      },
    );
    expect(receivers.body.data).toMatchObject({
      total: 1,
      list: [{ name: expect.stringContaining('****') }],
    });
  });

  it('hands out no more than the quota to racing members, and one to a member racing itself', async () => {
    const b = await makeBenefit(3);
    const members = await quickMembers(t, 719, 10);
    const answers = await Promise.all(members.map((m) => receive(m.token, b.id)));
    expect(answers.filter((r) => r.body.code === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.body.msg === BENEFIT_MSG.soldOut)).toHaveLength(7);
    expect(await remainingOf(b.id)).toBe(0);
    const b2 = await makeBenefit(3);
    const [m] = await quickMembers(t, 719, 1);
    const twice = await Promise.all(Array.from({ length: 5 }, () => receive(m!.token, b2.id)));
    expect(twice.filter((r) => r.body.code === 200)).toHaveLength(1);
    expect(await remainingOf(b2.id)).toBe(2);
    const rows = await t.db.select().from(benefitReceive).where(eq(benefitReceive.benefitId, b2.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses before the start with the timing; expires unused benefits', async () => {
    const later = await makeBenefit(3, new Date(Date.now() + 3_600_000));
    const [m] = await quickMembers(t, 719, 1);
    expect((await receive(m!.token, later.id)).body).toMatchObject({
      code: 500,
      msg: BENEFIT_MSG.notStarted,
      data: { timing: { status: -1 } },
    });
    const b = await makeBenefit(3);
    await receive(m!.token, b.id);
    await t.db
      .update(benefitReceive)
      .set({ expireAt: sql`now() - interval '1 second'` })
      .where(eq(benefitReceive.memberId, m!.id));
    expect((await mine(m!.token)).body.data.list[0]).toMatchObject({ status: -1, statusName: '已过期' });
    expect(await expireBenefits(t.db)).toBe(1);
    expect(await expireBenefits(t.db)).toBe(0);
  });
});
