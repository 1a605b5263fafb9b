import {
  lotteryApi,
  ORDER_TYPE_SECKILL,
  orderApi,
  type SeckillProduct,
  seckillApi,
} from '@sitemall/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** Activity calls (contract: packages/contract/src/activity.ts and lottery.ts). */

export const seckillQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...keys.activity.all(siteId), 'seckill'],
    queryFn: () => call(seckillApi.seckill, { siteId }),
    staleTime: 0,
    retry: false,
  });

export const activityTimeQuery = (siteId: string, productId: number) =>
  queryOptions({
    queryKey: [...keys.activity.all(siteId), 'activityTime', productId],
    queryFn: () => call(seckillApi.activityTime, { siteId, productId }),
    retry: false,
  });

/** A flash-sale purchase: the normal submit with the seckill orderType (the default address is used). */
export const grab = (siteId: string, item: SeckillProduct, requestId: string) =>
  call(
    orderApi.submitOrder,
    {
      siteId,
      orderType: ORDER_TYPE_SECKILL,
      activityId: item.activityId,
      productInfos: [{ productId: item.productId, specificationId: item.specificationId, num: 1 }],
      requestId,
    },
    { repeat: true },
  );

/** Grabs one piece of a flash sale (one request id per click); sale state is re-read however it went. */
export function useGrab(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: SeckillProduct) => grab(siteId, item, crypto.randomUUID()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.activity.all(siteId) }),
  });
}

export const ruleQuery = (siteId: string, code: string) =>
  queryOptions({
    queryKey: [...keys.activity.all(siteId), 'rule', code],
    queryFn: () => call(lotteryApi.rule, { siteId, code }),
    retry: false,
  });

export const chanceQuery = (siteId: string, code: string) =>
  queryOptions({
    queryKey: [...keys.activity.all(siteId), 'chance', code],
    queryFn: () => call(lotteryApi.chance, { siteId, code }, { unReplaceLogin: true }),
    staleTime: 0,
    retry: false,
  });

export const giftsQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...keys.activity.all(siteId), 'gifts'],
    queryFn: async () => (await call(lotteryApi.giftRecords, { siteId })).list,
    staleTime: 0,
    retry: false,
  });

export const draw = (siteId: string, code: string, requestId: string) =>
  call(lotteryApi.start, { siteId, code, requestId }, { repeat: true });

export const share = (siteId: string, code: string) => call(lotteryApi.share, { siteId, code });
