import { type PointsEntryType, pointsApi } from '@sitemall/contract';
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
