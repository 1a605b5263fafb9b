import { catalogApi, type ProductCard, siteApi } from '@sitemall/contract';
import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../api/keys.ts';
import { resetRequest } from '../api/request.ts';
import { fakeServer } from '../test/fakeServer.ts';
import { createRoutes } from './router.tsx';

/** The images a prefetch asked the browser for (jsdom loads none). */
let warmed: string[] = [];
beforeEach(() => {
  warmed = [];
  vi.stubGlobal(
    'Image',
    class {
      set src(value: string) {
        warmed.push(value);
      }
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetRequest();
  localStorage.clear();
});

const card = (id: number) => ({ id, image: `/media/product/${id}.svg` }) as ProductCard;

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
    expect(loadRoot(queryClient, '/shoppingCart?siteId=719')).toBeNull();
    expect(queryClient.getQueryState(keys.site.config('719'))?.fetchStatus).toBe('fetching');
    await queryClient.getQueryCache().find({ queryKey: keys.site.config('719') })?.promise;
    expect(server.bodiesOf(siteApi.getSiteConfig.path)).toEqual([{ siteId: '719' }]);
    // The site's pages read it from the cache: no second request.
    loadRoot(queryClient, '/personalCenter?siteId=719');
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

describe("a page's first data, asked for by the root loader (prefetch.ts)", () => {
  it('a product page: the product, then its first image, before the page has loaded', async () => {
    const server = fakeServer({
      [catalogApi.productDetail.path]: () => ({
        id: 24,
        images: ['/media/product/24.svg', '/media/product/24-2.svg'],
      }),
    });
    const queryClient = new QueryClient();
    loadRoot(queryClient, '/productDetails?id=24&siteId=719');
    await vi.waitFor(() => expect(warmed).toEqual(['/media/product/24.svg']));
    expect(server.bodiesOf(catalogApi.productDetail.path)).toEqual([{ siteId: '719', productId: 24 }]);
    expect(queryClient.getQueryData(keys.catalog.product('719', 24))).toMatchObject({ id: 24 });
  });

  it("a search: the results of the address's query, and the first row's images", async () => {
    const server = fakeServer({
      [catalogApi.search.path]: () => ({ list: [1, 2, 3, 4, 5, 6, 7].map(card), total: 7 }),
    });
    loadRoot(new QueryClient(), `/searchList?itemName=${encodeURIComponent('手机')}&siteId=719`);
    await vi.waitFor(() => expect(warmed).toHaveLength(5));
    expect(warmed).toEqual([1, 2, 3, 4, 5].map((id) => `/media/product/${id}.svg`));
    expect(server.bodiesOf(catalogApi.search.path)).toMatchObject([{ siteId: '719', itemName: '手机' }]);
  });

  it("the home page: the floors, and the first floor's first row of images", async () => {
    const server = fakeServer({
      [catalogApi.homeProductList.path]: () => ({
        floors: [{ lableId: 1, lableName: '手机', list: [card(9), card(8)] }],
      }),
    });
    loadRoot(new QueryClient(), '/home?siteId=719');
    await vi.waitFor(() => expect(warmed).toEqual(['/media/product/9.svg', '/media/product/8.svg']));
    expect(server.bodiesOf(catalogApi.homeProductList.path)).toEqual([{ siteId: '719' }]);
  });

  it('a page without a prefetch, or a product address without a valid id, asks only for the site', async () => {
    const server = fakeServer({});
    const queryClient = new QueryClient();
    loadRoot(queryClient, '/myOrder?siteId=719');
    loadRoot(queryClient, '/productDetails?id=abc&siteId=719');
    await vi.waitFor(() => expect(server.bodiesOf(siteApi.getSiteConfig.path)).toHaveLength(1));
    // The product prefetch's module has loaded and returned (a task later, its promises too).
    await vi.dynamicImportSettled();
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.sent.map((s) => s.path)).toEqual([siteApi.getSiteConfig.path]);
    expect(warmed).toEqual([]);
  });
});
