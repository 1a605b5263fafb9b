import { Result, Tabs } from 'antd';
import { useSession } from '../../session';
import { CodeStock } from './CodeStock';
import { ProviderOrders } from './ProviderOrders';
import { Reconciliation } from './Reconciliation';

/** Provider goods: orders by state, the e-code stock, the daily reconciliation (each by permission). */
export function ProviderPage() {
  const { can, me } = useSession();
  // The statement covers every site: finance on all sites only.
  const financeAll = me.assignments.some(
    (a) => a.siteIds === null && a.permissions.some((p) => p === 'finance:view' || p === 'finance:manage'),
  );
  const tabs = [
    { key: 'orders', label: '服务商订单', children: <ProviderOrders />, show: can('orders:view') },
    { key: 'codes', label: '电子码库存', children: <CodeStock />, show: can('stock:view') },
    { key: 'recon', label: '对账', children: <Reconciliation />, show: financeAll },
  ].filter((t) => t.show);
  if (tabs.length === 0) return <Result status="403" title="无权访问" />;
  return <Tabs destroyInactiveTabPane items={tabs.map(({ show: _, ...t }) => t)} />;
}
