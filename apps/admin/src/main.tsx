import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { whenSessionEnds } from './api';
import { router } from './router';
import './console.css';

dayjs.locale('zh-cn');

// Calls go out whatever the browser's online flag says: Chromium can report offline while the
// server answers, and paused calls would leave the console's buttons spinning (as the storefront,
// apps/web/src/api/queryClient.ts).
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { refetchOnWindowFocus: false, retry: false, networkMode: 'always' },
    mutations: { networkMode: 'always' },
  },
});

whenSessionEnds(() => {
  queryClient.clear();
  if (!router.state.location.pathname.endsWith('/login')) void router.navigate('/login', { replace: true });
});

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
createRoot(container).render(
  <StrictMode>
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1f5fbf' } }}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  </StrictMode>,
);
