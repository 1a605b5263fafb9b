import { ACTIVITY_STATUS, type Timing, type TimingStatus } from '@sitemall/contract';
import { chinaDay, chinaTime } from '../../lib/china-time';

/** A span of time [start, end). */
export interface Window {
  start: Date;
  end: Date;
}

const HH_MM = /^([01]\d|2[0-4]):([0-5]\d)$/;

/** Minutes after midnight of "HH:mm" ("24:00" is the next midnight). */
export function minutesOf(hhmm: string): number {
  const m = HH_MM.exec(hhmm);
  if (!m) throw new Error(`bad session time ${hhmm}`);
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  if (minutes > 1440) throw new Error(`bad session time ${hhmm}`);
  return minutes;
}

/** The mall's day (China) of an instant, 'YYYY-MM-DD'. */
export const mallDay = (now: Date): string => chinaTime(now, 'YYYY-MM-DD');

/** A daily session on a mall day (China has no daylight saving: a day is 1440 minutes). */
export function sessionWindow(day: string, session: { startTime: string; endTime: string }): Window {
  const { start } = chinaDay(day);
  return {
    start: new Date(start.getTime() + minutesOf(session.startTime) * 60_000),
    end: new Date(start.getTime() + minutesOf(session.endTime) * 60_000),
  };
}

/** Where two windows overlap; undefined when they do not. */
export function overlap(a: Window, b: Window): Window | undefined {
  const start = a.start > b.start ? a.start : b.start;
  const end = a.end < b.end ? a.end : b.end;
  return start < end ? { start, end } : undefined;
}

export function statusAt(window: Window, now: Date): TimingStatus {
  if (now < window.start) return ACTIVITY_STATUS.notStarted;
  if (now >= window.end) return ACTIVITY_STATUS.ended;
  return ACTIVITY_STATUS.running;
}

/** The spec's activity timing of a window, seen at `now` (the server's clock). */
export const timingOf = (window: Window, now: Date): Timing => ({
  startTimeStamp: window.start.getTime(),
  endTimeStamp: window.end.getTime(),
  currentTime: now.getTime(),
  status: statusAt(window, now),
});

/**
 * The window that matters now among several (an activity in several sessions of a day): the
 * running one, else the next to start, else the last that ended.
 */
export function currentWindow(windows: readonly Window[], now: Date): Window | undefined {
  const sorted = [...windows].sort((a, b) => a.start.getTime() - b.start.getTime());
  return (
    sorted.find((w) => statusAt(w, now) === ACTIVITY_STATUS.running) ??
    sorted.find((w) => statusAt(w, now) === ACTIVITY_STATUS.notStarted) ??
    sorted.at(-1)
  );
}
