import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '../api/queryClient.ts';

const jsdomComputedStyle = window.getComputedStyle.bind(window);

/** jsdom lacks what antd's responsive parts and scroll locking ask for. */
export function polyfillDom(): void {
  // jsdom does not implement pseudo-element styles; antd measures the scrollbar with one.
  window.getComputedStyle = (element: Element) => jsdomComputedStyle(element);
  // No canvas in jsdom: antd's QR code draws nothing, the overlay around it still renders.
  HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
  if (!window.matchMedia)
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
}

/** Renders a storefront component with what the app gives every page: queries, antd, a router. */
export function renderPage(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  polyfillDom();
  const queryClient = createQueryClient({ queries: { retry: false } });
  return {
    queryClient,
    ...render(
      <QueryClientProvider client={queryClient}>
        <ConfigProvider locale={zhCN}>
          <AntApp>
            <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
          </AntApp>
        </ConfigProvider>
      </QueryClientProvider>,
    ),
  };
}
