import { DEFAULT_AUTO_CONFIRM_DAYS } from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { receivedOrder, type Shopper, sevenDay, shopper } from '../aftersale/aftersale.fixtures';
import { mallSite } from '../site/site.tables';
import { autoConfirmOrders } from './auto-confirm';
import { lineOf, type PickedSpec, pickSpecs } from './order.fixtures';
import { mallOrder } from './order.tables';

/**
 * Automatic receipt (issue 15): a shipped order the member does not confirm is confirmed after
 * the site's configJson.autoConfirmDays (the console's site form sets it), else after
 * DEFAULT_AUTO_CONFIRM_DAYS; the return and exchange windows start then.
 */

let t: TestApp;
let on719: Shopper;
let on1000: Shopper;
let goods719: PickedSpec;
let goods1000: PickedSpec;

const daysLater = (days: number) => new Date(Date.now() + days * 86_400_000 + 60_000);
const statusOf = async (orderNo: string) =>
  (await t.db.select({ status: mallOrder.status }).from(mallOrder).where(eq(mallOrder.orderNo, orderNo)))[0]
    ?.status;

beforeAll(async () => {
  t = await testApp();
  on719 = await shopper(t, 719);
  on1000 = await shopper(t, 1000);
  goods719 = (await pickSpecs(t.db, 719, { stock: 100 }))[0] as PickedSpec;
  goods1000 = (await pickSpecs(t.db, 1000, { stock: 100 }))[0] as PickedSpec;
  // Site 719 confirms receipt 3 days after shipping; site 1000 keeps the default.
  await t.db
    .update(mallSite)
    .set({ configJson: sql`${mallSite.configJson} || '{"autoConfirmDays": 3}'::jsonb` })
    .where(eq(mallSite.id, 719));
});
afterAll(() => t.close());

describe('automatic receipt after the site-configured days', () => {
  it('confirms each site’s shipped orders after its own number of days, once', async () => {
    const short = await receivedOrder(t, on719, [lineOf(goods719)], { confirm: false });
    const long = await receivedOrder(t, on1000, [lineOf(goods1000)], { confirm: false });
    expect(await statusOf(short.orderNo)).toBe(22);

    await autoConfirmOrders(t.db, daysLater(2));
    expect(await statusOf(short.orderNo)).toBe(22);
    // Day 3 on site 719: confirmed by parallel runs once; site 1000 still waits.
    await Promise.all([autoConfirmOrders(t.db, daysLater(3)), autoConfirmOrders(t.db, daysLater(3))]);
    expect(await statusOf(short.orderNo)).toBe(23);
    expect(await statusOf(long.orderNo)).toBe(22);
    // The return window starts at the automatic receipt.
    const check = await sevenDay(t, on719, short.orderNo);
    expect(check.receivedTime).not.toBeNull();
    expect(check.lines[0]?.kinds).toContain('return_refund');

    await autoConfirmOrders(t.db, daysLater(DEFAULT_AUTO_CONFIRM_DAYS - 1));
    expect(await statusOf(long.orderNo)).toBe(22);
    await autoConfirmOrders(t.db, daysLater(DEFAULT_AUTO_CONFIRM_DAYS));
    expect(await statusOf(long.orderNo)).toBe(23);
  });
});
