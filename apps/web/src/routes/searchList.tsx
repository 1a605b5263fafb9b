import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  type CategoryOption,
  parseSearchParams,
  SearchResults,
  searchParamsOf,
} from '../features/catalog/index.ts';
import { useCategoryTree } from '../features/category/api.ts';
import { useSiteLink } from '../site/links.ts';
import { useSite } from '../site/SiteProvider.tsx';

/** searchList (spec section 2; query itemName, cateId, breadTxt, time): search with filters and sorts. */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const link = useSiteLink();
  const { siteId } = useSite();
  const state = useMemo(() => parseSearchParams(params), [params]);
  const tree = useCategoryTree(siteId);

  const options = useMemo<CategoryOption[]>(
    () =>
      (tree.data ?? []).map((label) => ({
        value: -label.id,
        label: label.lableName,
        children: label.groups.map((group) => ({
          value: -100_000 - group.levelId,
          label: group.levelName,
          children: group.categories.map((c) => ({ value: c.id, label: c.catName })),
        })),
      })),
    [tree.data],
  );
  const categoryName = useMemo(() => {
    if (!state.cateId) return undefined;
    for (const label of tree.data ?? [])
      for (const group of label.groups)
        for (const category of group.categories) if (category.id === state.cateId) return category.catName;
    return state.itemName ? undefined : state.breadTxt || undefined;
  }, [tree.data, state]);

  return (
    <SearchResults
      state={state}
      categories={options}
      categoryName={categoryName}
      onChange={(next) => {
        // The breadcrumb follows the search: the words, else the chosen category.
        const name =
          next.cateId && next.cateId !== state.cateId ? findName(tree.data, next.cateId) : undefined;
        const breadTxt = next.itemName || name || (next.cateId ? state.breadTxt : '全部商品');
        navigate(link(`/searchList?${searchParamsOf({ ...next, breadTxt }).toString()}`));
      }}
    />
  );
}

function findName(tree: ReturnType<typeof useCategoryTree>['data'], id: number): string | undefined {
  for (const label of tree ?? [])
    for (const group of label.groups) for (const c of group.categories) if (c.id === id) return c.catName;
  return undefined;
}
