import { ADMIN_MSG, DASHBOARD_DAYS, type Dashboard, LOW_STOCK, ORDER_STATUS } from '@sitemall/contract';
import { chinaDay, chinaTime } from '../../lib/china-time';
import { openCaseCount } from '../aftersale/review';
import { lowStock } from '../catalog/stock-admin';
import { countInStatuses, dailyFigures, dayFigures } from '../order/order-admin';
import { pointsFigures } from '../points/points.service';
import { forbidden, inScope, type OperatorCtx, type SiteScope, scopeIsEmpty, scopeOf } from './admin.service';

const DAY_MS = 86_400_000;

/**
 * The landing page's figures. Each one is read over the sites where the operator holds its
 * permission (narrowed to the chosen site); a figure with no such site is null, and a chosen
 * site where the operator holds nothing at all answers 403.
 */
export async function dashboard(ctx: OperatorCtx, siteId?: number, now = new Date()): Promise<Dashboard> {
  if (siteId !== undefined && !ctx.assignments.some((a) => a.siteIds === null || a.siteIds.includes(siteId)))
    throw forbidden(ADMIN_MSG.forbiddenSite);
  const within = (permission: string): SiteScope | null => {
    const scope = scopeOf(ctx, permission);
    const narrowed = siteId === undefined ? scope : inScope(scope, siteId) ? [siteId] : [];
    return scopeIsEmpty(narrowed) ? null : narrowed;
  };
  const day = chinaTime(now, 'YYYY-MM-DD');
  const today = chinaDay(day);
  // The chart's days, oldest first: China midnights back from today's.
  const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) =>
    chinaTime(new Date(today.start.getTime() - (DASHBOARD_DAYS - 1 - i) * DAY_MS + DAY_MS / 2), 'YYYY-MM-DD'),
  );
  const orders = within('orders:view');
  const afterSales = within('aftersales:view');
  const stock = within('stock:view');
  const points = within('points:view');
  const [figures, daily, spent, approvals, open, low] = await Promise.all([
    orders ? dayFigures(ctx.db, orders, today) : null,
    orders ? dailyFigures(ctx.db, orders, chinaDay(days[0] as string).start) : null,
    points ? pointsFigures(ctx.db, points, today) : null,
    orders
      ? countInStatuses(ctx.db, orders, [ORDER_STATUS.pendingApproval, ORDER_STATUS.pendingFinalApproval])
      : null,
    afterSales ? openCaseCount(ctx.db, afterSales) : null,
    stock ? lowStock(ctx.db, stock, LOW_STOCK) : null,
  ]);
  return {
    day,
    todayOrders: figures?.orders ?? null,
    todayPaidAmount: figures?.paidAmount ?? null,
    todayActiveMembers: figures?.activeMembers ?? null,
    todayPointsIssued: spent?.issued ?? null,
    todayPointsSpent: spent?.spent ?? null,
    trend: daily
      ? days.map((d) => ({
          day: d,
          orders: daily.orders.get(d) ?? 0,
          paidAmount: daily.paidAmount.get(d) ?? 0,
        }))
      : null,
    pendingApprovals: approvals,
    openAfterSales: open,
    lowStock: low,
  };
}
