import { Button, Spin } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Result } from './LazyResult.tsx';

/** Shown in place of a page that failed (a load time-out names the part, spec section 8). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : '未知错误';
  return (
    <Result
      className="page-card"
      status="error"
      title="页面加载失败"
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          重新加载
        </Button>
      }
    />
  );
}

/** Shown while the first route loads. */
export function PageLoading() {
  return (
    <div className="site-state site-state--loading">
      <Spin size="large" />
    </div>
  );
}
