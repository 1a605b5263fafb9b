import { App as AntApp } from 'antd';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { configureRequest } from '../api/request.ts';
import { mergeGuestCart } from '../features/cart/index.ts';
import { PartnerEntryGate } from '../features/identity/PartnerEntry.tsx';
import { TokenCheck } from '../features/identity/TokenCheck.tsx';
import { onLoggedIn } from '../site/loginHooks.ts';
import { isLoginPath, loginRouteFor } from '../site/routing.ts';
import { useSite } from '../site/SiteProvider.tsx';
import { SiteTheme } from '../site/SiteTheme.tsx';
import { getToken } from '../site/storage.ts';

/**
 * The frame of every page of a site that loaded (a lazy route above the layouts, loaded with the
 * first page): antd in the site's theme, request toasts, the partner entry, the token check.
 */

dayjs.locale('zh-cn');

// A visitor's device cart joins the member's cart at login (spec section 6).
onLoggedIn(({ siteId }) => mergeGuestCart(siteId));

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

export function Component() {
  return (
    <SiteTheme>
      <RequestToasts />
      <PartnerEntryGate>
        <UnusableSiteGuard />
        <TokenCheck />
        <Outlet />
      </PartnerEntryGate>
    </SiteTheme>
  );
}
