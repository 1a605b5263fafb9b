import { pointsApi } from '@sitemall/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** The member's points balance (server: apps/server/src/modules/points). */
export const pointsBalanceQuery = (siteId: string) =>
  queryOptions({
    // No token in the key: a token dropped by a 401/416 must not start a second call.
    queryKey: keys.points.balance(siteId),
    queryFn: async () => (await call(pointsApi.balance, { siteId })).balance,
    retry: false,
  });
