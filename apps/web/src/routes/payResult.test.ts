import { beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_KEYS, SESSION_KEYS, setItem, setSiteId } from '../site/storage.ts';
import { markPaid, payResultTarget } from './payResult.ts';
import { loader as successLoader } from './success.tsx';

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  setSiteId('719');
});

/** Runs the /success loader; a redirect comes back as its Location. */
function openSuccess(): string {
  try {
    const url = 'http://mall.test/shoppingmall/success?siteId=719';
    return `shown ${successLoader({
      request: new Request(url),
      url: new URL(url),
      pattern: '/success',
      params: {},
      context: undefined,
    })}`;
  } catch (thrown) {
    if (thrown instanceof Response) return `to ${thrown.headers.get('Location')}`;
    throw thrown;
  }
}

describe('/payresultvalid', () => {
  it('goes to /success once after a payment, consuming the flag', () => {
    markPaid('SO1');
    expect(payResultTarget()).toBe('/success');
    expect(sessionStorage.getItem(SESSION_KEYS.payResult)).toBeNull();
    expect(payResultTarget()).toBe('/home');
  });

  it('goes home without a payment', () => {
    expect(payResultTarget()).toBe('/home');
  });

  it('goes home when the flag names no order', () => {
    sessionStorage.setItem(SESSION_KEYS.payResult, 'true');
    expect(payResultTarget()).toBe('/home');
  });
});

describe('/success (issue 17, item 3)', () => {
  it('confirms the order just paid, once: a refresh goes to my orders', () => {
    setItem(LOCAL_KEYS.token, 'T');
    markPaid('SO2026');
    payResultTarget();
    expect(openSuccess()).toBe('shown SO2026');
    expect(openSuccess()).toBe('to /myOrder?siteId=719');
  });

  it('opened directly by a member goes to my orders', () => {
    setItem(LOCAL_KEYS.token, 'T');
    expect(openSuccess()).toBe('to /myOrder?siteId=719');
  });

  it('opened by a visitor goes home', () => {
    expect(openSuccess()).toBe('to /home?siteId=719');
  });
});
