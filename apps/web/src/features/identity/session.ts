import type { LoginResult } from '@sitemall/contract';
import { isLoginPath, withSiteId } from '../../site/routing.ts';
import {
  clearSession,
  LOCAL_KEYS,
  SESSION_KEYS,
  type StoredUser,
  session,
  setItem,
} from '../../site/storage.ts';

/** Pages after which "back where you were" makes no sense: the login pages and register. */
const NO_RETURN_PAGES = ['/register'];

const pathnameOf = (path: string) => path.split(/[?#]/)[0] ?? '';

const BASENAME = '/shoppingmall';
/** An app path: a stored path that still carries the router's basename loses it. */
export function appPath(path: string): string {
  if (path !== BASENAME && !/^\/shoppingmall[/?#]/.test(path)) return path;
  const rest = path.slice(BASENAME.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

export type AfterLogin = { kind: 'route'; to: string } | { kind: 'address'; to: string };

/**
 * Where to go after a successful login (spec section 4):
 * - a stored turntable (lottery) path is returned to as is — it may be an address outside the
 *   storefront, so it is followed as an address when it is not an app path;
 * - configJson.returnBar = 2: always the home page;
 * - a stored path that is a login page (or register), or none: the home page;
 * - otherwise the stored path.
 */
export function afterLoginTarget(input: {
  backPath: string | null;
  returnBar: number | undefined;
  siteId: string | null;
}): AfterLogin {
  const home: AfterLogin = { kind: 'route', to: withSiteId('/home', input.siteId) };
  const stored = input.backPath?.trim();
  const back = stored ? appPath(stored) : null;
  if (back?.includes('turntable')) {
    return /^[a-z][a-z0-9+.-]*:/i.test(back) ? { kind: 'address', to: back } : { kind: 'route', to: back };
  }
  if (input.returnBar === 2) return home;
  if (!back || !back.startsWith('/') || back.startsWith('//')) return home;
  const pathname = pathnameOf(back);
  if (isLoginPath(pathname) || NO_RETURN_PAGES.includes(pathname)) return home;
  return { kind: 'route', to: back };
}

/** Keeps what a login answered: the token and the user, stored per site (spec section 3). */
export function storeLogin(result: Pick<LoginResult, 'token' | 'user'>, siteId: string | null): void {
  setItem(LOCAL_KEYS.token, result.token, { siteId });
  const user: StoredUser = {
    id: result.user.id,
    phone: result.user.phone ?? undefined,
    username: result.user.username ?? undefined,
  };
  setItem(LOCAL_KEYS.user, user, { siteId });
}

/** Reads and forgets the stored return path (it serves one login). */
export const takeBackPath = (): string | null => session.take<string>(SESSION_KEYS.loginSuccessBackPath);

/** Remembers where to come back to before sending the visitor to a login page. */
export function rememberBackPath(path: string): void {
  if (isLoginPath(pathnameOf(path)) || NO_RETURN_PAGES.includes(pathnameOf(path))) return;
  session.set(SESSION_KEYS.loginSuccessBackPath, path);
}

/** Session key: the token the server last confirmed (the loginOrder '0' check runs once per token and session). */
export const CHECKED_TOKEN_KEY = 'checkedToken';

/** Whether the loginOrder '0' token check should run for this page (spec section 4). */
export function needsTokenCheck(input: {
  loginOrder: string | undefined;
  pathname: string;
  token: string | null;
  checkedToken: string | null;
}): boolean {
  if (input.loginOrder !== '0') return false;
  // The login and code pages never check (section 4); register is one of the ways in as well.
  if (isLoginPath(input.pathname) || NO_RETURN_PAGES.includes(input.pathname)) return false;
  // Without a token there is nothing to check: visitors may browse (and keep a guest cart).
  if (!input.token) return false;
  return input.token !== input.checkedToken;
}

/** Exit (section 4): user, token, open id and the session storage go. */
export const endSession = (siteId: string | null) => clearSession(siteId);
