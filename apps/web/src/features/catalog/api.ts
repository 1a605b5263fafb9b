import {
  catalogApi,
  type MerchantApplyInput,
  memberUnitPrice,
  type SearchResult,
  vipApi,
} from '@sitemall/contract';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  usePrefetchQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';
import { useSiteId } from '../../site/SiteProvider.tsx';
import { getToken } from '../../site/storage.ts';
import { type SearchState, searchPayload } from './lib/searchQuery.ts';

/**
 * The catalogue calls of the storefront (spec section 7: products, search, specials, shop
 * street, merchant onboarding, customer service, client tips), declared in `catalogApi`
 * (packages/contract/src/catalog.ts). A refused call rejects with the one `ApiError`, so pages
 * show an error state with the server's words.
 */

/** Uploads a licence picture; an upload is never shared with another in flight. */
export const uploadLicence = (siteId: string, file: File) =>
  call(catalogApi.licenceUpload, { siteId, file }, { repeat: true });

const FIVE_MINUTES = 5 * 60_000;
/** Prices and stock change: lists are fresh for a minute, details are always refetched on entry. */
const ONE_MINUTE = 60_000;

export const homeProductsQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.catalog.home(siteId),
    queryFn: () => call(catalogApi.homeProductList, { siteId }),
    staleTime: ONE_MINUTE,
  });

export const guessLikeQuery = (siteId: string, productId?: number) =>
  queryOptions({
    queryKey: keys.catalog.guessLike(siteId, productId ?? 0),
    queryFn: () => call(catalogApi.guessLike, productId ? { siteId, productId } : { siteId }),
    staleTime: ONE_MINUTE,
  });

/**
 * Without search words the page browses a category (or everything) through the product list,
 * which sorts the same way but has no relevance, highlights or suggestions.
 */
async function fetchSearch(siteId: string, state: SearchState): Promise<SearchResult> {
  if (state.itemName) return call(catalogApi.search, { siteId, ...searchPayload(state) });
  const page = await call(catalogApi.productList, {
    siteId,
    ...(state.cateId ? { cateId: state.cateId } : {}),
    sortField: state.sortField === 'relevance' ? 'default' : state.sortField,
    sortType: state.sortType,
    pageNum: state.pageNum,
  });
  return {
    ...page,
    list: page.list.map((card) => ({ ...card, highlights: [] })),
    keywords: [],
    suggestions: { words: [], products: [] },
  };
}

export const searchQuery = (siteId: string, state: SearchState) =>
  queryOptions({
    queryKey: keys.catalog.search(siteId, searchPayload(state), state.time ?? ''),
    queryFn: () => fetchSearch(siteId, state),
    staleTime: ONE_MINUTE,
    placeholderData: keepPreviousData,
  });

export const specialListQuery = (siteId: string, advertId: number, pageNum: number) =>
  queryOptions({
    queryKey: keys.catalog.special(siteId, advertId, pageNum),
    queryFn: () => call(catalogApi.specialList, { siteId, advertId, pageNum }),
    staleTime: ONE_MINUTE,
    placeholderData: keepPreviousData,
  });

export const productDetailQuery = (siteId: string, productId: number) =>
  queryOptions({
    queryKey: keys.catalog.product(siteId, productId),
    queryFn: () => call(catalogApi.productDetail, { siteId, productId }),
    // The answer the root loader fetched as the page opened is not asked for again when the page
    // draws (routes/prefetch.ts); the stock on the page is productStock's.
    staleTime: 10_000,
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
  });

/** Live stock of the specifications, refreshed while the detail page is open. */
export const productStockQuery = (siteId: string, productId: number) =>
  queryOptions({
    queryKey: keys.catalog.stock(siteId, productId),
    queryFn: () => call(catalogApi.productStock, { siteId, productId }, { repeat: true }),
    staleTime: 15_000,
    refetchInterval: 30_000,
  });

export const productListQuery = (siteId: string, cateId: number, pageNum = 1) =>
  queryOptions({
    queryKey: keys.catalog.list(siteId, cateId, pageNum),
    queryFn: () => call(catalogApi.productList, { siteId, cateId, pageNum }),
    staleTime: ONE_MINUTE,
  });

