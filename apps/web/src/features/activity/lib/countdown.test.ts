// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { clock, dayClock, offsetOf, phaseAt, remaining } from './countdown.ts';

const timing = { startTimeStamp: 10_000, endTimeStamp: 70_000 };

describe('activity countdown', () => {
  it('applies the server offset', () => {
    // The server is 5 s ahead of this PC.
    const offset = offsetOf(105_000, 100_000);
    expect(offset).toBe(5_000);
    expect(phaseAt(timing, 6_000 + offset)).toBe(0);
  });

  it('moves -1 → 0 → 1 at the start and the end', () => {
    expect(phaseAt(timing, 9_999)).toBe(-1);
    expect(phaseAt(timing, 10_000)).toBe(0);
    expect(phaseAt(timing, 69_999)).toBe(0);
    expect(phaseAt(timing, 70_000)).toBe(1);
  });

  it('counts to the start, then to the end', () => {
    expect(remaining(timing, 0)).toBe(10_000);
    expect(remaining(timing, 10_000)).toBe(60_000);
    expect(remaining(timing, 80_000)).toBe(0);
    expect(clock(3_723_001)).toBe('01:02:04');
    expect(clock(0)).toBe('00:00:00');
    expect(clock(90_000_000)).toBe('25:00:00');
  });

  it('shows whole days first on a long countdown (a group-buy activity)', () => {
    expect(dayClock(90_000_000)).toBe('1天 01:00:00');
    expect(dayClock(3_723_001)).toBe('01:02:04');
    expect(dayClock(-5)).toBe('00:00:00');
  });
});
