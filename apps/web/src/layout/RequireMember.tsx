import { LockOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { loginRouteFor } from '../site/routing.ts';
import { useSite } from '../site/SiteProvider.tsx';
import { getToken, SESSION_KEYS, session } from '../site/storage.ts';
import { Result } from '../ui/LazyResult.tsx';

/**
 * Member pages (orders, addresses, bills, payment) ask a visitor to log in instead of calling
 * the server without a token; the login returns here (spec section 4).
 */
export function RequireMember({ title, children }: { title: string; children: ReactNode }) {
  const { site, siteId } = useSite();
  const location = useLocation();
  const navigate = useNavigate();
  if (getToken()) return children;
  return (
    <section className="page-card" data-testid="require-member">
      <Result
        icon={<LockOutlined />}
        title={`请先登录后查看${title}`}
        extra={
          <Button
            type="primary"
            onClick={() => {
              session.set(SESSION_KEYS.loginSuccessBackPath, `${location.pathname}${location.search}`);
              navigate(loginRouteFor(site?.loginWay, siteId));
            }}
          >
            去登录
          </Button>
        }
      />
    </section>
  );
}
