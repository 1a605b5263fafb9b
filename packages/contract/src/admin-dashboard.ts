import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';

/**
 * The console's landing page (issue 12): today's orders and paid amount, after-sales and
 * approvals waiting, and specifications running low, over the chosen site or all of the
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

export const Dashboard = Type.Object({
  day: Type.String({ description: 'today, China time' }),
  todayOrders: Type.Union([Type.Integer(), Type.Null()]),
  todayPaidAmount: Type.Union([Type.Integer({ description: 'fen' }), Type.Null()]),
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
    summary: '首页看板：今日订单、支付金额、待处理售后、待审批、低库存',
    body: Type.Object({ siteId: Type.Optional(SiteIdIn) }),
    reply: Envelope(Dashboard),
  }),
};
