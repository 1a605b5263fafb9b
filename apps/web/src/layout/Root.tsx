import { App as AntApp, Button, Spin } from 'antd';
import { useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { configureRequest } from '../api/request.ts';
import { mergeGuestCart } from '../features/cart/index.ts';
import { PartnerEntryGate } from '../features/identity/PartnerEntry.tsx';
import { TokenCheck } from '../features/identity/TokenCheck.tsx';
import { onLoggedIn } from '../site/loginHooks.ts';
import { isLoginPath, loginRouteFor } from '../site/routing.ts';
import { SiteProvider, useSite } from '../site/SiteProvider.tsx';
import { getToken, SESSION_KEYS, session } from '../site/storage.ts';
import { DocumentTitle } from './DocumentTitle.tsx';
import { Result } from './LazyResult.tsx';
import { checkVersion } from './versionCheck.ts';

// A visitor's device cart joins the member's cart at login (spec section 6).
onLoggedIn(({ siteId }) => mergeGuestCart(siteId));

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

/** Routes request-layer toasts through antd's themed message API. */
function RequestToasts() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    configureRequest({ toast: (text) => void message.warning(text) });
  }, [message]);
  return null;
}

/** A site that is switched off (isUsable = 0) sends visitors without a token to login (section 4). */
function UnusableSiteGuard() {
  const { site, siteId } = useSite();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const mustLogIn = site?.isUsable === 0 && !getToken() && !isLoginPath(pathname) && pathname !== '/register';
  useEffect(() => {
    if (mustLogIn) navigate(loginRouteFor(site?.loginWay, siteId), { replace: true });
  }, [mustLogIn, navigate, site?.loginWay, siteId]);
  return null;
}

function SiteGate() {
  const { status, error } = useSite();
  if (status === 'missing') {
    return (
      <Result
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
        <Spin size="large" tip="商城加载中…">
          <div className="site-state__spin" />
        </Spin>
      </div>
    );
  }
  if (status === 'error') {
    return (
      <Result
        className="site-state"
        status="warning"
        title="商城暂时无法访问"
        subTitle={error?.message || '站点配置获取失败'}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            重新加载
          </Button>
        }
      />
    );
  }
  return (
    <PartnerEntryGate>
      <UnusableSiteGuard />
      <TokenCheck />
      <Outlet />
    </PartnerEntryGate>
  );
}

/** The root of every page: site configuration, theme, navigation effects. */
export function Root() {
  return (
    <SiteProvider>
      <NavigationEffects />
      <DocumentTitle />
      <RequestToasts />
      <SiteGate />
    </SiteProvider>
  );
}
