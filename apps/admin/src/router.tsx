import { createBrowserRouter, Navigate } from 'react-router';
import { ConsoleLayout } from './ConsoleLayout';
import { AuditPage } from './pages/Audit';
import { BargainsPage } from './pages/activity/Bargains';
import { GroupBuysPage } from './pages/activity/GroupBuys';
import { LotteryPage } from './pages/activity/Lottery';
import { SeckillPage } from './pages/activity/Seckill';
import { AfterSalesPage } from './pages/aftersales/AfterSales';
import { ApprovalPage } from './pages/approval/Approval';
import { DashboardPage } from './pages/Dashboard';
import { LoginPage } from './pages/Login';
import { LoginLogPage } from './pages/LoginLog';
import { MembersPage } from './pages/Members';
import { MerchantsPage } from './pages/merchants/Merchants';
import { OperatorsPage } from './pages/Operators';
import { OrdersPage } from './pages/Orders';
import { PointsPage } from './pages/Points';
import { PaymentsPage } from './pages/payments/Payments';
import { PromotionsPage } from './pages/promotions/PromotionsPage';
import { SitesPage } from './pages/Sites';
import { ServiceMessagesPage } from './pages/service/ServiceMessages';

export const BASENAME = '/admin';

/** The console's screens; each menu entry of ConsoleLayout is one of these paths. */
export const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginPage /> },
    {
      path: '/',
      element: <ConsoleLayout />,
      children: [
        { index: true, element: <Navigate to="/dashboard" replace /> },
        { path: 'dashboard', element: <DashboardPage /> },
        { path: 'sites', element: <SitesPage /> },
        { path: 'orders', element: <OrdersPage /> },
        { path: 'aftersales', element: <AfterSalesPage /> },
        { path: 'service', element: <ServiceMessagesPage /> },
        { path: 'approval', element: <ApprovalPage /> },
        { path: 'payments', element: <PaymentsPage /> },
        { path: 'members', element: <MembersPage /> },
        { path: 'merchants', element: <MerchantsPage /> },
        { path: 'points', element: <PointsPage /> },
        { path: 'activity/group', element: <GroupBuysPage /> },
        { path: 'activity/bargains', element: <BargainsPage /> },
        { path: 'activity/seckill', element: <SeckillPage /> },
        { path: 'activity/lottery', element: <LotteryPage /> },
        { path: 'promotions', element: <PromotionsPage /> },
        { path: 'audit', element: <AuditPage /> },
        { path: 'operators', element: <OperatorsPage /> },
        { path: 'login-log', element: <LoginLogPage /> },
        { path: '*', element: <Navigate to="/dashboard" replace /> },
      ],
    },
  ],
  { basename: BASENAME },
);
