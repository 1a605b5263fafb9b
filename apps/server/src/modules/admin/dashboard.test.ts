import { adminDashboardApi as api, DASHBOARD_DAYS, LOW_STOCK } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { issuePoints } from '../points/issue';
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
    // The order's member is active today; its points payment is spent today.
    expect(after.todayActiveMembers).toBe((before.todayActiveMembers ?? 0) + 1);
    expect(after.todayPointsSpent).toBeGreaterThan(before.todayPointsSpent ?? 0);
    // The chart: seven consecutive China days ending today, today's point the figures above.
    expect(after.trend).toHaveLength(DASHBOARD_DAYS);
    const days = after.trend?.map((d) => d.day) ?? [];
    expect(days.at(-1)).toBe(after.day);
    for (let i = 1; i < days.length; i++)
      expect(Date.parse(days[i] as string) - Date.parse(days[i - 1] as string)).toBe(86_400_000);
    expect(after.trend?.at(-1)).toEqual({
      day: after.day,
      orders: after.todayOrders,
      paidAmount: after.todayPaidAmount,
    });

    // Points issued today count by their amount, on the member's site only.
    const on1000 = async () =>
      (await admin.call(api.dashboard, { siteId: 1000 }, tokens.admin)).body.data.todayPointsIssued;
    const before1000 = await on1000();
    await issuePoints(t.db, { siteId: 719, account: '13800000719', amount: 12_345, note: '看板测试' });
    const issued = (await admin.call(api.dashboard, { siteId: 719 }, tokens.op719)).body.data;
    expect(issued.todayPointsIssued).toBe((after.todayPointsIssued ?? 0) + 12_345);
    expect(await on1000()).toBe(before1000);

    // The customer-service agent of 10110 sees no stock figure, and nothing of 719.
    const cs = (await admin.call(api.dashboard, {}, tokens.cs10110)).body.data;
    expect(cs).toMatchObject({ lowStock: null, openAfterSales: 0 });
    expect((await admin.call(api.dashboard, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
    // Another site's orders do not count on 1000.
    const other = (await admin.call(api.dashboard, { siteId: 1000 }, tokens.admin)).body.data;
    expect(other.todayOrders).toBe(0);
  });
});
