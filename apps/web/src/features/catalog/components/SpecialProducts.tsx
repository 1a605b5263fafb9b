import { PAGE_SIZE } from '@sitemall/contract';
import { Spin } from 'antd';
import { useSite } from '../../../site/SiteProvider.tsx';
import { useSpecialList } from '../api.ts';
import { CatalogPagination } from './CatalogPagination.tsx';
import { ProductGrid } from './ProductTile.tsx';
import { EmptyState, GridSkeleton, LoadError } from './states.tsx';

/** The product list of a type-1 advert (a special), with its banner and title. */
export function SpecialProducts({
  advertId,
  pageNum,
  onPage,
  fallbackTitle,
}: {
  advertId: number | undefined;
  pageNum: number;
  onPage: (pageNum: number) => void;
  fallbackTitle: string;
}) {
  const { siteId } = useSite();
  const special = useSpecialList(siteId ?? '', advertId, pageNum);
  if (!advertId) return <EmptyState description="专题不存在或已下线" />;
  if (special.isPending)
    return (
      <section className="special">
        <div className="special__head special__head--loading" />
        <GridSkeleton />
      </section>
    );
  if (special.isError) return <LoadError error={special.error} onRetry={() => void special.refetch()} />;
  const { advert, list, total } = special.data;
  return (
    <section className="special" data-testid="special-list">
      <div
        className="special__head"
        style={advert.image ? { backgroundImage: `url("${advert.image}")` } : undefined}
      >
        <h1 className="special__title">{advert.title || fallbackTitle}</h1>
        {advert.adName && advert.adName !== advert.title && <p className="special__sub">{advert.adName}</p>}
        <p className="special__count">共 {total} 件好物</p>
      </div>
      {list.length === 0 ? (
        <EmptyState description="专题商品正在准备中，敬请期待" />
      ) : (
        <Spin spinning={special.isPlaceholderData} delay={200}>
          <ProductGrid products={list} />
          {total > PAGE_SIZE && <CatalogPagination current={pageNum} total={total} onChange={onPage} />}
        </Spin>
      )}
    </section>
  );
}
