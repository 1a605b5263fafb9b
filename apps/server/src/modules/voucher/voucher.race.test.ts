import {
  addressApi,
  type ClaimResult,
  orderApi,
  type SubmitOrderResult,
  VOUCHER_MSG,
  voucherApi,
} from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, NANJING, type PickedSpec, pickSpecs, stockOf } from '../order/order.fixtures';
import { makeTemplate } from './voucher.fixtures';
import { voucher, voucherClaimCounter, voucherTemplate } from './voucher.tables';

/** Parallel requests through app.inject (PGlite by default, PostgreSQL with TEST_DATABASE_URL). */
let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  spec = (await pickSpecs(t.db, 719, { stock: 100 }))[0] as PickedSpec;
});
afterAll(() => t.close());

describe('voucher races', () => {
  it('100 parallel claims of a template with 10 left: exactly 10, none above the per-member limit', async () => {
    const tpl = await makeTemplate(t.db, { totalLimit: 60, perMemberLimit: 2 });
    await t.db.update(voucherTemplate).set({ issued: 50 }).where(eq(voucherTemplate.id, tpl));
    const members = await Promise.all(Array.from({ length: 20 }, () => buyer(t, 719)));
    const answers = await Promise.all(
      members.flatMap((m) =>
        Array.from({ length: 5 }, () =>
          api.post<ClaimResult>(voucherApi.claim.path, { siteId: 719, templateId: tpl }, m.token),
        ),
      ),
    );
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(10);
    for (const a of answers.filter((x) => x.body.code !== 200))
      expect([VOUCHER_MSG.soldOut, VOUCHER_MSG.perMemberLimit]).toContain(a.body.msg);
    const held = await t.db
      .select({ memberId: voucher.memberId, n: sql<number>`count(*)::int` })
      .from(voucher)
      .where(eq(voucher.templateId, tpl))
      .groupBy(voucher.memberId);
    expect(held.reduce((s, h) => s + h.n, 0)).toBe(10);
    expect(held.every((h) => h.n <= 2)).toBe(true);
    const [template] = await t.db.select().from(voucherTemplate).where(eq(voucherTemplate.id, tpl));
    expect(template?.issued).toBe(60);
    // Refused claims left no counter behind.
    const counters = await t.db
      .select()
      .from(voucherClaimCounter)
      .where(eq(voucherClaimCounter.templateId, tpl));
    expect(counters.reduce((s, c) => s + c.claimed, 0)).toBe(10);
  });

  it('one voucher on two parallel submissions: one order wins, the other changes nothing', async () => {
    const m = await buyer(t, 719, 1_000_000);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, m.token);
    const tpl = await makeTemplate(t.db, { value: 100 });
    const { id } = (
      await api.post<ClaimResult>(voucherApi.claim.path, { siteId: 719, templateId: tpl }, m.token)
    ).body.data.voucher;
    const stock = await stockOf(t.db, spec.specificationId);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        api.post<SubmitOrderResult>(
          orderApi.submitOrder.path,
          {
            siteId: 719,
            productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num: 1 }],
            accVoucherIds: [id],
          },
          m.token,
        ),
      ),
    );
    const won = answers.filter((a) => a.body.code === 200);
    expect(won).toHaveLength(1);
    for (const a of answers.filter((x) => x.body.code !== 200))
      expect(a.body.msg).toBe(VOUCHER_MSG.unavailable);
    const [row] = await t.db.select().from(voucher).where(eq(voucher.id, id));
    expect(row).toMatchObject({ status: 'locked', orderNo: won[0]?.body.data.orderNo });
    expect(await stockOf(t.db, spec.specificationId)).toBe(stock - 1);
  });
});
