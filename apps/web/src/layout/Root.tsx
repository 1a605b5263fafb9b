import { useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { isLoginPath } from '../site/routing.ts';
import { SiteProvider, useSite } from '../site/SiteProvider.tsx';
import { SESSION_KEYS, session } from '../site/storage.ts';
import { DocumentTitle } from './DocumentTitle.tsx';
import { LazyStateScreen, Spinner } from './RouteError.tsx';
import { checkVersion } from './versionCheck.ts';

/** What happens on every navigation (spec sections 2 and 4). */
function NavigationEffects() {
  const location = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
    if (isLoginPath(location.pathname)) session.remove(SESSION_KEYS.pcNotice);
    checkVersion();
  }, [location]);
  return null;
}

function SiteGate() {
  const { status, error } = useSite();
  if (status === 'missing') {
    return (
      <LazyStateScreen
        className="site-state"
        status="404"
        title="未找到商城"
        subTitle="请通过商城提供的链接访问（链接中需包含站点编号 siteId）。"
      />
    );
  }
  if (status === 'loading') {
    return (
      <div className="site-state site-state--loading">
        <Spinner tip="商城加载中…" />
      </div>
    );
  }
  if (status === 'error') {
    return (
      <LazyStateScreen
        className="site-state"
        status="warning"
        title="商城暂时无法访问"
        subTitle={error?.message || '站点配置获取失败'}
        reload
      />
    );
  }
  // The site's theme, partner entry and token check: the frame route (Frame.tsx), loaded with the page.
  return <Outlet />;
}

/**
 * The root of every page: site configuration, navigation effects. Everything drawn with antd
 * loads with the first page (routes/router.tsx), not in the entry script.
 */
export function Root() {
  return (
    <SiteProvider>
      <NavigationEffects />
      <DocumentTitle />
      <SiteGate />
    </SiteProvider>
  );
}
