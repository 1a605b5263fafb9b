import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { Outlet } from 'react-router';
import { ServiceInfoProvider } from '../features/service-info/ServiceInfo.tsx';
import { Footer } from './Footer.tsx';
import { MainBar } from './MainBar.tsx';
import { NavBar } from './NavBar.tsx';
import { PageBreadcrumb } from './PageBreadcrumb.tsx';
import { TopBar } from './TopBar.tsx';

/** Exposes the site's antd tokens to the shared layout CSS, so no site needs its own CSS. */
export function useThemeVars(): CSSProperties {
  const { token } = theme.useToken();
  return {
    '--sm-primary': token.colorPrimary,
    '--sm-primary-hover': token.colorPrimaryHover,
    '--sm-primary-active': token.colorPrimaryActive,
    '--sm-primary-bg': token.colorPrimaryBg,
  } as CSSProperties;
}

/** Header, breadcrumb, page and footer: every page except the login pages and register. */
export function MallLayout() {
  const vars = useThemeVars();
  return (
    <ServiceInfoProvider>
      <div className="mall" style={vars}>
        <header>
          <TopBar />
          <MainBar />
          <NavBar />
        </header>
        <main className="mall__main">
          <div className="container">
            <PageBreadcrumb />
            <Outlet />
          </div>
        </main>
        <Footer />
      </div>
    </ServiceInfoProvider>
  );
}

/** Login pages and register: no header or footer. */
export function BareLayout() {
  const vars = useThemeVars();
  return (
    <div className="bare" style={vars}>
      <Outlet />
    </div>
  );
}
