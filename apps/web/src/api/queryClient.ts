import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';

/**
 * The storefront's query client. Calls go out whatever the browser's online flag says
 * (`networkMode: 'always'`): Chromium can report offline on a network change while the mall
 * answers, and React Query would pause every call until it says online again, leaving a login
 * button spinning with nothing sent. A call that really cannot reach the mall fails and says so
 * (网络异常，请稍后重试).
 */
export function createQueryClient({ queries, mutations }: QueryClientConfig['defaultOptions'] = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, networkMode: 'always', ...queries },
      mutations: { networkMode: 'always', ...mutations },
    },
  });
}
