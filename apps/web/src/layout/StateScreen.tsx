import { Button, Result, type ResultProps } from 'antd';
import { SiteTheme } from '../site/SiteTheme.tsx';

export interface StateScreenProps {
  className: string;
  status: ResultProps['status'];
  title: string;
  subTitle: string;
  /** Offers 重新加载 (reloads the page). */
  reload?: boolean;
}

/**
 * A whole-page state (no site, the site or a page failed to load): antd's Result in the site's
 * theme. Loaded when one shows (RouteError.tsx): antd and Result's pictures stay out of the entry.
 */
export function StateScreen({ reload, ...result }: StateScreenProps) {
  return (
    <SiteTheme>
      <Result
        {...result}
        extra={
          reload && (
            <Button type="primary" onClick={() => window.location.reload()}>
              重新加载
            </Button>
          )
        }
      />
    </SiteTheme>
  );
}
