import { groupApi } from '@sitemall/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

/** Group-buy calls (contract: packages/contract/src/group.ts). */

export const groupDetailQuery = (siteId: string, id?: number) =>
  queryOptions({
    queryKey: keys.activity.group.detail(siteId, id),
    queryFn: () => call(groupApi.detail, id === undefined ? { siteId } : { siteId, id }),
    staleTime: 0,
    retry: false,
  });

export const groupViewQuery = (siteId: string, teamId: number) =>
  queryOptions({
    queryKey: keys.activity.group.team(siteId, teamId),
    queryFn: () => call(groupApi.view, { siteId, teamId }),
    staleTime: 0,
    retry: false,
  });

export const myGroupsQuery = (siteId: string, pageNum: number) =>
  queryOptions({
    queryKey: keys.activity.group.mine(siteId, pageNum),
    queryFn: () => call(groupApi.myList, { siteId, pageNum }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    retry: false,
  });

/**
 * Opens a team (activityId) or joins one (teamId): an order at the group price to the default
 * address, one request id per click. The teams and orders are re-read however it went.
 */
export function useGroupOrder(siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { activityId: number } | { teamId: number }) => {
      const requestId = crypto.randomUUID();
      return 'teamId' in target
        ? call(groupApi.join, { siteId, teamId: target.teamId, requestId }, { repeat: true })
        : call(groupApi.submit, { siteId, activityId: target.activityId, requestId }, { repeat: true });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.activity.group.all(siteId) }),
        queryClient.invalidateQueries({ queryKey: keys.order.all(siteId) }),
      ]),
  });
}
