import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useSite } from '../../site/SiteProvider.tsx';
import { orderKey } from './api.ts';

/** Runs an order action (cancel, confirm receipt), says how it went, and refreshes the orders. */
export function useOrderAction() {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      void message.success(done);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '操作失败');
    }
    await queryClient.invalidateQueries({ queryKey: orderKey(siteId ?? '') });
  };
}
