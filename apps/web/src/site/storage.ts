/**
 * Client storage (spec section 3, "Stored client values"). Local values are namespaced by
 * site id (`${siteId}_${key}`) and may carry an expiry; the stored site id itself is not
 * namespaced. Session values (the return path after login, the PC notice object, the
 * post-payment flag) live in sessionStorage.
 */

export const SITE_ID_KEY = 'siteId';

/** Keys of values stored per site in localStorage. */
export const LOCAL_KEYS = {
  token: 'token',
  user: 'user',
  loginWay: 'loginWay',
  openId: 'openId',
} as const;

/** Keys of values stored in sessionStorage. */
export const SESSION_KEYS = {
  loginSuccessBackPath: 'loginSuccessBackPath',
  pcNotice: 'pcNotice',
  /** Set after a points payment; /payresultvalid consumes it (spec section 4, "Post-pay"). */
  payResult: 'payResultValid',
} as const;

/** Deployment-wide (not per site): the build version last seen (spec section 4, version check). */
export const VERSION_KEY = 'sitemallVersion';

interface Stored<T> {
  value: T;
  /** Epoch milliseconds after which the value reads as absent. */
  expires?: number;
}

export interface StoredUser {
  id?: number | string;
  phone?: string;
  username?: string;
}

export function getSiteId(): string | null {
  const value = localStorage.getItem(SITE_ID_KEY);
  return value ? value : null;
}

export function setSiteId(siteId: string): void {
  localStorage.setItem(SITE_ID_KEY, siteId);
}

export const siteKey = (key: string, siteId: string | null = getSiteId()): string => `${siteId ?? ''}_${key}`;

function parse<T>(raw: string | null): Stored<T> | null {
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === 'object' && 'value' in parsed) return parsed as Stored<T>;
  } catch {
    // A value written by something else: treat it as absent.
  }
  return null;
}

export interface SetOptions {
  /** Lifetime in milliseconds; without it the value never expires. */
  ttlMs?: number;
  siteId?: string | null;
  now?: number;
}

export function setItem<T>(key: string, value: T, options: SetOptions = {}): void {
  const stored: Stored<T> = { value };
  if (options.ttlMs !== undefined) stored.expires = (options.now ?? Date.now()) + options.ttlMs;
  localStorage.setItem(
    siteKey(key, options.siteId === undefined ? getSiteId() : options.siteId),
    JSON.stringify(stored),
  );
}

export function getItem<T>(key: string, options: { siteId?: string | null; now?: number } = {}): T | null {
  const fullKey = siteKey(key, options.siteId === undefined ? getSiteId() : options.siteId);
  const stored = parse<T>(localStorage.getItem(fullKey));
  if (!stored) return null;
  if (stored.expires !== undefined && stored.expires <= (options.now ?? Date.now())) {
    localStorage.removeItem(fullKey);
    return null;
  }
  return stored.value;
}

export function removeItem(key: string, siteId: string | null = getSiteId()): void {
  localStorage.removeItem(siteKey(key, siteId));
}

export const getToken = (): string | null => getItem<string>(LOCAL_KEYS.token);
export const getUser = (): StoredUser | null => getItem<StoredUser>(LOCAL_KEYS.user);

export function getLoginWay(siteId?: string | null): number | null {
  const value = getItem<number | string>(LOCAL_KEYS.loginWay, { siteId });
  const way = Number(value);
  return value === null || Number.isNaN(way) ? null : way;
}

/** Exit (spec section 4): clears user, token, open id and the whole session storage. */
export function clearSession(siteId: string | null = getSiteId()): void {
  removeItem(LOCAL_KEYS.token, siteId);
  removeItem(LOCAL_KEYS.user, siteId);
  removeItem(LOCAL_KEYS.openId, siteId);
  sessionStorage.clear();
}

export const session = {
  get<T>(key: string): T | null {
    const raw = sessionStorage.getItem(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  set<T>(key: string, value: T): void {
    sessionStorage.setItem(key, JSON.stringify(value));
  },
  remove(key: string): void {
    sessionStorage.removeItem(key);
  },
  /** Reads and removes a value in one step (one-shot flags). */
  take<T>(key: string): T | null {
    const value = session.get<T>(key);
    sessionStorage.removeItem(key);
    return value;
  },
};

/**
 * Makes the site in the address the stored site. The login token belongs to one site: when
 * the address names another site than the stored one, the token (and its user) is dropped
 * (spec section 4). Returns whether a token was dropped.
 */
export function syncSiteId(urlSiteId: string | null): boolean {
  if (!urlSiteId) return false;
  const stored = getSiteId();
  if (stored === urlSiteId) return false;
  setSiteId(urlSiteId);
  // First visit: nothing was stored, so no token belongs to another site.
  if (stored === null) return false;
  let dropped = false;
  for (const site of [stored, urlSiteId]) {
    if (getItem<string>(LOCAL_KEYS.token, { siteId: site }) !== null) dropped = true;
    removeItem(LOCAL_KEYS.token, site);
    removeItem(LOCAL_KEYS.user, site);
  }
  return dropped;
}
