import { adminDashboardApi as api, LOW_STOCK } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, paidOrder } from './admin.fixtures';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
});
afterAll(() => t.close());

describe('dashboard', () => {
  it('counts today’s orders and paid amount of the chosen site, null where the operator may not look', async () => {
    const before = (await admin.call(api.dashboard, { siteId: 719 }, tokens.op719)).body.data;
    await paidOrder(t, 719);
    const after = (await admin.call(api.dashboard, { siteId: 719 }, tokens.op719)).body.data;
    expect(after.todayOrders).toBe((before.todayOrders ?? 0) + 1);
    expect(after.todayPaidAmount).toBeGreaterThan(before.todayPaidAmount ?? 0);
    expect(after).toMatchObject({ pendingApprovals: 0, openAfterSales: 0 });
    expect(after.lowStock?.every((s) => s.stock < LOW_STOCK)).toBe(true);

    // The customer-service agent of 10110 sees no stock figure, and nothing of 719.
    const cs = (await admin.call(api.dashboard, {}, tokens.cs10110)).body.data;
    expect(cs).toMatchObject({ lowStock: null, openAfterSales: 0 });
    expect((await admin.call(api.dashboard, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
    // Another site's orders do not count on 1000.
    const other = (await admin.call(api.dashboard, { siteId: 1000 }, tokens.admin)).body.data;
    expect(other.todayOrders).toBe(0);
  });
});
