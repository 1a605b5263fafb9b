import { Skeleton } from 'antd';
import { type ReactNode, useDeferredValue } from 'react';
import { useSite } from '../../../site/SiteProvider.tsx';
import { useGuessLike, useHomeProducts } from '../api.ts';
import { ProductGrid } from './ProductTile.tsx';
import { EmptyState, GridSkeleton, LoadError } from './states.tsx';

/** The product floors of the home page: one per category label, in the server's order. */
export function HomeFloors({
  renderAside,
}: {
  /** What the side of a floor shows (the app puts the label's category links there). */
  renderAside?: (floor: { lableId: number; lableName: string }) => ReactNode;
}) {
  const { siteId } = useSite();
  const home = useHomeProducts(siteId ?? '');
  // The floors are most of the page: they are drawn as a transition, in slices between which the
  // browser answers input, not in one long task when the products come.
  const data = useDeferredValue(home.data);
  if (home.isError) {
    return (
      <section className="floor">
        <LoadError error={home.error} onRetry={() => void home.refetch()} title="商品加载失败" />
      </section>
    );
  }
  // Until the deferred render has them, the products count as still coming.
  if (!data) {
    return (
      <section className="floor">
        <Skeleton.Input active className="floor__title-skeleton" />
        <GridSkeleton />
      </section>
    );
  }
  const floors = data.floors.filter((floor) => floor.list.length > 0);
  if (floors.length === 0) {
    return (
      <section className="floor">
        <EmptyState description="商品即将上架" />
      </section>
    );
  }
  return (
    <>
      {floors.map((floor, index) => (
        <section key={floor.lableId} className="floor" data-testid="home-floor" aria-label={floor.lableName}>
          <header className="floor__head">
            <span className="floor__no">{index + 1}F</span>
            <h2 className="floor__title">{floor.lableName}</h2>
          </header>
          <div className="floor__body">
            {renderAside && (
              <aside className="floor__aside">
                <div className="floor__aside-title">{floor.lableName}</div>
                <div className="floor__aside-sub">品质好物 积分兑换</div>
                {renderAside(floor)}
              </aside>
            )}
            <ProductGrid
              products={floor.list.slice(0, renderAside ? 8 : 10)}
              columns={renderAside ? 4 : 5}
              firstScreen={index === 0}
            />
          </div>
        </section>
      ))}
    </>
  );
}

/** "猜你喜欢": the server's picks for this visitor (near a product when one is given). */
export function GuessLike({ productId, columns = 5 }: { productId?: number; columns?: 4 | 5 }) {
  const { siteId } = useSite();
  const guess = useGuessLike(siteId ?? '', productId);
  if (guess.isError || (guess.isSuccess && guess.data.list.length === 0)) return null;
  return (
    <section className="floor floor--guess" data-testid="guess-like">
      <header className="floor__head">
        <h2 className="floor__title">猜你喜欢</h2>
      </header>
      {guess.isPending ? (
        <GridSkeleton count={columns} columns={columns} />
      ) : (
        <ProductGrid products={guess.data.list} columns={columns} />
      )}
    </section>
  );
}
