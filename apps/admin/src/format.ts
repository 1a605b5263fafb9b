import { fenToYuan } from '@sitemall/contract';
import dayjs from 'dayjs';

/** Money in the console: yuan with two decimals and thousands grouped. */
export const yuan = (fen: number) => fenToYuan(fen, { grouped: true });

/** A moment as the console shows it; '-' for none. */
export const time = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '-');

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
