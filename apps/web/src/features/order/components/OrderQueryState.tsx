import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Result, Skeleton } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';

/**
 * The loading and failure states of a page about one order; null once the order is there.
 * A failure offers the way back to my orders.
 */
export function OrderQueryState({
  query,
  rows,
  errorTitle,
  backText,
}: {
  query: UseQueryResult<unknown, Error>;
  rows: number;
  errorTitle: string;
  backText: string;
}) {
  const link = useSiteLink();
  if (query.isPending)
    return (
      <section className="page-card">
        <Skeleton active paragraph={{ rows }} />
      </section>
    );
  if (query.isError)
    return (
      <section className="page-card">
        <Result
          status="warning"
          title={errorTitle}
          subTitle={query.error.message}
          extra={
            <Link to={link('/myOrder')}>
              <Button>{backText}</Button>
            </Link>
          }
        />
      </section>
    );
  return null;
}
