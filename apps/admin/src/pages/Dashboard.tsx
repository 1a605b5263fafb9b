import { ProCard, StatisticCard } from '@ant-design/pro-components';
import { adminDashboardApi as api, DASHBOARD_DAYS } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Empty, Spin, Table } from 'antd';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { call } from '../api';
import { yuan } from '../format';
import { useSession } from '../session';
import { lowStockColumns } from './catalogue/shared';

const DashboardTrend = lazy(() => import('./DashboardTrend'));

/** A figure the operator may not see shows a dash. */
const shown = (value: number | null, text: (v: number) => string = String) =>
  value === null ? '—' : text(value);

/**
 * The console's landing page: today's orders, money and points, work waiting, stock running low,
 * and the last days as a chart.
 */
export function DashboardPage() {
  const { siteId } = useSession();
  const board = useQuery({ queryKey: ['dashboard', siteId], queryFn: () => call(api.dashboard, { siteId }) });
  const d = board.data;
  if (!d)
    return (
      <Spin tip="加载中">
        <div style={{ height: 240 }} />
      </Spin>
    );
  return (
    <ProCard direction="column" ghost gutter={[0, 16]}>
      <StatisticCard.Group title={`今日概况（${d.day}）`}>
        <StatisticCard statistic={{ title: '今日订单', value: shown(d.todayOrders) }} />
        <StatisticCard statistic={{ title: '今日支付金额', value: shown(d.todayPaidAmount, yuan) }} />
        <StatisticCard statistic={{ title: '今日下单会员', value: shown(d.todayActiveMembers) }} />
      </StatisticCard.Group>
      <StatisticCard.Group>
        <StatisticCard statistic={{ title: '今日发放积分', value: shown(d.todayPointsIssued, yuan) }} />
        <StatisticCard statistic={{ title: '今日消费积分', value: shown(d.todayPointsSpent, yuan) }} />
        <StatisticCard
          statistic={{
            title: <Link to="/approval">待审批订单</Link>,
            value: shown(d.pendingApprovals),
          }}
        />
        <StatisticCard
          statistic={{
            title: <Link to="/aftersales">待处理售后</Link>,
            value: shown(d.openAfterSales),
          }}
        />
      </StatisticCard.Group>
      <ProCard title={`近 ${DASHBOARD_DAYS} 日趋势`}>
        {d.trend === null ? (
          <Empty description="您没有订单查看权限" />
        ) : (
          <Suspense
            fallback={
              <Spin tip="图表加载中">
                <div style={{ height: 240 }} />
              </Spin>
            }
          >
            <DashboardTrend days={d.trend} />
          </Suspense>
        )}
      </ProCard>
      <ProCard title="低库存规格（少于 10 件）">
        {d.lowStock === null ? (
          <Empty description="您没有库存查看权限" />
        ) : (
          <Table
            size="small"
            rowKey="specificationId"
            pagination={false}
            locale={{ emptyText: '没有低库存的规格' }}
            dataSource={d.lowStock}
            columns={lowStockColumns()}
          />
        )}
      </ProCard>
    </ProCard>
  );
}
