import {
  addressApi,
  type ClaimResult,
  orderApi,
  type SubmitOrderResult,
  VOUCHER_STATUS,
  VOUCHER_TRANSITIONS,
  voucherApi,
} from '@sitemall/contract';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { refundOrder } from '../order/fulfilment';
import { buyer, NANJING, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { makeTemplate } from './voucher.fixtures';
import { moveVouchers } from './voucher.service';
import { voucher, voucherEvent } from './voucher.tables';

/**
 * The voucher state machine (VOUCHER_TRANSITIONS): moveVouchers refuses a move not in the
 * table; a full refund gives a used voucher back where its template says so, once.
 */
let t: TestApp;
let api: ReturnType<typeof client>;
let me: { id: number; token: string };
let spec: PickedSpec;

const claimOf = async (templateId: number) =>
  (await api.post<ClaimResult>(voucherApi.claim.path, { siteId: 719, templateId }, me.token)).body.data
    .voucher.id;
const statusOf = async (id: number) =>
  (await t.db.select().from(voucher).where(eq(voucher.id, id)))[0] as typeof voucher.$inferSelect;
const eventsOf = async (id: number) =>
  (
    await t.db.select().from(voucherEvent).where(eq(voucherEvent.voucherId, id)).orderBy(asc(voucherEvent.id))
  ).map((e) => [e.fromStatus, e.toStatus]);

/** An order paid with points using the voucher. */
async function paidWith(voucherId: number): Promise<string> {
  const submitted = await api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      productInfos: [
        {
          productId: spec.productId,
          specificationId: spec.specificationId,
          num: Math.ceil(2_000 / spec.price),
        },
      ],
      accVoucherIds: [voucherId],
    },
    me.token,
  );
  if (submitted.body.code !== 200) throw new Error(submitted.body.msg);
  const { orderNo } = submitted.body.data;
  await api.post(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'ye' }, me.token);
  return orderNo;
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719, 10_000_000);
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, me.token);
  spec = (await pickSpecs(t.db, 719, { stock: 500 }))[0] as PickedSpec;
});
afterAll(() => t.close());

describe('voucher state machine', () => {
  it('reaches every status from a claim, and refuses a move not in the table', async () => {
    const reachable = new Set<string>();
    let frontier = VOUCHER_TRANSITIONS.filter((x) => x.from === null).map((x) => x.to as string);
    while (frontier.length > 0) {
      for (const s of frontier) reachable.add(s);
      frontier = VOUCHER_TRANSITIONS.filter(
        (x) => x.from && reachable.has(x.from) && !reachable.has(x.to),
      ).map((x) => x.to);
    }
    expect([...reachable].sort()).toEqual(Object.values(VOUCHER_STATUS).sort());
    const id = await claimOf(await makeTemplate(t.db));
    await expect(
      moveVouchers(t.db, {
        event: 'use',
        to: VOUCHER_STATUS.unused,
        where: eq(voucher.id, id),
        orderNo: null,
        note: 'x',
      }),
    ).rejects.toThrow(/not in VOUCHER_TRANSITIONS/);
    expect((await statusOf(id)).status).toBe(VOUCHER_STATUS.unused);
  });

  it('a full refund gives the voucher back where the template says so, once', async () => {
    const giving = await claimOf(await makeTemplate(t.db, { name: '退款退回券', refundReturns: true }));
    const keeping = await claimOf(await makeTemplate(t.db, { name: '退款不退券' }));
    const [first, second] = [await paidWith(giving), await paidWith(keeping)];
    expect((await statusOf(giving)).status).toBe(VOUCHER_STATUS.used);

    await Promise.all([
      refundOrder(t.db, { siteId: 719, orderNo: first }),
      refundOrder(t.db, { siteId: 719, orderNo: first }),
    ]);
    await refundOrder(t.db, { siteId: 719, orderNo: second });
    expect(await statusOf(giving)).toMatchObject({
      status: VOUCHER_STATUS.unused,
      orderNo: null,
      usedAt: null,
    });
    expect(await eventsOf(giving)).toEqual([
      [null, 'unused'],
      ['unused', 'locked'],
      ['locked', 'used'],
      ['used', 'unused'],
    ]);
    expect((await statusOf(keeping)).status).toBe(VOUCHER_STATUS.used);
    // Given back, it pays another order.
    await paidWith(giving);
    expect((await statusOf(giving)).status).toBe(VOUCHER_STATUS.used);
  });
});
