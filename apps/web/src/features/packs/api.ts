import { PAY_WAY, packsApi } from '@sitemall/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** Gift card calls (contract: packages/contract/src/packs.ts). */

export const cardPageQuery = (siteId: string, pageNum: number) =>
  queryOptions({
    queryKey: [...keys.packs.all(siteId), 'page', pageNum],
    queryFn: () => call(packsApi.page, { siteId, pageNum }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const cardCountQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...keys.packs.all(siteId), 'count'],
    queryFn: () => call(packsApi.count, { siteId }),
    retry: false,
  });

export const cashListQuery = (siteId: string, cardId: number) =>
  queryOptions({
    queryKey: [...keys.packs.all(siteId), 'cash', cardId],
    queryFn: () => call(packsApi.cashList, { siteId, cardId }),
    retry: false,
  });

export const bindCard = (siteId: string, code: string, pin: string) =>
  call(packsApi.bind, { siteId, code, pin });

/** Binds a card by code and PIN; a bound card shows in the list, the count and the pay page. */
export function useBindCard(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, pin }: { code: string; pin: string }) => bindCard(siteId, code, pin),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.packs.all(siteId) }),
  });
}

export const packProductsQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...keys.packs.all(siteId), 'products'],
    queryFn: () => call(packsApi.list, { siteId }),
    retry: false,
  });

/** A pack order; while it waits for WeChat, asked again every 2 s (the server asks WeChat when no notify came). */
export const packOrderQuery = (siteId: string, orderNo: string) =>
  queryOptions({
    queryKey: [...keys.packs.all(siteId), 'order', orderNo],
    queryFn: () => call(packsApi.query, { siteId, orderNo }),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'unpaid' ? false : 2000),
    refetchIntervalInBackground: true,
    retry: false,
  });

export const packVirtualCode = (siteId: string, orderNo: string) =>
  call(packsApi.virtualCode, { siteId, orderNo });

/**
 * Starts a WeChat purchase (wx_pc): the unpaid order with its code to scan. The same request id
 * again (a new code after a failed payment) answers the same order.
 */
export const submitWechatPack = (
  siteId: string,
  input: { packId: number; asGift: boolean; requestId: string },
) => call(packsApi.submitAndPay, { siteId, payWay: PAY_WAY.wechatPc, ...input });

/**
 * Buys a pack with points. One request id per click (a retried request answers the same
 * order); the new card, the counts and the points balance refresh.
 */
export function useBuyPack(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ packId, asGift }: { packId: number; asGift: boolean }) => {
      const order = await call(packsApi.submitAndPay, {
        siteId,
        packId,
        payWay: PAY_WAY.points,
        requestId: `pack-${crypto.randomUUID()}`,
        asGift,
      });
      // A gift's code is what the buyer passes on: read it while it is shown in full.
      const code = asGift ? await packVirtualCode(siteId, order.orderNo) : null;
      return { order, code };
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.packs.all(siteId) }),
        queryClient.invalidateQueries({ queryKey: keys.points.balance(siteId) }),
      ]),
  });
}
