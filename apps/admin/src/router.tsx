import { createBrowserRouter, Navigate } from 'react-router';
import { ConsoleLayout } from './ConsoleLayout';
import { AccountPage } from './pages/Account';
import { AuditPage } from './pages/Audit';
import { BargainsPage } from './pages/activity/Bargains';
import { BenefitsGiftsPage } from './pages/activity/BenefitsGifts';
import { GroupBuysPage } from './pages/activity/GroupBuys';
import { LotteryPage } from './pages/activity/Lottery';
import { SeckillPage } from './pages/activity/Seckill';
import { AfterSalesPage } from './pages/aftersales/AfterSales';
import { ApprovalPage } from './pages/approval/Approval';
import { CataloguePage } from './pages/catalogue/Products';
import { StockPage } from './pages/catalogue/Stock';
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
import { ProviderPage } from './pages/provider/ProviderPage';
import { RefundRequestsPage } from './pages/RefundRequests';
import { SitesPage } from './pages/Sites';
import { ServiceMessagesPage } from './pages/service/ServiceMessages';
import { SiteTemplatesPage } from './pages/sites/Templates';

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
        { path: 'sites/:siteId/templates', element: <SiteTemplatesPage /> },
        { path: 'catalogue', element: <CataloguePage /> },
        { path: 'stock', element: <StockPage /> },
        { path: 'orders', element: <OrdersPage /> },
        { path: 'aftersales', element: <AfterSalesPage /> },
        { path: 'service', element: <ServiceMessagesPage /> },
        { path: 'approval', element: <ApprovalPage /> },
        { path: 'refunds', element: <RefundRequestsPage /> },
        { path: 'provider', element: <ProviderPage /> },
        { path: 'payments', element: <PaymentsPage /> },
        { path: 'members', element: <MembersPage /> },
        { path: 'merchants', element: <MerchantsPage /> },
        { path: 'points', element: <PointsPage /> },
        { path: 'activity/group', element: <GroupBuysPage /> },
        { path: 'activity/bargains', element: <BargainsPage /> },
        { path: 'activity/benefits', element: <BenefitsGiftsPage /> },
        { path: 'activity/seckill', element: <SeckillPage /> },
        { path: 'activity/lottery', element: <LotteryPage /> },
        { path: 'promotions', element: <PromotionsPage /> },
        { path: 'audit', element: <AuditPage /> },
        { path: 'operators', element: <OperatorsPage /> },
        { path: 'login-log', element: <LoginLogPage /> },
        { path: 'account', element: <AccountPage /> },
        { path: '*', element: <Navigate to="/dashboard" replace /> },
      ],
    },
  ],
  { basename: BASENAME },
);
