import { MAX_PAGE, PAGE_SIZE } from '@sitemall/contract';
import type { PaginationProps } from 'antd';
import { lazy, Suspense } from 'react';

// antd's Pagination brings its Select (rc-select, rc-virtual-list): loaded with the first list
// that pages, after the list itself has drawn; the pager sits under it, out of the first view.
const Pagination = lazy(() => import('antd/es/pagination'));

/**
 * The pager under a catalog list: pages of PAGE_SIZE, and none past MAX_PAGE, the last page the
 * server serves, however many the total would make. While antd's Pagination loads, its place is
 * kept at its height.
 */
export function CatalogPagination({
  total,
  ...props
}: Omit<PaginationProps, 'className' | 'pageSize' | 'total' | 'showSizeChanger'> & { total: number }) {
  return (
    <Suspense fallback={<div className="catalog-pagination catalog-pagination--loading" />}>
      <Pagination
        className="catalog-pagination"
        pageSize={PAGE_SIZE}
        total={Math.min(total, MAX_PAGE * PAGE_SIZE)}
        showSizeChanger={false}
        {...props}
      />
    </Suspense>
  );
}
