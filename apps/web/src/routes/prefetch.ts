import type { ProductCard } from '@sitemall/contract';
import type { QueryClient } from '@tanstack/react-query';
import { homeProductsQuery, productDetailQuery, searchQuery } from '../features/catalog/api.ts';
import { parseSearchParams } from '../features/catalog/lib/searchQuery.ts';

/**
 * What a page draws first, asked for by the root loader as the first navigation starts, beside
 * the site's configuration (router.tsx). Without it the request waited for the page's modules to
 * load and draw, and the page's largest image (the first product card or the gallery) for that
 * answer: most of a first visit's largest paint (Lighthouse, docs/performance.md). The page's
 * own query finds the answer in the cache; a failure is left for the page to show and retry.
 * This module is a chunk of its own, asked for by the loader: the catalogue's endpoint table it
 * needs stays out of the entry script.
 */
export type Prefetch = (
  queryClient: QueryClient,
  siteId: string,
  params: URLSearchParams,
) => Promise<unknown>;

/** Cards in the first row of a product grid: the images seen before any scroll. */
const FIRST_ROW = 5;

/** Fetched now, drawn from the browser's cache when the page renders. */
function warmImages(urls: string[]): void {
  for (const src of urls.slice(0, FIRST_ROW)) new Image().src = src;
}

const images = (cards: ProductCard[] | undefined) => (cards ?? []).map((card) => card.image);

export const home: Prefetch = async (queryClient, siteId) => {
  const answer = await queryClient.fetchQuery(homeProductsQuery(siteId));
  warmImages(images(answer.floors[0]?.list));
};

export const searchList: Prefetch = async (queryClient, siteId, params) => {
  const found = await queryClient.fetchQuery(searchQuery(siteId, parseSearchParams(params)));
  warmImages(images(found.list));
};

export const productDetails: Prefetch = async (queryClient, siteId, params) => {
  const id = Number(params.get('id'));
  if (!Number.isInteger(id) || id <= 0) return;
  const product = await queryClient.fetchQuery(productDetailQuery(siteId, id));
  warmImages(product.images.slice(0, 1));
};
