import { siteApi } from '@sitemall/contract';
import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../api/keys.ts';
import { resetRequest } from '../api/request.ts';
import { fakeServer } from '../test/fakeServer.ts';
import { createRoutes } from './router.tsx';

afterEach(() => {
  resetRequest();
  localStorage.clear();
});

/** Runs the root route's loader for an address, as the router does on the first navigation. */
function loadRoot(queryClient: QueryClient, address: string) {
  const [root] = createRoutes(queryClient);
  const loader = root?.loader as (args: LoaderFunctionArgs) => unknown;
  const url = new URL(`http://mall.test/shoppingmall${address}`);
  return loader({ request: new Request(url), url, pattern: '/', params: {}, context: {} });
}

describe('the root route', () => {
  it("asks for the site's configuration at once, before any page module has loaded", async () => {
    const server = fakeServer({});
    const queryClient = new QueryClient();
    expect(loadRoot(queryClient, '/productDetails?id=24&siteId=719')).toBeNull();
    expect(queryClient.getQueryState(keys.site.config('719'))?.fetchStatus).toBe('fetching');
    await queryClient.getQueryCache().find({ queryKey: keys.site.config('719') })?.promise;
    expect(server.bodiesOf(siteApi.getSiteConfig.path)).toEqual([{ siteId: '719' }]);
    // The site's pages read it from the cache: no second request.
    loadRoot(queryClient, '/home?siteId=719');
    await Promise.resolve();
    expect(server.bodiesOf(siteApi.getSiteConfig.path)).toHaveLength(1);
  });

  it('asks for nothing without a site', () => {
    const server = fakeServer({});
    const queryClient = new QueryClient();
    loadRoot(queryClient, '/home');
    expect(server.sent).toEqual([]);
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });
});
