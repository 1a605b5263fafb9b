import { benefitApi } from '@sitemall/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** Benefit calls (contract: packages/contract/src/benefit.ts), under the member's activity key. */

const benefitKey = (siteId: string) => [...keys.activity.all(siteId), 'benefit'] as const;

export const benefitsQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...benefitKey(siteId), 'list'],
    queryFn: async () => (await call(benefitApi.product, { siteId })).list,
    staleTime: 0,
    retry: false,
  });

export const myBenefitsQuery = (siteId: string) =>
  queryOptions({
    queryKey: [...benefitKey(siteId), 'mine'],
    queryFn: async () => (await call(benefitApi.mine, { siteId })).list,
    staleTime: 0,
    retry: false,
  });

export function useReceiveBenefit(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(benefitApi.receive, { siteId, id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: benefitKey(siteId) }),
  });
}
