import { siteApi } from '@sitemall/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../api/queryClient.ts';
import { resetRequest } from '../api/request.ts';
import { fakeServer, refuse } from '../test/fakeServer.ts';
import { polyfillDom } from '../test/render.tsx';
import { Root } from './Root.tsx';

/**
 * The root with one page under it, in a data router as the app has it (the frame and the layouts
 * are lazy routes between them) and without antd's provider: the root brings what it draws.
 */
function renderRoot(path: string) {
  polyfillDom();
  window.scrollTo = () => {}; // jsdom has no scrolling; the root scrolls up on every navigation
  const router = createMemoryRouter(
    [{ path: '/', element: <Root />, children: [{ path: 'home', element: <p>首页内容</p> }] }],
    { initialEntries: [path] },
  );
  const queryClient = createQueryClient({ queries: { retry: false } });
  return render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  resetRequest();
});

describe('the root: the site before any page (spec sections 2, 8)', () => {
  it('shows its own spinner, drawn in CSS, while the site loads', async () => {
    fakeServer({ [siteApi.getSiteConfig.path]: () => new Promise(() => {}) });
    renderRoot('/home?siteId=719');
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('商城加载中…');
    expect(status.querySelector('.spinner__dots')).not.toBeNull();
    expect(document.querySelector('.ant-spin')).toBeNull();
  });

  it('asks for the mall link without a siteId, on a state screen loaded when shown', async () => {
    fakeServer({});
    renderRoot('/home');
    expect(await screen.findByText('未找到商城')).toBeTruthy();
    expect(screen.queryByText('首页内容')).toBeNull();
  });

  it('offers a reload when the site configuration fails', async () => {
    fakeServer({ [siteApi.getSiteConfig.path]: () => refuse(500, '站点已停用') });
    renderRoot('/home?siteId=719');
    expect(await screen.findByText('商城暂时无法访问')).toBeTruthy();
    expect(screen.getByText('站点已停用')).toBeTruthy();
    expect(screen.getByRole('button', { name: /重新加载/ })).toBeTruthy();
  });

  it('draws the page once the site has loaded', async () => {
    fakeServer({});
    renderRoot('/home?siteId=719');
    expect(await screen.findByText('首页内容')).toBeTruthy();
  });
});
