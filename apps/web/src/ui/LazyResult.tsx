import type { ResultProps } from 'antd';
import { lazy, Suspense } from 'react';

const AntResult = lazy(() => import('antd/es/result'));

/**
 * antd's Result, loaded when an error or notice screen first shows: its status pictures are
 * large inline SVGs that every page's first load would carry otherwise.
 */
export function Result(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <AntResult {...props} />
    </Suspense>
  );
}
