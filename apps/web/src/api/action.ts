import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';

/**
 * Runs a member's action on something that may have moved on meanwhile (an order, an after-sales
 * case): says how it went and re-reads `refresh` either way, since a refusal often means the
 * thing changed. Resolves true when the action went through.
 */
export function useAction(refresh: QueryKey) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const action = useMutation({
    mutationFn: ({ work }: { work: () => Promise<unknown>; done: string }) => work(),
    onSuccess: (_answer, { done }) => void message.success(done),
    onError: (error) => void message.error(error instanceof Error ? error.message : '操作失败'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: refresh }),
  });
  return (work: () => Promise<unknown>, done: string): Promise<boolean> =>
    action.mutateAsync({ work, done }).then(
      () => true,
      () => false,
    );
}
