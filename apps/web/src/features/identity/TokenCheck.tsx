import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSite } from '../../site/SiteProvider.tsx';
import { getToken, session } from '../../site/storage.ts';
import { checkToken } from './api.ts';
import { CHECKED_TOKEN_KEY, needsTokenCheck } from './session.ts';

/**
 * loginOrder '0' (spec section 4): off the login and code pages, the stored token is checked
 * with the server, once per token and browser session. A 401/416 answer goes through the
 * request layer, which forgets the token, remembers the page and sends the visitor to login.
 */
export function TokenCheck() {
  const { site, siteId } = useSite();
  const { pathname } = useLocation();
  const loginOrder = site?.loginOrder;
  useEffect(() => {
    const token = getToken();
    const checkedToken = session.get<string>(CHECKED_TOKEN_KEY);
    if (!siteId || !token || !needsTokenCheck({ loginOrder, pathname, token, checkedToken })) return;
    void checkToken({ siteId, token })
      .then(() => session.set(CHECKED_TOKEN_KEY, token))
      .catch(() => undefined);
  }, [loginOrder, pathname, siteId]);
  return null;
}
