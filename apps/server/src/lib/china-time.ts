import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The mall's days are China's (UTC+8, no daylight saving): order numbers, export times and file
 * names, WeChat Pay's RFC 3339 times and the bill list's date filter all read the clock there,
 * whatever zone the server runs in.
 */
export const CHINA_TZ = 'Asia/Shanghai';

/** An instant written as China's wall clock, in a dayjs format ('YYYYMMDD', 'YYYY-MM-DD HH:mm:ss', ...). */
export const chinaTime = (date: Date, format: string): string => dayjs(date).tz(CHINA_TZ).format(format);

/** RFC 3339 in China time, as WeChat Pay writes times: 2026-11-21T13:29:35+08:00. */
export const chinaRfc3339 = (date: Date): string => chinaTime(date, 'YYYY-MM-DD[T]HH:mm:ssZ');

/** The instants a China calendar day ('YYYY-MM-DD') covers: from its 00:00 up to, not including, the next day's. */
export function chinaDay(date: string): { start: Date; end: Date } {
  const start = dayjs.tz(date, CHINA_TZ);
  return { start: start.toDate(), end: start.add(1, 'day').toDate() };
}

/** China's wall clock ('YYYY-MM-DD HH:mm[:ss]', as the console's pickers write it) as an instant: the contract's, one reading for server and console. */
export { fromChinaTime } from '@sitemall/contract';
