import { chinaTime, type PointsEntryType, pointsApi } from '@sitemall/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** The points ledger (`pointsApi.billList`, contract points.ts). */
export interface BillFilter {
  type?: PointsEntryType;
  startDate?: string;
  endDate?: string;
  pageNum: number;
}

export const billListQuery = (siteId: string, filter: BillFilter) =>
  queryOptions({
    queryKey: keys.points.bills(siteId, filter),
    queryFn: () => call(pointsApi.billList, { siteId, ...filter }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** A signed amount: income with +, spending with - (fen in, text out). */
export const signedAmount = (amount: number, format: (fen: number) => string): string =>
  amount > 0 ? `+${format(amount)}` : format(amount);

/**
 * The bill filter's days are China's (the server reads 'YYYY-MM-DD' as a China day): a picker day
 * after China's today, whatever the browser's zone, cannot be chosen.
 */
export const afterChinaToday = (day: { format(pattern: string): string }, now = Date.now()): boolean =>
  day.format('YYYY-MM-DD') > chinaTime(now, 'YYYY-MM-DD');
