import {
  AccountBookOutlined,
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileDoneOutlined,
  GiftOutlined,
  HistoryOutlined,
  InboxOutlined,
  LogoutOutlined,
  MessageOutlined,
  ShopOutlined,
  ShoppingOutlined,
  SolutionOutlined,
  TagsOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { ProLayout } from '@ant-design/pro-components';
import { adminApi } from '@sitemall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Result, Select, Space, Spin } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { call, getToken, setToken, whenListFails } from './api';
import { SessionProvider, useMe, useSession } from './session';

interface MenuEntry {
  path: string;
  name: string;
  icon?: ReactNode;
  permission: string;
  /** A group: its entries, shown under it. */
  children?: MenuEntry[];
}

/** Menu entries and the permission each screen needs (hidden without it). */
const MENU: MenuEntry[] = [
  { path: '/dashboard', name: '首页看板', icon: <DashboardOutlined />, permission: '' },
  { path: '/sites', name: '站点配置', icon: <ShopOutlined />, permission: 'sites:view' },
  { path: '/catalogue', name: '商品管理', icon: <AppstoreOutlined />, permission: 'catalogue:view' },
  { path: '/stock', name: '库存管理', icon: <InboxOutlined />, permission: 'stock:view' },
  { path: '/orders', name: '订单管理', icon: <ShoppingOutlined />, permission: 'orders:view' },
  { path: '/approval', name: '订单审批', icon: <FileDoneOutlined />, permission: 'orders:view' },
  { path: '/refunds', name: '待审批退款', icon: <AccountBookOutlined />, permission: 'finance:view' },
  { path: '/provider', name: '供应商商品', icon: <ApiOutlined />, permission: 'orders:view' },
  { path: '/payments', name: '支付与对账', icon: <WalletOutlined />, permission: 'finance:view' },
  { path: '/aftersales', name: '售后处理', icon: <CustomerServiceOutlined />, permission: 'aftersales:view' },
  { path: '/service', name: '客服留言', icon: <MessageOutlined />, permission: 'aftersales:view' },
  { path: '/members', name: '会员与积分', icon: <UserOutlined />, permission: 'members:view' },
  { path: '/merchants', name: '商家入驻', icon: <SolutionOutlined />, permission: 'sites:view' },
  { path: '/points', name: '积分发放', icon: <GiftOutlined />, permission: 'points:view' },
  { path: '/promotions', name: '优惠券与卡包', icon: <TagsOutlined />, permission: 'promotions:view' },
  {
    path: '/activity',
    name: '营销活动',
    icon: <ThunderboltOutlined />,
    permission: 'promotions:view',
    children: [
      { path: '/activity/seckill', name: '秒杀活动', permission: 'promotions:view' },
      { path: '/activity/lottery', name: '抽奖活动', permission: 'promotions:view' },
      { path: '/activity/group', name: '拼团活动', permission: 'promotions:view' },
      { path: '/activity/bargains', name: '砍价活动', permission: 'promotions:view' },
      { path: '/activity/benefits', name: '权益与礼品', permission: 'promotions:view' },
    ],
  },
  { path: '/audit', name: '审计日志', icon: <AuditOutlined />, permission: 'audit:view' },
  { path: '/operators', name: '运营人员与角色', icon: <TeamOutlined />, permission: 'operators:view' },
  { path: '/login-log', name: '登录日志', icon: <HistoryOutlined />, permission: 'operators:view' },
];

function SiteSwitcher() {
  const { me, siteId, setSiteId } = useSession();
  return (
    <Select
      aria-label="切换站点"
      style={{ width: 240 }}
      value={siteId ?? 0}
      onChange={(value) => setSiteId(value === 0 ? undefined : value)}
      options={[
        ...(me.sites.length > 1 ? [{ value: 0, label: '全部站点' }] : []),
        ...me.sites.map((s) => ({ value: s.id, label: `${s.id} ${s.siteName}` })),
      ]}
    />
  );
}

function Shell() {
  const { me, can } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  useEffect(() => whenListFails((error) => void message.error(error.message)), [message]);
  const logout = async () => {
    await call(adminApi.logout, {}).catch(() => undefined);
    setToken('');
    queryClient.clear();
    navigate('/login', { replace: true });
  };
  const shown = (entries: MenuEntry[]): MenuEntry[] =>
    entries
      .filter((m) => !m.permission || can(m.permission))
      .map((m) => (m.children ? { ...m, children: shown(m.children) } : m));
  const routeOf = ({ path, name, icon, children }: MenuEntry): Record<string, unknown> => ({
    path,
    name,
    icon,
    ...(children ? { routes: children.map(routeOf) } : {}),
  });
  const current = MENU.flatMap((m) => m.children ?? [m]).find((m) => location.pathname.startsWith(m.path));
  return (
    <ProLayout
      title="Sitemall 运营后台"
      logo={false}
      layout="mix"
      fixSiderbar
      location={{ pathname: location.pathname }}
      route={{ path: '/', routes: shown(MENU).map(routeOf) }}
      menuItemRender={(item, dom) => <Link to={item.path ?? '/'}>{dom}</Link>}
      actionsRender={() => [
        <SiteSwitcher key="site" />,
        <Space key="me">
          <Link to="/account" title="账号安全">
            <UserOutlined /> {me.name}
          </Link>
          <Button type="link" icon={<LogoutOutlined />} onClick={logout}>
            退出
          </Button>
        </Space>,
      ]}
    >
      {current?.permission && !can(current.permission) ? (
        <Result status="403" title="无权访问" subTitle="您的角色没有此页面的权限" />
      ) : (
        <Outlet />
      )}
    </ProLayout>
  );
}

/** The console frame: the logged-in operator, the menu of what they may see, the site switcher. */
export function ConsoleLayout() {
  const me = useMe();
  if (!getToken()) return <Navigate to="/login" replace />;
  if (me.isPending) return <Spin fullscreen tip="加载中" />;
  if (!me.data) return <Navigate to="/login" replace />;
  return (
    <SessionProvider me={me.data}>
      <Shell />
    </SessionProvider>
  );
}
