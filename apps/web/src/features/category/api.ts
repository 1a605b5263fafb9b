import { type CategoryLabel, type CategoryProductGroup, catalogApi } from '@sitemall/contract';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../api/keys.ts';

export type { CategoryLabel };

/** The categories of one label, grouped by level for the menu. */
export interface CategoryGroup {
  levelId: number;
  levelName: string;
  categories: { id: number; catName: string }[];
}

export async function fetchLabels(siteId: string): Promise<CategoryLabel[]> {
  return (await call(catalogApi.lableList, { siteId })).mallCateLables;
}

export async function fetchCategoryGroups(siteId: string, lableId: number): Promise<CategoryGroup[]> {
  const { cateProductList } = await call(catalogApi.productCateList, { lableId, siteId }, { repeat: true });
  return groupCategories(cateProductList);
}

/** Groups the flat rows by level, keeping the server's order. */
export function groupCategories(rows: readonly CategoryProductGroup[]): CategoryGroup[] {
  const groups = new Map<number, CategoryGroup>();
  for (const row of rows) {
    let group = groups.get(row.levelId);
    if (!group) {
      group = { levelId: row.levelId, levelName: row.levelName, categories: [] };
      groups.set(row.levelId, group);
    }
    group.categories.push({ id: row.id, catName: row.catName });
  }
  return [...groups.values()];
}

const labelsQuery = (siteId: string) =>
  queryOptions({
    queryKey: keys.site.labels(siteId),
    queryFn: () => fetchLabels(siteId),
    staleTime: 5 * 60_000,
    retry: false,
  });

const groupsQuery = (siteId: string, lableId: number) =>
  queryOptions({
    queryKey: keys.site.categories(siteId, lableId),
    queryFn: () => fetchCategoryGroups(siteId, lableId),
    staleTime: 5 * 60_000,
    retry: false,
  });

export const useLabels = (siteId: string | null) =>
  useQuery({ ...labelsQuery(siteId ?? ''), enabled: !!siteId });

export const useCategoryGroups = (siteId: string | null, lableId: number | null) =>
  useQuery({ ...groupsQuery(siteId ?? '', lableId ?? 0), enabled: !!siteId && lableId !== null });

/** A label with its grouped categories. */
export interface LabelTree extends CategoryLabel {
  groups: CategoryGroup[];
}

/**
 * Every label with its categories (for filters and pickers), built from the same two calls
 * the menu makes, so the answers are shared with it through the query cache.
 */
export function useCategoryTree(siteId: string | null): {
  data: LabelTree[] | undefined;
  isPending: boolean;
} {
  const labels = useLabels(siteId);
  const groups = useQueries({
    queries: (labels.data ?? []).map((label) => ({
      ...groupsQuery(siteId ?? '', label.id),
      enabled: !!siteId,
    })),
  });
  if (!labels.data) return { data: undefined, isPending: labels.isPending };
  return {
    data: labels.data.map((label, i) => ({ ...label, groups: groups[i]?.data ?? [] })),
    isPending: groups.some((g) => g.isPending),
  };
}
