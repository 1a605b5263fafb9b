import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_KEYS } from '../site/storage.ts';
import { markPaid, payResultTarget } from './payResult.ts';

beforeEach(() => sessionStorage.clear());

describe('/payresultvalid', () => {
  it('goes to /success once after a payment, consuming the flag', () => {
    markPaid();
    expect(payResultTarget()).toBe('/success');
    expect(sessionStorage.getItem(SESSION_KEYS.payResult)).toBeNull();
    expect(payResultTarget()).toBe('/home');
  });

  it('goes home without a payment', () => {
    expect(payResultTarget()).toBe('/home');
  });
});
