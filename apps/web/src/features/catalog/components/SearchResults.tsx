import { CloseOutlined } from '@ant-design/icons';
import { Button, Cascader, InputNumber, Space, Spin, Tag } from 'antd';
import { useDeferredValue, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { useSearch } from '../api.ts';
import {
  nextSearchState,
  type SearchSortField,
  type SearchState,
  searchParamsOf,
  yuanInputText,
  yuanToFen,
} from '../lib/searchQuery.ts';
import { CatalogPagination } from './CatalogPagination.tsx';
import { HighlightedName } from './HighlightedName.tsx';
import { ProductGrid } from './ProductTile.tsx';
import { SortBar, type SortOption } from './SortBar.tsx';
import { EmptyState, GridSkeleton, LoadError } from './states.tsx';

/** A category for the filter: label → group → category, as antd's Cascader takes it. */
export interface CategoryOption {
  value: number;
  label: string;
  children?: CategoryOption[];
}

const SORTS: readonly SortOption<SearchSortField>[] = [
  { field: 'relevance', label: '综合' },
  { field: 'sales', label: '销量' },
  { field: 'price', label: '价格', isToggle: true },
  { field: 'new', label: '新品' },
];

/** The path of a category in the options (for the Cascader's value), or undefined. */
function categoryPath(options: readonly CategoryOption[], id: number): number[] | undefined {
  for (const option of options) {
    if (!option.children) {
      if (option.value === id) return [option.value];
      continue;
    }
    const rest = categoryPath(option.children, id);
    if (rest) return [option.value, ...rest];
  }
  return undefined;
}

/** A bound of the price filter as its box shows it: yuan, or empty when the search has none. */
const boundText = (fen: number | undefined) => (fen === undefined ? null : yuanInputText(fen));

/** One bound of the price filter: yuan with at most two decimals, never below 0. */
function PriceBound({
  label,
  value,
  onChange,
  disabled,
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  disabled: boolean;
}) {
  return (
    <InputNumber<string>
      stringMode
      disabled={disabled}
      min="0"
      precision={2}
      placeholder={label}
      aria-label={label}
      value={value}
      onChange={onChange}
      style={{ width: 92 }}
    />
  );
}

function PriceFilter({
  state,
  onApply,
  disabled,
}: {
  state: SearchState;
  onApply: (min?: number, max?: number) => void;
  disabled: boolean;
}) {
  const [min, setMin] = useState(boundText(state.minPrice));
  const [max, setMax] = useState(boundText(state.maxPrice));
  useEffect(() => {
    setMin(boundText(state.minPrice));
    setMax(boundText(state.maxPrice));
  }, [state.minPrice, state.maxPrice]);
  return (
    <Space.Compact size="small" className="price-filter">
      <PriceBound label="最低价" value={min} onChange={setMin} disabled={disabled} />
      <span className="price-filter__dash">-</span>
      <PriceBound label="最高价" value={max} onChange={setMax} disabled={disabled} />
      <Button
        disabled={disabled}
        onClick={() => onApply(yuanToFen(min ?? undefined), yuanToFen(max ?? undefined))}
      >
        确定
      </Button>
    </Space.Compact>
  );
}

/**
 * The results of /searchList: filters (category, price), sorts, highlighted names, pages of 10
 * and, when nothing matches, the server's suggestions.
 */
export function SearchResults({
  state,
  onChange,
  categories,
  categoryName,
}: {
  state: SearchState;
  onChange: (next: SearchState) => void;
  categories: CategoryOption[];
  categoryName?: string;
}) {
  const { siteId } = useSite();
  const link = useSiteLink();
  const search = useSearch(siteId ?? '', state);
  const change = (patch: Partial<SearchState>) => onChange(nextSearchState(state, patch));
  const path = state.cateId ? categoryPath(categories, state.cateId) : undefined;
  const hasFilter = !!state.cateId || state.minPrice !== undefined || state.maxPrice !== undefined;
  // The results are drawn as a transition when they come: in slices between which the browser
  // answers input, not in one long task.
  const data = useDeferredValue(search.data);

  const priceText =
    state.minPrice !== undefined || state.maxPrice !== undefined
      ? `${state.minPrice === undefined ? '0' : yuanInputText(state.minPrice)} - ${state.maxPrice === undefined ? '不限' : yuanInputText(state.maxPrice)}`
      : null;

  return (
    <div className="search-page">
      <div className="filter-panel">
        <div className="filter-panel__row">
          <span className="filter-panel__name">分类：</span>
          <Cascader<CategoryOption>
            size="small"
            options={categories}
            value={path}
            placeholder={categoryName || '全部分类'}
            changeOnSelect={false}
            expandTrigger="hover"
            allowClear
            showSearch
            aria-label="选择分类"
            style={{ width: 300 }}
            onChange={(value, selected) => {
              const last = selected?.at(-1);
              change({ cateId: last && value ? last.value : undefined });
            }}
          />
        </div>
        <div className="filter-panel__row">
          <span className="filter-panel__name">价格：</span>
          <PriceFilter
            state={state}
            disabled={!state.itemName}
            onApply={(minPrice, maxPrice) => change({ minPrice, maxPrice })}
          />
          {!state.itemName && <span className="filter-panel__hint">输入搜索词后可按价格筛选</span>}
        </div>
        {hasFilter && (
          <div className="filter-panel__row">
            <span className="filter-panel__name">已选：</span>
            {state.cateId && (
              <Tag closable onClose={() => change({ cateId: undefined })} closeIcon={<CloseOutlined />}>
                分类：{categoryName || state.cateId}
              </Tag>
            )}
            {priceText && (
              <Tag closable onClose={() => change({ minPrice: undefined, maxPrice: undefined })}>
                价格：{priceText}
              </Tag>
            )}
          </div>
        )}
      </div>

      <SortBar
        options={SORTS}
        field={state.sortField}
        type={state.sortType}
        onChange={(sortField, sortType) => change({ sortField, sortType })}
        extra={
          data && (
            <span>
              {state.itemName && (
                <>
                  “<em className="search-hit">{state.itemName}</em>”{' '}
                </>
              )}
              共 <b data-testid="search-total">{data.total}</b> 件商品
            </span>
          )
        }
      />

      {search.isError ? (
        <LoadError error={search.error} onRetry={() => void search.refetch()} />
      ) : !data ? (
        <GridSkeleton />
      ) : data.list.length > 0 ? (
        <Spin spinning={search.isPlaceholderData} delay={200}>
          <ProductGrid
            products={data.list}
            firstScreen
            renderName={(product) => {
              const hit = data.list.find((h) => h.id === product.id);
              return <HighlightedName name={product.name} ranges={hit?.highlights ?? []} />;
            }}
          />
          <CatalogPagination
            current={state.pageNum}
            total={data.total}
            showQuickJumper
            showTotal={(total) => `共 ${total} 件`}
            onChange={(pageNum) => change({ pageNum })}
          />
        </Spin>
      ) : (
        <div className="search-empty" data-testid="search-empty">
          <EmptyState
            description={
              <>
                <div className="search-empty__title">
                  {state.itemName ? `抱歉，没有找到与“${state.itemName}”相关的商品` : '该条件下暂无商品'}
                </div>
                <div className="search-empty__tip">
                  {hasFilter ? '可以清除筛选条件，或换个搜索词试试' : '请检查输入是否有误，或换个搜索词试试'}
                </div>
              </>
            }
          >
            {hasFilter && (
              <Button onClick={() => change({ cateId: undefined, minPrice: undefined, maxPrice: undefined })}>
                清除筛选条件
              </Button>
            )}
          </EmptyState>
          {data && data.suggestions.words.length > 0 && (
            <div className="search-empty__words">
              <span>大家都在搜：</span>
              {data.suggestions.words.map((word) => (
                <Link
                  key={word}
                  to={link(
                    `/searchList?${searchParamsOf({ ...state, itemName: word, breadTxt: word, cateId: undefined, minPrice: undefined, maxPrice: undefined, pageNum: 1 }).toString()}`,
                  )}
                >
                  {word}
                </Link>
              ))}
            </div>
          )}
          {data && data.suggestions.products.length > 0 && (
            <section className="floor floor--guess">
              <header className="floor__head">
                <h2 className="floor__title">为您推荐</h2>
              </header>
              <ProductGrid products={data.suggestions.products} />
            </section>
          )}
        </div>
      )}
    </div>
  );
}
