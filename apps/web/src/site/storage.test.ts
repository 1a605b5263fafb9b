import { beforeEach, describe, expect, it } from 'vitest';
import {
  clearSession,
  getItem,
  getLoginWay,
  getSiteId,
  getToken,
  LOCAL_KEYS,
  removeItem,
  session,
  setItem,
  setSiteId,
  syncSiteId,
} from './storage.ts';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('site-namespaced storage', () => {
  it('stores the site id itself without a namespace', () => {
    setSiteId('719');
    expect(localStorage.getItem('siteId')).toBe('719');
    expect(getSiteId()).toBe('719');
  });

  it('namespaces values by the stored site id', () => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 'abc');
    expect(localStorage.getItem('719_token')).toBe('{"value":"abc"}');
    expect(getToken()).toBe('abc');
    setSiteId('10110');
    expect(getToken()).toBeNull();
    expect(getItem(LOCAL_KEYS.token, { siteId: '719' })).toBe('abc');
  });

  it('writes and removes under an explicit site', () => {
    setItem(LOCAL_KEYS.loginWay, 3, { siteId: '10110' });
    expect(getLoginWay('10110')).toBe(3);
    removeItem(LOCAL_KEYS.loginWay, '10110');
    expect(getLoginWay('10110')).toBeNull();
  });

  it('reads an expired value as null and removes it', () => {
    setSiteId('719');
    setItem('notice', { a: 1 }, { ttlMs: 1000, now: 10_000 });
    expect(getItem('notice', { now: 10_999 })).toEqual({ a: 1 });
    expect(getItem('notice', { now: 11_000 })).toBeNull();
    expect(localStorage.getItem('719_notice')).toBeNull();
  });

  it('keeps values without expiry', () => {
    setSiteId('719');
    setItem('k', 1);
    expect(getItem('k', { now: Number.MAX_SAFE_INTEGER })).toBe(1);
  });

  it('reads foreign, unparsable values as null', () => {
    setSiteId('719');
    localStorage.setItem('719_token', 'not-json');
    expect(getToken()).toBeNull();
  });

  it('clearSession drops token, user, open id and the session storage', () => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 't');
    setItem(LOCAL_KEYS.user, { phone: '1' });
    setItem(LOCAL_KEYS.openId, 'o');
    setItem(LOCAL_KEYS.loginWay, 2);
    session.set('loginSuccessBackPath', '/home');
    clearSession();
    expect(getToken()).toBeNull();
    expect(getItem(LOCAL_KEYS.user)).toBeNull();
    expect(getItem(LOCAL_KEYS.openId)).toBeNull();
    expect(getLoginWay()).toBe(2);
    expect(sessionStorage.length).toBe(0);
  });
});

describe('session values', () => {
  it('stores JSON and takes one-shot flags', () => {
    session.set('payResultValid', true);
    expect(session.get('payResultValid')).toBe(true);
    expect(session.take('payResultValid')).toBe(true);
    expect(session.take('payResultValid')).toBeNull();
  });
});

describe('token drop on site change (spec section 4)', () => {
  it('drops the token when the address names another site than the stored one', () => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 't719');
    setItem(LOCAL_KEYS.user, { phone: '13800000000' });
    expect(syncSiteId('10110')).toBe(true);
    expect(getSiteId()).toBe('10110');
    expect(getItem(LOCAL_KEYS.token, { siteId: '719' })).toBeNull();
    expect(getItem(LOCAL_KEYS.user, { siteId: '719' })).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('keeps the token when the site is the same', () => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 't719');
    expect(syncSiteId('719')).toBe(false);
    expect(getToken()).toBe('t719');
  });

  it('keeps the token when the address names no site', () => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 't719');
    expect(syncSiteId(null)).toBe(false);
    expect(getToken()).toBe('t719');
  });

  it('stores the site on a first visit', () => {
    expect(syncSiteId('1000')).toBe(false);
    expect(getSiteId()).toBe('1000');
  });
});
