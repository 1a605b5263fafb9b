import { type BargainView, bargainApi, ORDER_TYPE_BARGAIN, orderApi } from '@sitemall/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** Bargain calls (contract: packages/contract/src/bargain.ts), under the member's activity key. */

const bargainKey = (siteId: string) => [...keys.activity.all(siteId), 'bargain'] as const;

export const bargainListQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...bargainKey(siteId), 'list'],
    queryFn: async () => (await call(bargainApi.list, { siteId })).list,
    staleTime: 0,
    retry: false,
  });

export const bargainQuery = (siteId: string, id: number) =>
  queryOptions({
    queryKey: [...bargainKey(siteId), 'view', id],
    queryFn: () => call(bargainApi.view, { siteId, id }),
    staleTime: 0,
    retry: false,
  });

/** Starts (or answers again) the member's bargain of an activity. */
export function useStartBargain(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (activityId: number) => call(bargainApi.start, { siteId, activityId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bargainKey(siteId) }),
  });
}

/** Helps another member's bargain; answers the cut and the bargain after it. */
export function useHelpBargain(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(bargainApi.help, { siteId, id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bargainKey(siteId) }),
  });
}

/** Buys a successful bargain: the normal submit with the bargain orderType (price from the server; default address). */
export function useBuyBargain(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (b: BargainView) =>
      call(
        orderApi.submitOrder,
        {
          siteId,
          orderType: ORDER_TYPE_BARGAIN,
          bargainId: b.id,
          productInfos: [{ productId: b.productId, specificationId: b.specificationId, num: 1 }],
          requestId: crypto.randomUUID(),
        },
        { repeat: true },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bargainKey(siteId) }),
  });
}
