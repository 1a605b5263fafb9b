import { describe, expect, it } from 'vitest';
import { chinaTime, fromChinaTime } from './china-time';

describe('chinaTime', () => {
  it('writes an instant as China’s wall clock whatever the process zone', () => {
    // 16:30 UTC is half past midnight of the next day in China.
    expect(chinaTime('2026-12-01T16:30:05Z')).toBe('2026-12-02 00:30:05');
    expect(chinaTime(Date.UTC(2026, 11, 1, 16, 30), 'YYYY-MM-DD HH:mm')).toBe('2026-12-02 00:30');
    expect(chinaTime(new Date('2026-12-31T20:00:00Z'), 'MM-DD HH:mm')).toBe('01-01 04:00');
    expect(chinaTime('2026-12-01T16:30:05Z', 'YYYY-MM-DD')).toBe('2026-12-02');
  });

  it('writes nothing for no instant or an invalid one', () => {
    expect(chinaTime(null)).toBe('');
    expect(chinaTime(undefined)).toBe('');
    expect(chinaTime('')).toBe('');
    expect(chinaTime('not a time')).toBe('');
  });

  it('reads a picker’s wall clock as China time', () => {
    expect(fromChinaTime('2026-12-02 00:30').toISOString()).toBe('2026-12-01T16:30:00.000Z');
    expect(fromChinaTime('2026-12-02 00:30:05').toISOString()).toBe('2026-12-01T16:30:05.000Z');
    expect(fromChinaTime('2026-12-02').toISOString()).toBe('2026-12-01T16:00:00.000Z');
    expect(chinaTime(fromChinaTime('2026-06-15 09:00'), 'YYYY-MM-DD HH:mm')).toBe('2026-06-15 09:00');
  });
});
