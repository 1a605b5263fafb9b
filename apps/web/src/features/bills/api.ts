import type { BillList, PointsEntryType } from '@sitemall/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../../api/request.ts';

/** The points ledger (POST /api/points/billList, contract points.ts). */
export interface BillFilter {
  type?: PointsEntryType;
  startDate?: string;
  endDate?: string;
  pageNum: number;
}

export const billListQuery = (siteId: string, filter: BillFilter) =>
  queryOptions({
    queryKey: ['identity', siteId, 'points', 'bills', filter],
    queryFn: async () => {
      const answer = await request<BillList>('/api/points/billList', { siteId, ...filter });
      if (answer.code !== 200 || !answer.data) throw new Error(answer.msg || '账单查询失败');
      return answer.data;
    },
    placeholderData: keepPreviousData,
    retry: false,
  });

/** A signed amount: income with +, spending with - (fen in, text out). */
export const signedAmount = (amount: number, format: (fen: number) => string): string =>
  amount > 0 ? `+${format(amount)}` : format(amount);
