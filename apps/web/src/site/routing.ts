import { LOGIN_ROUTE, type LoginWay } from '@sitemall/contract';

/** The path the browser shows, without the /shoppingmall basename: `/myOrder?siteId=719`. */
export type RouterPath = string;

const queryOf = (path: string): URLSearchParams =>
  new URLSearchParams(path.split('?')[1]?.split('#')[0] ?? '');

/**
 * Where to come back to after logging in (spec section 4): the current path; but if the
 * address carries a siteId that the path does not contain, the home page of that site.
 */
export function returnPathFor({ address, path }: { address: string; path: RouterPath }): RouterPath {
  const url = new URL(address, 'http://localhost');
  const siteId = url.searchParams.get('siteId') ?? queryOf(url.hash).get('siteId');
  if (siteId && queryOf(path).get('siteId') !== siteId) return `/home?siteId=${encodeURIComponent(siteId)}`;
  return path;
}

export const LOGIN_PAGES: readonly string[] = ['/login', ...Object.values(LOGIN_ROUTE)];
export const isLoginPath = (pathname: string): boolean => LOGIN_PAGES.includes(pathname);

/** The login page of a login way (section 2, /login); unknown or missing ways go through /login. */
export function loginRouteFor(loginWay: number | null | undefined, siteId?: string | null): string {
  const route = loginWay && loginWay in LOGIN_ROUTE ? LOGIN_ROUTE[loginWay as LoginWay] : '/login';
  return siteId ? `${route}?siteId=${encodeURIComponent(siteId)}` : route;
}

/**
 * Routes marked "adds siteId" (section 2): when the address has no siteId, the stored one is
 * put in. Returns the address to replace the current one with, or null when nothing changes.
 */
export function addSiteId(url: URL, storedSiteId: string | null): string | null {
  if (url.searchParams.get('siteId') || !storedSiteId) return null;
  const params = new URLSearchParams(url.search);
  params.set('siteId', storedSiteId);
  return `${url.pathname}?${params.toString()}${url.hash}`;
}

/** Adds the siteId query to an app path (routes carry siteId, spec section 2). */
export function withSiteId(path: string, siteId: string | null): string {
  if (!siteId) return path;
  const [base = '', hash] = path.split('#');
  const [pathname = '', query = ''] = base.split('?');
  const params = new URLSearchParams(query);
  if (!params.has('siteId')) params.set('siteId', siteId);
  return `${pathname}?${params.toString()}${hash === undefined ? '' : `#${hash}`}`;
}
