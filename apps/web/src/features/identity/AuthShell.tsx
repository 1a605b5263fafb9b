import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import './identity.css';

/**
 * The frame of the login pages and register: the site's colour, logo, name and slogan on the
 * left, the form on the right, centred on the page (no header or footer, spec section 2).
 */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { site, advancedConfig } = useSite();
  const link = useSiteLink();
  const name = site?.siteName ?? '';
  return (
    <div className="idn-page">
      <div className="idn-card">
        <aside className="idn-brand">
          <Link to={link('/home')} className="idn-brand__head" aria-label={`${name}首页`}>
            {advancedConfig?.logo && <img className="idn-brand__logo" src={advancedConfig.logo} alt="" />}
            <span className="idn-brand__name" data-testid="auth-site-name">
              {name}
            </span>
          </Link>
          <p className="idn-brand__slogan">{advancedConfig?.slogan || '欢迎光临'}</p>
          <ul className="idn-brand__points">
            <li>正品保障，品质无忧</li>
            <li>{site?.cashUnit ? `${site.cashUnit}兑换，轻松便捷` : '兑换便捷，轻松购物'}</li>
            <li>账户信息加密传输</li>
          </ul>
        </aside>
        <section className="idn-main">
          <h1 className="idn-main__title">{title}</h1>
          <p className="idn-main__subtitle">{subtitle ?? '欢迎回来，请登录您的账号'}</p>
          <div className="idn-main__body">{children}</div>
          <div className="idn-foot">
            {footer}
            <Link to={link('/home')}>返回商城首页</Link>
          </div>
        </section>
      </div>
    </div>
  );
}

/** A link (or button) of an auth page's footer, with the separator before 返回商城首页 or the next. */
export function AuthFootItem({ children }: { children: ReactNode }) {
  return (
    <span>
      {children}
      <span className="idn-foot__sep"> · </span>
    </span>
  );
}
