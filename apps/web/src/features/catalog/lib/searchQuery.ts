import { fenToYuan, MAX_PAGE, MAX_SEARCH_LENGTH, SEARCH_SORT_FIELDS } from '@sitemall/contract';

export type SearchSortField = (typeof SEARCH_SORT_FIELDS)[number];
export type SortType = 'asc' | 'desc';

/**
 * The state of /searchList as the address carries it (spec section 2: itemName, cateId,
 * breadTxt, time), plus this page's own filters, sort and page. The address is the single
 * source of truth, so back/forward and shared links show the same results.
 */
export interface SearchState {
  itemName: string;
  cateId?: number;
  breadTxt: string;
  /** Set by the header search box so that searching the same words again refreshes. */
  time?: string;
  /** Price range in fen. */
  minPrice?: number;
  maxPrice?: number;
  sortField: SearchSortField;
  sortType: SortType;
  pageNum: number;
}

const positiveInt = (raw: string | null, max = 2_147_483_647): number | undefined => {
  if (raw === null || !/^\d{1,10}$/.test(raw.trim())) return undefined;
  const n = Number(raw);
  return n >= 1 && n <= max ? n : undefined;
};

/** Price in yuan as typed in the address ("12.5") to fen; undefined when not a price. */
export function yuanToFen(raw: string | null | undefined): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  const text = raw.trim();
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(text)) return undefined;
  const [yuan = '0', cents = ''] = text.split('.');
  return Number(yuan) * 100 + Number(cents.padEnd(2, '0'));
}

/** Fen to the yuan text used in the address and the price inputs ("12.5", "30"): no trailing zeros. */
export function yuanInputText(fen: number): string {
  return fenToYuan(fen).replace(/\.?0+$/, '');
}

export function parseSearchParams(params: URLSearchParams): SearchState {
  const itemName = (params.get('itemName') ?? '').trim().slice(0, MAX_SEARCH_LENGTH);
  const sort = params.get('sortField');
  const sortField = (SEARCH_SORT_FIELDS as readonly string[]).includes(sort ?? '')
    ? (sort as SearchSortField)
    : 'relevance';
  // Price ascends by default (cheapest first); every other sort shows the most first.
  const sortType: SortType =
    params.get('sortType') === 'asc' || params.get('sortType') === 'desc'
      ? (params.get('sortType') as SortType)
      : sortField === 'price'
        ? 'asc'
        : 'desc';
  let minPrice = yuanToFen(params.get('minPrice'));
  let maxPrice = yuanToFen(params.get('maxPrice'));
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    [minPrice, maxPrice] = [maxPrice, minPrice];
  const time = params.get('time') ?? undefined;
  return {
    itemName,
    cateId: positiveInt(params.get('cateId')),
    breadTxt: params.get('breadTxt') ?? '',
    ...(time ? { time } : {}),
    minPrice,
    maxPrice,
    sortField,
    sortType,
    pageNum: positiveInt(params.get('pageNum'), MAX_PAGE) ?? 1,
  };
}

/**
 * The address of a search state (without siteId, which the site link adds). Defaults are
 * left out so addresses stay short.
 */
export function searchParamsOf(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.itemName) params.set('itemName', state.itemName);
  if (state.cateId) params.set('cateId', String(state.cateId));
  if (state.breadTxt) params.set('breadTxt', state.breadTxt);
  if (state.time) params.set('time', state.time);
  if (state.minPrice !== undefined) params.set('minPrice', yuanInputText(state.minPrice));
  if (state.maxPrice !== undefined) params.set('maxPrice', yuanInputText(state.maxPrice));
  if (state.sortField !== 'relevance') params.set('sortField', state.sortField);
  const defaultType: SortType = state.sortField === 'price' ? 'asc' : 'desc';
  if (state.sortType !== defaultType) params.set('sortType', state.sortType);
  if (state.pageNum > 1) params.set('pageNum', String(state.pageNum));
  return params;
}

/** A change of filter or sort starts again at page 1; a change of page keeps the rest. */
export function nextSearchState(state: SearchState, change: Partial<SearchState>): SearchState {
  const next = { ...state, ...change };
  if (!('pageNum' in change)) next.pageNum = 1;
  return next;
}

/** The payload of the search call: only what the server's SearchBody takes. */
export function searchPayload(state: SearchState): Record<string, string | number> {
  const payload: Record<string, string | number> = {
    itemName: state.itemName,
    sortField: state.sortField,
    sortType: state.sortType,
    pageNum: state.pageNum,
  };
  if (state.cateId) payload.cateId = state.cateId;
  if (state.minPrice !== undefined) payload.minPrice = state.minPrice;
  if (state.maxPrice !== undefined) payload.maxPrice = state.maxPrice;
  return payload;
}
