import { chinaTime, fenToYuan, fromChinaTime } from '@sitemall/contract';
import dayjs, { type Dayjs } from 'dayjs';

/** Money in the console: yuan with two decimals and thousands grouped. */
export const yuan = (fen: number) => fenToYuan(fen, { grouped: true });

/**
 * A moment as the console shows it: China's wall clock (the mall's clock, whatever the
 * operator's browser zone), in a pattern of YYYY MM DD HH mm ss; '-' for none.
 */
export const time = (at: string | number | null | undefined, pattern = 'YYYY-MM-DD HH:mm:ss') =>
  chinaTime(at, pattern) || '-';

/** A moment to the minute, as lists show it. */
export const minute = (at: string | number | null | undefined) => time(at, 'YYYY-MM-DD HH:mm');

/** A day as the console shows it (China's calendar); '-' for none. */
export const day = (at: string | number | null | undefined) => time(at, 'YYYY-MM-DD');

/**
 * A date picker's value for an instant: a picker shows the browser's wall clock, so it gets
 * China's wall clock of the instant (what the operator reads everywhere else).
 */
export const pickerOf = (at: string | number | Date): Dayjs => dayjs(chinaTime(at, 'YYYY-MM-DDTHH:mm:ss'));

/** What a picker shows now: China's wall clock. */
export const chinaNow = (): Dayjs => pickerOf(Date.now());

/** A picked wall clock (a Dayjs or the text ProForm gives) read as China time: the instant. */
export const instantOf = (picked: Dayjs | string): Date =>
  fromChinaTime(dayjs(picked).format('YYYY-MM-DD HH:mm:ss'));

/** Yuan typed in a form (two decimals at most) as fen. */
export const toFen = (yuanAmount: number) => Math.round(yuanAmount * 100);

/** Labels by value as a ProTable column's valueEnum (a select in the search form). */
export const enumOf = (labels: Record<string | number, string>) =>
  Object.fromEntries(Object.entries(labels).map(([k, text]) => [k, { text }]));

/** Labels by value as the options of a select or a radio group. */
export const optionsOf = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

/**
 * A ProTable column searched by a range of days: the search form sends the column's key as
 * `[from, to]`, each a China day `YYYY-MM-DD`. Spread it into the column, after its title.
 */
export const dayRangeColumn = <Key extends string>(dataIndex: Key) => ({
  dataIndex,
  valueType: 'dateRange' as const,
  search: {
    transform: (v: [string, string]) => ({
      [dataIndex]: [dayjs(v[0]).format('YYYY-MM-DD'), dayjs(v[1]).format('YYYY-MM-DD')],
    }),
  },
});
