import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import type { StateScreenProps } from './StateScreen.tsx';

const LoadedStateScreen = lazy(() => import('./StateScreen.tsx').then((m) => ({ default: m.StateScreen })));

/** A whole-page state (StateScreen.tsx), loaded when it first shows. */
export function LazyStateScreen(props: StateScreenProps) {
  return (
    <Suspense fallback={null}>
      <LoadedStateScreen {...props} />
    </Suspense>
  );
}

/** Shown in place of a page that failed (a load time-out names the part, spec section 8). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : '未知错误';
  return (
    <LazyStateScreen className="page-card" status="error" title="页面加载失败" subTitle={detail} reload />
  );
}

/**
 * A loading spinner drawn in CSS (layout.css), as antd's large Spin looks: the entry shows it
 * before antd has loaded.
 */
export function Spinner({ tip }: { tip?: string }) {
  return (
    <output className="spinner" aria-live="polite">
      <span className="spinner__dots" aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
      </span>
      <span className={tip ? 'spinner__tip' : 'visually-hidden'}>{tip ?? '加载中'}</span>
    </output>
  );
}

/** Shown while the first route loads. */
export function PageLoading() {
  return (
    <div className="site-state site-state--loading">
      <Spinner />
    </div>
  );
}
