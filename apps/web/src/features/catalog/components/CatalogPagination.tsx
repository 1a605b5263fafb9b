import { MAX_PAGE, PAGE_SIZE } from '@sitemall/contract';
import { Pagination, type PaginationProps } from 'antd';

/**
 * The pager under a catalog list: pages of PAGE_SIZE, and none past MAX_PAGE, the last page the
 * server serves, however many the total would make. A module of its own: antd's Pagination brings
 * its Select, which the pages that only show a grid (the home page's floors, guess-you-like) need not load.
 */
export function CatalogPagination({
  total,
  ...props
}: Omit<PaginationProps, 'className' | 'pageSize' | 'total' | 'showSizeChanger'> & { total: number }) {
  return (
    <Pagination
      className="catalog-pagination"
      pageSize={PAGE_SIZE}
      total={Math.min(total, MAX_PAGE * PAGE_SIZE)}
      showSizeChanger={false}
      {...props}
    />
  );
}
