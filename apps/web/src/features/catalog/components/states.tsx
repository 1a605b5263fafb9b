import { PAGE_SIZE } from '@sitemall/contract';
import { Button, Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { Result } from '../../../ui/LazyResult.tsx';

/** A failed load: the server's (or transport's) message and a retry. */
export function LoadError({
  error,
  onRetry,
  title = '加载失败',
}: {
  error: Error | null;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <Result
      className="catalog-state"
      status="warning"
      title={title}
      subTitle={error?.message || '网络异常，请稍后再试'}
      extra={
        onRetry && (
          <Button type="primary" onClick={onRetry}>
            重新加载
          </Button>
        )
      }
    />
  );
}

export function EmptyState({ description, children }: { description: ReactNode; children?: ReactNode }) {
  return (
    <Empty className="catalog-state" description={description}>
      {children}
    </Empty>
  );
}

/** Tiles drawn while a product list loads, in the grid's own shape. */
export function GridSkeleton({ count = PAGE_SIZE, columns = 5 }: { count?: number; columns?: number }) {
  return (
    <div className={`product-grid product-grid--${columns}`} aria-busy="true">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={i} className="product-tile product-tile--skeleton">
          <Skeleton.Image active className="product-tile__skeleton-image" />
          <Skeleton active title={false} paragraph={{ rows: 3, width: ['100%', '70%', '40%'] }} />
        </div>
      ))}
    </div>
  );
}
