import { voucherApi } from '@sitemall/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';
import type { Payload } from '../../api/request.ts';

/** Voucher calls (contract: packages/contract/src/voucher.ts). */

export type VoucherTab = 'unused' | 'locked' | 'used' | 'expired';

export const voucherPageQuery = (siteId: string, status: VoucherTab, pageNum: number) =>
  queryOptions({
    queryKey: [...keys.voucher.all(siteId), 'find', status, pageNum],
    queryFn: () => call(voucherApi.find, { siteId, status, pageNum }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const voucherCountQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...keys.voucher.all(siteId), 'count'],
    queryFn: () => call(voucherApi.count, { siteId }),
    retry: false,
  });

export const pendingReviewQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...keys.voucher.all(siteId), 'pending'],
    queryFn: () => call(voucherApi.pendingReview, { siteId }),
    retry: false,
  });

export const centerQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...keys.voucher.all(siteId), 'center'],
    queryFn: async () => (await call(voucherApi.center, { siteId })).list,
    retry: false,
  });

/** The checkout's vouchers for a purchase (its payload: cartIds or productInfos), and the chosen split. */
export const availableQuery = (siteId: string, purchase: Payload, chosen: number[] | null) =>
  queryOptions({
    queryKey: [
      ...keys.voucher.all(siteId),
      'available',
      JSON.stringify(purchase),
      chosen?.join(',') ?? 'best',
    ],
    queryFn: () =>
      call(voucherApi.available, {
        siteId,
        ...purchase,
        ...(chosen ? { accVoucherIds: chosen.join(',') } : {}),
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    retry: false,
  });

export const claimVoucher = (siteId: string, templateId: number) =>
  call(voucherApi.claim, { siteId, templateId });

export const bindVoucherCode = (siteId: string, code: string) => call(voucherApi.bind, { siteId, code });

/** Claims a template in the centre; the member's vouchers are re-read however it went. */
export function useClaimVoucher(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: number) => claimVoucher(siteId, templateId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.voucher.all(siteId) }),
  });
}

/** Binds a voucher code; a bound voucher shows in every voucher list. */
export function useBindVoucherCode(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => bindVoucherCode(siteId, code),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.voucher.all(siteId) }),
  });
}
