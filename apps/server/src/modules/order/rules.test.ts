import { describe, expect, it } from 'vitest';
import { readConfig } from '../../config';
import { fareOf, REMOTE_PROVINCES } from './freight';
import { newOrderNo } from './submit';

describe('freight rules', () => {
  const group = { source: 1, sourceName: '电商直供', hasAddress: true, goodsAmount: 5000 };
  it('charges the fee under the threshold, nothing over it, and extra for remote provinces', () => {
    expect(fareOf(group, '320000')).toBe(1000);
    expect(fareOf({ ...group, goodsAmount: 9900 }, '320000')).toBe(0);
    expect(fareOf(group, REMOTE_PROVINCES[0] as string)).toBe(2500);
    expect(fareOf({ ...group, goodsAmount: 9900 }, '650000')).toBe(1500);
  });
  it('charges virtual goods nothing', () => {
    expect(fareOf({ ...group, source: 7, hasAddress: false }, '650000')).toBe(0);
  });
});

describe('order rules', () => {
  it('makes order numbers of the mall day and random digits', () => {
    const no = newOrderNo(new Date('2026-11-21T16:30:00Z'));
    expect(no).toMatch(/^SO20261122003000\d{8}$/);
  });
  it('stamps each order number with its own second (the stamp is kept for one second only)', () => {
    const at = (iso: string) => newOrderNo(new Date(iso)).slice(2, 16);
    expect(at('2026-11-21T16:30:00.100Z')).toBe('20261122003000');
    expect(at('2026-11-21T16:30:00.900Z')).toBe('20261122003000');
    expect(at('2026-11-21T16:30:01.000Z')).toBe('20261122003001');
    expect(at('2026-11-21T16:29:59.999Z')).toBe('20261122002959');
  });
  it('reads ORDER_EXPIRE_MINUTES (default 30) and refuses nonsense', () => {
    expect(readConfig({}).orderExpireMinutes).toBe(30);
    expect(readConfig({ ORDER_EXPIRE_MINUTES: '5' }).orderExpireMinutes).toBe(5);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      expect(() => readConfig({ ORDER_EXPIRE_MINUTES: bad })).toThrow(/ORDER_EXPIRE_MINUTES/);
    }
  });
});
