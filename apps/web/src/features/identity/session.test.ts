import { beforeEach, describe, expect, it } from 'vitest';
import {
  getToken,
  getUser,
  LOCAL_KEYS,
  SESSION_KEYS,
  session,
  setItem,
  setSiteId,
} from '../../site/storage.ts';
import {
  afterLoginTarget,
  endSession,
  needsTokenCheck,
  rememberBackPath,
  storeLogin,
  takeBackPath,
} from './session.ts';

const target = (backPath: string | null, returnBar = 1, siteId: string | null = '719') =>
  afterLoginTarget({ backPath, returnBar, siteId });

describe('afterLoginTarget (spec section 4)', () => {
  it('returns to the stored page', () => {
    expect(target('/myOrder?siteId=719')).toEqual({ kind: 'route', to: '/myOrder?siteId=719' });
  });

  it('goes home when nothing was stored or the stored page is a login page or register', () => {
    const home = { kind: 'route', to: '/home?siteId=719' };
    expect(target(null)).toEqual(home);
    expect(target('')).toEqual(home);
    expect(target('/PwdLogin?siteId=719')).toEqual(home);
    expect(target('/CodeLogin')).toEqual(home);
    expect(target('/AccountLogin?siteId=719#x')).toEqual(home);
    expect(target('/login?siteId=719')).toEqual(home);
    expect(target('/register?siteId=719')).toEqual(home);
  });

  it('never follows a stored value that is not an app path', () => {
    expect(target('https://evil.example/home')).toEqual({ kind: 'route', to: '/home?siteId=719' });
    expect(target('//evil.example/x')).toEqual({ kind: 'route', to: '/home?siteId=719' });
  });

  it('goes home on sites with returnBar = 2, whatever was stored', () => {
    expect(target('/myOrder?siteId=10110', 2, '10110')).toEqual({ kind: 'route', to: '/home?siteId=10110' });
  });

  it('returns to a stored turntable path as is (an address when it is one)', () => {
    expect(target('/turntable?activityCode=cj001&siteId=719')).toEqual({
      kind: 'route',
      to: '/turntable?activityCode=cj001&siteId=719',
    });
    expect(target('https://h5.example.com/activity/turntable?siteId=10110', 2)).toEqual({
      kind: 'address',
      to: 'https://h5.example.com/activity/turntable?siteId=10110',
    });
  });

  it('drops the router basename from a stored path', () => {
    expect(target('/shoppingmall/myOrder?siteId=719')).toEqual({ kind: 'route', to: '/myOrder?siteId=719' });
    expect(target('/shoppingmall/PwdLogin?siteId=719')).toEqual({ kind: 'route', to: '/home?siteId=719' });
    expect(target('/shoppingmallx/a')).toEqual({ kind: 'route', to: '/shoppingmallx/a' });
  });

  it('builds home without a siteId when none is known', () => {
    expect(target(null, 1, null)).toEqual({ kind: 'route', to: '/home' });
  });
});

describe('session storage of a login', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    setSiteId('719');
  });

  it('stores token and user under the site', () => {
    storeLogin({ token: 't1', user: { id: 7, phone: '13800000719', username: null } }, '719');
    expect(getToken()).toBe('t1');
    expect(getUser()).toEqual({ id: 7, phone: '13800000719' });
    expect(localStorage.getItem('719_token')).not.toBeNull();
  });

  it('remembers a back path once and never a login page', () => {
    rememberBackPath('/PwdLogin?siteId=719');
    expect(takeBackPath()).toBeNull();
    rememberBackPath('/myOrder?siteId=719');
    expect(takeBackPath()).toBe('/myOrder?siteId=719');
    expect(takeBackPath()).toBeNull();
  });

  it('exit clears user, token, open id and the session storage', () => {
    storeLogin({ token: 't1', user: { id: 7, phone: null, username: 'demo' } }, '719');
    setItem(LOCAL_KEYS.openId, 'o1');
    session.set(SESSION_KEYS.loginSuccessBackPath, '/myOrder');
    endSession('719');
    expect(getToken()).toBeNull();
    expect(getUser()).toBeNull();
    expect(localStorage.getItem('719_openId')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('siteId')).toBe('719');
  });
});

describe('needsTokenCheck (loginOrder 0)', () => {
  const base = { loginOrder: '0', pathname: '/home', token: 't1', checkedToken: null };
  it('checks a token once on sites with loginOrder 0', () => {
    expect(needsTokenCheck(base)).toBe(true);
    expect(needsTokenCheck({ ...base, checkedToken: 't1' })).toBe(false);
    expect(needsTokenCheck({ ...base, checkedToken: 'old' })).toBe(true);
  });
  it('never on other sites, on login or code pages, or without a token', () => {
    expect(needsTokenCheck({ ...base, loginOrder: '1' })).toBe(false);
    expect(needsTokenCheck({ ...base, pathname: '/CodeLogin' })).toBe(false);
    expect(needsTokenCheck({ ...base, pathname: '/PwdLogin' })).toBe(false);
    expect(needsTokenCheck({ ...base, pathname: '/register' })).toBe(false);
    expect(needsTokenCheck({ ...base, token: null })).toBe(false);
  });
});
