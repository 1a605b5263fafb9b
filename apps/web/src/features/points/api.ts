import type { PointsBalance } from '@sitemall/contract';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../api/request.ts';

/** The member's points balance (server: apps/server/src/modules/points). */
export const pointsBalanceQuery = (siteId: string) =>
  queryOptions({
    // No token in the key: a token dropped by a 401/416 must not start a second call.
    queryKey: ['identity', siteId, 'points', 'balance'],
    queryFn: async () => {
      const answer = await request<PointsBalance>('/api/points/balance', { siteId });
      if (answer.code !== 200 || !answer.data) throw new Error(answer.msg || '积分余额查询失败');
      return answer.data.balance;
    },
    retry: false,
  });