export const shopListQuery = (siteId: string, pageNum: number) =>
  queryOptions({
    queryKey: keys.catalog.shops(siteId, pageNum),
    queryFn: () => call(catalogApi.shopList, { siteId, pageNum }),
    staleTime: ONE_MINUTE,
    placeholderData: keepPreviousData,
  });

export const serviceChannelsQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.catalog.serviceChannels(siteId),
    queryFn: () => call(catalogApi.serviceChannels, { siteId }),
    staleTime: FIVE_MINUTES,
  });

/** The PC notice of the site (client tips, form data as the spec says). */
export const clientTipsQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.catalog.clientTips(siteId),
    queryFn: () => call(catalogApi.clientTips, { siteId }),
    staleTime: FIVE_MINUTES,
    retry: false,
  });

export const useHomeProducts = (siteId: string) => useQuery(homeProductsQuery(siteId));
export const useGuessLike = (siteId: string, productId?: number) =>
  useQuery(guessLikeQuery(siteId, productId));
export const useSearch = (siteId: string, state: SearchState) => useQuery(searchQuery(siteId, state));
export const useSpecialList = (siteId: string, advertId: number | undefined, pageNum: number) =>
  useQuery({ ...specialListQuery(siteId, advertId ?? 0, pageNum), enabled: !!advertId });
export const useProductDetail = (siteId: string, productId: number | undefined) =>
  useQuery({ ...productDetailQuery(siteId, productId ?? 0), enabled: !!productId });
export const useProductStock = (siteId: string, productId: number | undefined) =>
  useQuery({ ...productStockQuery(siteId, productId ?? 0), enabled: !!productId });
export const useShopList = (siteId: string, pageNum: number) => useQuery(shopListQuery(siteId, pageNum));
export const useServiceChannels = (siteId: string) => useQuery(serviceChannelsQuery(siteId));
/**
 * Applications by phone: the server answers a person only, so each look-up carries an image
 * code (spent by the call). A mutation, never refetched behind the shopper's back.
 */
export const useMerchantLookup = (siteId: string) =>
  useMutation({
    mutationFn: (input: { phone: string; captchaId: string; imageCode: string }) =>
      call(catalogApi.merchantStatus, { siteId, ...input }, { repeat: true }),
  });
export const useClientTips = (siteId: string) => useQuery(clientTipsQuery(siteId));

/**
 * The home page's reads, started together, and whether its PC notice is known yet. The notice
 * sits above everything else, so the page draws once it is known (one small request, in flight
 * beside the floors'): a notice arriving after the page drew would push the whole page down.
 */
export function useHomeReads(siteId: string): { noticeKnown: boolean } {
  usePrefetchQuery(homeProductsQuery(siteId));
  usePrefetchQuery(guessLikeQuery(siteId));
  return { noticeKnown: !useClientTips(siteId).isPending };
}

export const useMerchantApply = (siteId: string) =>
  useMutation({
    mutationFn: (input: MerchantApplyInput) =>
      call(catalogApi.merchantApply, { siteId, ...input }, { repeat: true }),
  });

export interface ServiceMessageInput {
  name: string;
  phone: string;
  topic: string;
  content: string;
}

export const useServiceMessage = (siteId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ServiceMessageInput) =>
      call(catalogApi.serviceMessage, { siteId, ...input }, { repeat: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...keys.member(siteId), 'serviceMessages'] }),
  });
};

/** The logged-in member's messages and customer service's replies (none asked logged out). */
export const useMyServiceMessages = (siteId: string, pageNum: number) =>
  useQuery({
    queryKey: keys.serviceMessages(siteId, pageNum),
    queryFn: () => call(catalogApi.myServiceMessages, { siteId, pageNum }),
    enabled: !!siteId && !!getToken(),
    placeholderData: keepPreviousData,
  });

/**
 * The member price of a list price for the logged-in member, or null without a level (or
 * logged out): what tiles and detail show beside the price. The server prices orders itself.
 */
export function useMemberPrice(): (list: number) => number | null {
  const siteId = useSiteId();
  const level = useQuery({
    queryKey: keys.vip.level(siteId ?? ''),
    queryFn: () => call(vipApi.level, { siteId: siteId ?? '' }),
    enabled: !!siteId && !!getToken(),
    retry: false,
    staleTime: 60_000,
  });
  const pct = level.data?.level?.discountPct ?? 0;
  return (list) => (pct > 0 ? memberUnitPrice(list, pct) : null);
}
