import { describe, expect, it } from 'vitest';
import { chinaDay, chinaRfc3339, chinaTime } from './china-time';

describe('China time', () => {
  it("writes an instant as China's wall clock, a day ahead from 16:00 UTC", () => {
    expect(chinaTime(new Date('2026-11-21T15:59:59Z'), 'YYYY-MM-DD HH:mm:ss')).toBe('2026-11-21 23:59:59');
    expect(chinaTime(new Date('2026-11-21T16:00:00Z'), 'YYYY-MM-DD HH:mm:ss')).toBe('2026-11-22 00:00:00');
    expect(chinaTime(new Date('2026-12-31T16:00:00.999Z'), 'YYYYMMDDHHmmss')).toBe('20270101000000');
  });

  it('writes RFC 3339 with the +08:00 offset, seconds only', () => {
    expect(chinaRfc3339(new Date('2026-11-21T05:29:35.678Z'))).toBe('2026-11-21T13:29:35+08:00');
    expect(chinaRfc3339(new Date('2026-11-21T16:00:00Z'))).toBe('2026-11-22T00:00:00+08:00');
  });

  it("covers a China day from its 00:00 to the next day's 00:00 (+08:00)", () => {
    const { start, end } = chinaDay('2026-11-22');
    expect(start.toISOString()).toBe('2026-11-21T16:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-22T16:00:00.000Z');
    // 23:59:59 at +08:00 is still in the day, 00:00 the next day is not.
    const lastSecond = new Date('2026-11-22T23:59:59+08:00');
    const nextMidnight = new Date('2026-11-23T00:00:00+08:00');
    expect(lastSecond >= start && lastSecond < end).toBe(true);
    expect(nextMidnight < end).toBe(false);
    expect(new Date('2026-11-22T00:00:00+08:00').getTime()).toBe(start.getTime());
  });

  it('crosses month and year ends', () => {
    expect(chinaDay('2026-12-31').end.toISOString()).toBe('2026-12-31T16:00:00.000Z');
    expect(chinaDay('2028-02-28').end.toISOString()).toBe('2028-02-28T16:00:00.000Z');
  });
});
