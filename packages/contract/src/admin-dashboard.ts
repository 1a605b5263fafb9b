import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';

/**
 * The console's landing page (issue 12): today's orders and paid amount, points issued and
 * spent, members who ordered, after-sales and approvals waiting, specifications running low,
 * and the last days' orders and paid amount as a chart, over the chosen site or all of the
 * operator's sites. A figure the operator may not see (no permission on any site) is null.
 */
const { SiteIdIn, tagOf } = adminSchema;

/** A specification with fewer pieces than this is "low stock". */
export const LOW_STOCK = 10;

export const LowStockRow = Type.Object({
  productId: Type.Integer(),
  specificationId: Type.Integer(),
  name: Type.String(),
  specificationValue: Type.String(),
  stock: Type.Integer(),
});

/** Days of the trend chart, today included. */
export const DASHBOARD_DAYS = 7;

export const DayTrend = Type.Object({
  day: Type.String({ description: 'China time, YYYY-MM-DD' }),
  orders: Type.Integer(),
  paidAmount: Type.Integer({ description: 'fen' }),
});
export type DayTrend = Static<typeof DayTrend>;

export const Dashboard = Type.Object({
  day: Type.String({ description: 'today, China time' }),
  todayOrders: Type.Union([Type.Integer(), Type.Null()]),
  todayPaidAmount: Type.Union([Type.Integer({ description: 'fen' }), Type.Null()]),
  /** Members with an order placed today. */
  todayActiveMembers: Type.Union([Type.Integer(), Type.Null()]),
  /** Points credited by issues today (fen). */
  todayPointsIssued: Type.Union([Type.Integer(), Type.Null()]),
  /** Points paid for orders today (fen, a positive figure). */
  todayPointsSpent: Type.Union([Type.Integer(), Type.Null()]),
  /** Orders placed and amount paid per China day, oldest first, DASHBOARD_DAYS days. */
  trend: Type.Union([Type.Array(DayTrend), Type.Null()]),
  pendingApprovals: Type.Union([Type.Integer(), Type.Null()]),
  openAfterSales: Type.Union([Type.Integer(), Type.Null()]),
  lowStock: Type.Union([Type.Array(LowStockRow), Type.Null()]),
});
export type Dashboard = Static<typeof Dashboard>;

export const adminDashboardApi = {
  dashboard: endpoint({
    ...tagOf('dashboard'),
    operator: 'self',
    method: 'GET',
    path: '/dashboard',
    summary:
      '首页看板：今日订单、支付金额、下单会员、积分发放与消费、待处理售后、待审批、低库存、近 7 日趋势',
    body: Type.Object({ siteId: Type.Optional(SiteIdIn) }),
    reply: Envelope(Dashboard),
  }),
};
