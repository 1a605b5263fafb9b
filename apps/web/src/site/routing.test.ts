// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { addSiteId, isLoginPath, loginRouteFor, returnPathFor, withSiteId } from './routing.ts';

const url = (path: string) => new URL(path, 'http://127.0.0.1');

describe('adds siteId (spec section 2)', () => {
  it('fills a missing siteId from the stored one', () => {
    expect(addSiteId(url('/myOrder'), '719')).toBe('/myOrder?siteId=719');
    expect(addSiteId(url('/shoppingCart?x=1#top'), '10110')).toBe('/shoppingCart?x=1&siteId=10110#top');
  });

  it('leaves an address that has a siteId alone', () => {
    expect(addSiteId(url('/home?siteId=1000'), '719')).toBeNull();
  });

  it('cannot fill anything without a stored siteId', () => {
    expect(addSiteId(url('/home'), null)).toBeNull();
  });
});

describe('return path (spec section 4)', () => {
  it('is the current path when it carries the siteId of the address', () => {
    expect(
      returnPathFor({ address: 'http://h/shoppingmall/myOrder?siteId=719', path: '/myOrder?siteId=719' }),
    ).toBe('/myOrder?siteId=719');
  });

  it('is the home of the site when the address carries a siteId the path lacks', () => {
    expect(returnPathFor({ address: 'http://h/shoppingmall/?siteId=719#x', path: '/orderDetail?id=5' })).toBe(
      '/home?siteId=719',
    );
  });

  it('is the current path when the address has no siteId', () => {
    expect(returnPathFor({ address: 'http://h/shoppingmall/myOrder', path: '/myOrder' })).toBe('/myOrder');
  });
});

describe('login routes', () => {
  it('maps login ways to pages, keeping the site', () => {
    expect(loginRouteFor(1, '1000')).toBe('/PwdLogin?siteId=1000');
    expect(loginRouteFor(2, '719')).toBe('/CodeLogin?siteId=719');
    expect(loginRouteFor(3, null)).toBe('/AccountLogin');
    expect(loginRouteFor(null, '719')).toBe('/login?siteId=719');
    expect(loginRouteFor(9, null)).toBe('/login');
  });

  it('knows the login pages', () => {
    expect(isLoginPath('/CodeLogin')).toBe(true);
    expect(isLoginPath('/login')).toBe(true);
    expect(isLoginPath('/register')).toBe(false);
  });
});

describe('withSiteId', () => {
  it('adds the site to links that lack it', () => {
    expect(withSiteId('/searchList?itemName=茶', '719')).toBe('/searchList?itemName=%E8%8C%B6&siteId=719');
    expect(withSiteId('/home?siteId=1000', '719')).toBe('/home?siteId=1000');
    expect(withSiteId('/myOrder', null)).toBe('/myOrder');
  });
});
