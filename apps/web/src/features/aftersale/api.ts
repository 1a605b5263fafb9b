import { type AfterSaleApplyBody, afterSaleApi } from '@sitemall/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** After-sales calls (spec section 7: /api/afterSale/...). Contract: packages/contract/src/aftersale.ts. */

export const sevenDayQuery = (siteId: string, orderNo: string) =>
  queryOptions({
    queryKey: [...keys.afterSale.all(siteId), 'sevenDay', orderNo],
    queryFn: () => call(afterSaleApi.sevenDayCheck, { siteId, orderNo }),
    retry: false,
  });

export const caseListQuery = (siteId: string, isOpen: boolean | undefined, pageNum: number) =>
  queryOptions({
    queryKey: [...keys.afterSale.all(siteId), 'list', isOpen ?? 'all', pageNum],
    queryFn: () => call(afterSaleApi.list, { siteId, pageNum, ...(isOpen === undefined ? {} : { isOpen }) }),
    retry: false,
  });

export const caseQuery = (siteId: string, afterSaleNo: string) =>
  queryOptions({
    queryKey: [...keys.afterSale.all(siteId), 'case', afterSaleNo],
    queryFn: () => call(afterSaleApi.progress, { siteId, afterSaleNo }),
    retry: false,
  });

export const commentsQuery = (siteId: string, afterSaleNo: string) =>
  queryOptions({
    queryKey: [...keys.afterSale.all(siteId), 'comments', afterSaleNo],
    queryFn: () => call(afterSaleApi.commentList, { siteId, afterSaleNo }),
    retry: false,
  });

export const applyCase = (body: AfterSaleApplyBody) =>
  call(
    afterSaleApi.apply,
    { ...body, pics: (body.pics as string[] | undefined)?.join(',') ?? '' },
    { repeat: true },
  );
/** Applies for after-sales on a line; the new case shows in the order and the list at once. */
export function useApplyCase(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyCase,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.afterSale.all(siteId) }),
  });
}

export const cancelCase = (siteId: string, afterSaleNo: string) =>
  call(afterSaleApi.cancel, { siteId, afterSaleNo });
export const shipReturn = (siteId: string, afterSaleNo: string, company: string, trackingNo: string) =>
  call(afterSaleApi.delivery, { siteId, afterSaleNo, company, trackingNo });
export const sendComment = (siteId: string, afterSaleNo: string, content: string) =>
  call(afterSaleApi.comment, { siteId, afterSaleNo, content });
/** Uploads one picture; an upload is never shared with another in flight. */
export const uploadPic = (siteId: string, file: File) =>
  call(afterSaleApi.upload, { siteId, file }, { repeat: true });
