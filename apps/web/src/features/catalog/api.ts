import type {
  ClientTips,
  HomeProductList,
  MerchantApplication,
  MerchantStatus,
  ProductCards,
  ProductDetail,
  ProductPage,
  ProductStock,
  SearchResult,
  ServiceChannels,
  ShopPage,
  SpecialList,
} from '@sitemall/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Payload, request } from '../../api/request.ts';
import { type SearchState, searchPayload } from './lib/searchQuery.ts';

/**
 * The catalogue calls of the storefront (spec section 7: products, search, specials, shop
 * street, merchant onboarding, customer service, client tips). Each fetcher reads the
 * envelope and throws the server's msg when the answer is not a success, so pages show an
 * error state with the server's words.
 */
export const CATALOG_PATHS = {
  homeProductList: '/api/product/homeList',
  guessLike: '/api/product/guessLike',
  productList: '/api/product/list',
  productDetail: '/api/product/detail',
  productStock: '/api/product/stock',
  search: '/api/product/search',
  specialList: '/api/product/specialList',
  shopList: '/mall/shop/list',
  licenceUpload: '/mall/merchant/uploadLicence',
  merchantApply: '/mall/merchant/apply',
  merchantStatus: '/mall/merchant/applyStatus',
  serviceChannels: '/mall/service/channels',
  serviceMessage: '/mall/service/message',
  clientTips: '/mall/notice/queryClientTips',
} as const;

/** A failed business answer: the server's msg, and its code for callers that care. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Uploads a licence picture; an upload is never shared with another in flight. */
export const uploadLicence = (siteId: string, file: File) =>
  call<{ url: string }>(CATALOG_PATHS.licenceUpload, { siteId, file }, true);

async function call<T>(path: string, payload: Payload, repeat = false): Promise<T> {
  const answer = await request<T>(path, payload, repeat ? { repeat } : {});
  if (answer.code !== 200 || answer.data === null)
    throw new ApiError(answer.msg || '请求失败，请稍后再试', answer.code);
  return answer.data;
}

const FIVE_MINUTES = 5 * 60_000;
/** Prices and stock change: lists are fresh for a minute, details are always refetched on entry. */
const ONE_MINUTE = 60_000;

export const homeProductsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'home'],
    queryFn: () => call<HomeProductList>(CATALOG_PATHS.homeProductList, { siteId }),
    staleTime: ONE_MINUTE,
  });

export const guessLikeQuery = (siteId: string, productId?: number) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'guessLike', productId ?? 0],
    queryFn: () =>
      call<ProductCards>(CATALOG_PATHS.guessLike, productId ? { siteId, productId } : { siteId }),
    staleTime: ONE_MINUTE,
  });

/**
 * Without search words the page browses a category (or everything) through the product list,
 * which sorts the same way but has no relevance, highlights or suggestions.
 */
async function fetchSearch(siteId: string, state: SearchState): Promise<SearchResult> {
  if (state.itemName) return call<SearchResult>(CATALOG_PATHS.search, { siteId, ...searchPayload(state) });
  const page = await call<ProductPage>(CATALOG_PATHS.productList, {
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
    queryKey: ['site', siteId, 'catalog', 'search', searchPayload(state), state.time ?? ''],
    queryFn: () => fetchSearch(siteId, state),
    staleTime: ONE_MINUTE,
    placeholderData: keepPreviousData,
  });

export const specialListQuery = (siteId: string, advertId: number, pageNum: number) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'special', advertId, pageNum],
    queryFn: () => call<SpecialList>(CATALOG_PATHS.specialList, { siteId, advertId, pageNum }),
    staleTime: ONE_MINUTE,
    placeholderData: keepPreviousData,
  });

export const productDetailQuery = (siteId: string, productId: number) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'product', productId],
    queryFn: () => call<ProductDetail>(CATALOG_PATHS.productDetail, { siteId, productId }),
    staleTime: 0,
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
  });

/** Live stock of the specifications, refreshed while the detail page is open. */
export const productStockQuery = (siteId: string, productId: number) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'product', productId, 'stock'],
    queryFn: () => call<ProductStock>(CATALOG_PATHS.productStock, { siteId, productId }, true),
    staleTime: 15_000,
    refetchInterval: 30_000,
  });

export const productListQuery = (siteId: string, cateId: number, pageNum = 1) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'list', cateId, pageNum],
    queryFn: () => call<ProductPage>(CATALOG_PATHS.productList, { siteId, cateId, pageNum }),
    staleTime: ONE_MINUTE,
  });

export const shopListQuery = (siteId: string, pageNum: number) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'shops', pageNum],
    queryFn: () => call<ShopPage>(CATALOG_PATHS.shopList, { siteId, pageNum }),
    staleTime: ONE_MINUTE,
    placeholderData: keepPreviousData,
  });

export const serviceChannelsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'serviceChannels'],
    queryFn: () => call<ServiceChannels>(CATALOG_PATHS.serviceChannels, { siteId }),
    staleTime: FIVE_MINUTES,
  });

/** The PC notice of the site (client tips, form data as the spec says). */
export const clientTipsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['site', siteId, 'catalog', 'clientTips'],
    queryFn: () => call<ClientTips>(CATALOG_PATHS.clientTips, { siteId }),
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
      call<MerchantStatus>(CATALOG_PATHS.merchantStatus, { siteId, ...input }, true),
  });
export const useClientTips = (siteId: string) => useQuery(clientTipsQuery(siteId));

export interface MerchantApplyInput {
  phone: string;
  contactName: string;
  companyName: string;
  shopName: string;
  creditCode: string;
  licenceUrl: string;
  mainCategory: string;
  intro?: string;
}

export const useMerchantApply = (siteId: string) =>
  useMutation({
    mutationFn: (input: MerchantApplyInput) =>
      call<MerchantApplication>(CATALOG_PATHS.merchantApply, { siteId, ...input }, true),
  });

export interface ServiceMessageInput {
  name: string;
  phone: string;
  topic: string;
  content: string;
}

export const useServiceMessage = (siteId: string) =>
  useMutation({
    mutationFn: (input: ServiceMessageInput) =>
      call<{ messageId: number }>(CATALOG_PATHS.serviceMessage, { siteId, ...input }, true),
  });
