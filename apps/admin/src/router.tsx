import { createBrowserRouter, Navigate } from 'react-router';
import { ConsoleLayout } from './ConsoleLayout';
import { AuditPage } from './pages/Audit';
import { LoginPage } from './pages/Login';
import { LoginLogPage } from './pages/LoginLog';
import { MembersPage } from './pages/Members';
import { OperatorsPage } from './pages/Operators';
import { OrdersPage } from './pages/Orders';
import { PointsPage } from './pages/Points';
import { SitesPage } from './pages/Sites';

export const BASENAME = '/admin';

/** The console's screens; each menu entry of ConsoleLayout is one of these paths. */
export const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginPage /> },
    {
      path: '/',
      element: <ConsoleLayout />,
      children: [
        { index: true, element: <Navigate to="/sites" replace /> },
        { path: 'sites', element: <SitesPage /> },
        { path: 'orders', element: <OrdersPage /> },
        { path: 'members', element: <MembersPage /> },
        { path: 'points', element: <PointsPage /> },
        { path: 'audit', element: <AuditPage /> },
        { path: 'operators', element: <OperatorsPage /> },
        { path: 'login-log', element: <LoginLogPage /> },
        { path: '*', element: <Navigate to="/sites" replace /> },
      ],
    },
  ],
  { basename: BASENAME },
);
