/**
 * The mall keeps China's clock (UTC+8): order numbers carry China's date, bills filter by China
 * days, activities open at China's wall-clock times. Everything a shopper or an operator reads
 * is therefore written in China time too, whatever zone the browser (or a test machine) is in.
 * The platform's Intl does the zone work: no library, nothing added to the storefront's bundle.
 */
export const CHINA_TIME_ZONE = 'Asia/Shanghai';

/**
 * Made on first use, not when the module loads: every page loads the contract, and a first
 * zone-aware Intl format makes the browser load its zone data (time a page without a time to
 * show should not spend).
 */
let clock: Intl.DateTimeFormat | undefined;
function chinaClock(): Intl.DateTimeFormat {
  clock ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: CHINA_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return clock;
}

const TOKEN: Record<string, Intl.DateTimeFormatPartTypes> = {
  YYYY: 'year',
  MM: 'month',
  DD: 'day',
  HH: 'hour',
  mm: 'minute',
  ss: 'second',
};

/**
 * An instant (ISO text, epoch milliseconds or a Date) as China's wall clock, in a pattern of
 * YYYY MM DD HH mm ss ('YYYY-MM-DD HH:mm', 'MM-DD HH:mm', ...); '' for no instant or an invalid one.
 */
export function chinaTime(
  value: string | number | Date | null | undefined,
  pattern = 'YYYY-MM-DD HH:mm:ss',
): string {
  if (value === null || value === undefined || value === '') return '';
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) return '';
  const parts = Object.fromEntries(
    chinaClock()
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[TOKEN[token] as string] ?? '');
}

/** China's wall clock ('YYYY-MM-DD HH:mm[:ss]' or 'YYYY-MM-DD', as a picker writes it) as an instant. */
export function fromChinaTime(wallClock: string): Date {
  const [day, time = '00:00:00'] = wallClock.trim().split(/[ T]/);
  return new Date(`${day}T${time.length === 5 ? `${time}:00` : time}+08:00`);
}
