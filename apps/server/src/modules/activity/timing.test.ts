import { ACTIVITY_STATUS } from '@sitemall/contract';
import { describe, expect, it } from 'vitest';
import { currentWindow, mallDay, minutesOf, overlap, sessionWindow, statusAt, timingOf } from './timing';

/** Activity timing with a fake clock: the instants are given, no real time passes. */
const at = (iso: string) => new Date(iso);

describe('activity timing', () => {
  const session = { startTime: '10:00', endTime: '14:00' };
  // 2026-11-25 in China: 10:00 there is 02:00 UTC.
  const window = sessionWindow('2026-11-25', session);

  it('places a daily session on the mall day (China time)', () => {
    expect(window.start.toISOString()).toBe('2026-11-25T02:00:00.000Z');
    expect(window.end.toISOString()).toBe('2026-11-25T06:00:00.000Z');
    expect(sessionWindow('2026-11-25', { startTime: '20:00', endTime: '24:00' }).end.toISOString()).toBe(
      '2026-11-25T16:00:00.000Z',
    );
    // 23:30 UTC is already the next day in China.
    expect(mallDay(at('2026-11-25T23:30:00Z'))).toBe('2026-11-26');
  });

  it('is -1 before the start, 0 from the start, 1 from the end', () => {
    expect(statusAt(window, at('2026-11-25T01:59:59.999Z'))).toBe(ACTIVITY_STATUS.notStarted);
    expect(statusAt(window, at('2026-11-25T02:00:00.000Z'))).toBe(ACTIVITY_STATUS.running);
    expect(statusAt(window, at('2026-11-25T05:59:59.999Z'))).toBe(ACTIVITY_STATUS.running);
    expect(statusAt(window, at('2026-11-25T06:00:00.000Z'))).toBe(ACTIVITY_STATUS.ended);
  });

  it('answers the spec timing with the server time', () => {
    const now = at('2026-11-25T03:00:00Z');
    expect(timingOf(window, now)).toEqual({
      startTimeStamp: window.start.getTime(),
      endTimeStamp: window.end.getTime(),
      currentTime: now.getTime(),
      status: 0,
    });
  });

  it('cuts a session to the activity dates', () => {
    const activity = { start: at('2026-11-25T03:30:00Z'), end: at('2026-12-01T00:00:00Z') };
    expect(overlap(window, activity)).toEqual({ start: activity.start, end: window.end });
    expect(overlap(window, { start: at('2026-11-26T00:00:00Z'), end: at('2026-11-27T00:00:00Z') })).toBe(
      undefined,
    );
  });

  it('picks the running window, else the next, else the last', () => {
    const morning = sessionWindow('2026-11-25', { startTime: '08:00', endTime: '09:00' });
    const evening = sessionWindow('2026-11-25', { startTime: '20:00', endTime: '21:00' });
    const all = [evening, window, morning];
    expect(currentWindow(all, at('2026-11-25T03:00:00Z'))).toBe(window);
    expect(currentWindow(all, at('2026-11-25T07:00:00Z'))).toBe(evening);
    expect(currentWindow(all, at('2026-11-25T15:00:00Z'))).toBe(evening);
    expect(currentWindow(all, at('2026-11-24T00:00:00Z'))).toBe(morning);
  });

  it('refuses malformed session times', () => {
    expect(minutesOf('24:00')).toBe(1440);
    expect(() => minutesOf('24:01')).toThrow();
    expect(() => minutesOf('9:00')).toThrow();
  });
});
