import { DownOutlined, PhoneOutlined } from '@ant-design/icons';
import { LOGIN_WAY } from '@sitemall/contract';
import type { MenuProps } from 'antd';
import { cloneElement, type HTMLAttributes, lazy, type ReactElement, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useEndSession } from '../features/identity/hooks.ts';
import { rememberBackPath } from '../features/identity/session.ts';
import { SERVICE_GROUPS } from '../features/service-info/content.ts';
import { useServiceInfo } from '../features/service-info/ServiceInfo.tsx';
import { useSiteLink } from '../site/links.ts';
import { maskPhone } from '../site/phone.ts';
import { useSite } from '../site/SiteProvider.tsx';
import { getToken, getUser } from '../site/storage.ts';

// Loaded when first opened: its antd Form stays out of the first page load.
const ChangePasswordDialog = lazy(() =>
  import('../features/identity/ChangePasswordDialog.tsx').then((m) => ({ default: m.ChangePasswordDialog })),
);

// antd's Dropdown (with Menu, Tooltip and Trigger) loads once a menu shows, after the header has:
// until then its trigger stands alone, drawn the same, and a pointer over it opens the menu on load.
const Dropdown = lazy(() => import('antd/es/dropdown'));

/** A header menu: its trigger at once, the dropdown around it once loaded. */
function HeaderMenu({
  menu,
  children,
}: {
  menu: MenuProps;
  children: ReactElement<HTMLAttributes<HTMLElement>>;
}) {
  const [open, setOpen] = useState(false);
  const waiting = cloneElement(children, {
    onMouseEnter: () => setOpen(true),
    onMouseLeave: () => setOpen(false),
  });
  return (
    <Suspense fallback={waiting}>
      <Dropdown menu={menu} placement="bottomRight" open={open} onOpenChange={setOpen}>
        {children}
      </Dropdown>
    </Suspense>
  );
}

/**
 * The name the greeting shows (section 2): the username on account-login sites, else the phone,
 * masked as a bank mall shows it. A member who came in through a partner (a bank ticket) may have
 * neither: they are still a member, greeted as 会员, with the member menu (section 6 hides it
 * only from visitors). '' means a visitor.
 */
export function greetingName(
  user: { phone?: string | null; username?: string | null } | null,
  loginWay: number | undefined,
): string {
  if (!user) return '';
  if (loginWay === LOGIN_WAY.account && user.username) return user.username;
  if (user.phone) return maskPhone(user.phone);
  return user.username || '会员';
}

/** The utility bar above the header (spec section 2, "Header"). */
export function TopBar() {
  const { site, hotline } = useSite();
  const link = useSiteLink();
  const serviceInfo = useServiceInfo();
  const endSession = useEndSession();
  const [changingPassword, setChangingPassword] = useState(false);
  // Mounted from the first open on, so that closing still animates.
  const [passwordDialogUsed, setPasswordDialogUsed] = useState(false);
  const location = useLocation(); // re-read the stored user on every navigation
  const user = getToken() ? getUser() : null;
  const config = site?.configJson;
  const name = greetingName(user, site?.loginWay);
  const showCustomerService = site?.customServicePcSwitch === 1 || config?.customServiceEntry === 'Y';

  const accountMenu: MenuProps['items'] = [
    { key: 'center', label: <Link to={link('/personalCenter')}>个人中心</Link> },
    { key: 'password', label: '修改登录密码' },
    ...(config?.hideExit === 'Y' ? [] : [{ key: 'exit', label: '退出' }]),
  ];
  const onAccountMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'password') {
      setPasswordDialogUsed(true);
      setChangingPassword(true);
    }
    // Exit (section 4): the server logs the token out; user, token, open id and session storage go; then login.
    if (key === 'exit') void endSession();
  };
  // After logging in from the header, the visitor comes back to the page they were on.
  const onLoginLink = () => rememberBackPath(`${location.pathname}${location.search}`);

  const afterSalesMenu: MenuProps['items'] = SERVICE_GROUPS.map((group) => ({
    key: group.key,
    type: 'group' as const,
    label: group.title,
    children: group.entries.map((entry) => ({ key: entry.key, label: entry.title })),
  }));

  return (
    <div className="topbar">
      <div className="container topbar__inner">
        <div className="topbar__left">
          {config?.hideServicePhone !== 'Y' && hotline && (
            <span className="topbar__phone" data-testid="service-phone">
              <PhoneOutlined /> 客服电话：{hotline}
            </span>
          )}
          {name ? (
            <span className="topbar__greeting">
              您好，{name}，欢迎来到{site?.siteName}
            </span>
          ) : (
            <span className="topbar__greeting">
              您好，欢迎来到{site?.siteName}！
              <Link to={link('/login')} className="topbar__login" onClick={onLoginLink}>
                请登录
              </Link>
              {config?.showRegister === 'Y' && (
                <Link to={link('/register')} className="topbar__register">
                  免费注册
                </Link>
              )}
            </span>
          )}
        </div>
        <ul className="topbar__links">
          {showCustomerService && (
            <li>
              <Link to={link('/platformCustomerService')}>商城客服</Link>
            </li>
          )}
          <li>
            <Link to={link('/batchOrder')}>批量下单</Link>
          </li>
          <li>
            <Link to={link('/myOrder')}>我的订单</Link>
          </li>
          {name && (
            <li>
              <HeaderMenu menu={{ items: accountMenu, onClick: onAccountMenu }}>
                <span className="topbar__menu" data-testid="account-menu">
                  个人中心 <DownOutlined />
                </span>
              </HeaderMenu>
            </li>
          )}
          {config?.afterSalesMenu === 'Y' && (
            <li>
              <HeaderMenu menu={{ items: afterSalesMenu, onClick: ({ key }) => serviceInfo.open(key) }}>
                <span className="topbar__menu" data-testid="after-sales-menu">
                  售后信息 <DownOutlined />
                </span>
              </HeaderMenu>
            </li>
          )}
        </ul>
      </div>
      {passwordDialogUsed && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
        </Suspense>
      )}
    </div>
  );
}
