import { Column, Line } from '@ant-design/plots';
import type { DayTrend } from '@sitemall/contract';
import { Col, Row } from 'antd';

/**
 * The landing page's chart of the last days: orders placed (columns) and amount paid (a line, in
 * yuan). Loaded on its own (React.lazy): the chart library is most of the page's weight. Drawn
 * without the entry animation: the figures read at once (and a screenshot shows them whole).
 */
export default function DashboardTrend({ days }: { days: DayTrend[] }) {
  const data = days.map((d) => ({ day: d.day.slice(5), orders: d.orders, yuan: d.paidAmount / 100 }));
  /** What the two charts share: the days along x, the height, no animation. */
  const chart = (title: string, yField: 'orders' | 'yuan', unit: string) => ({
    title,
    data,
    xField: 'day',
    yField,
    height: 240,
    animate: false,
    axis: { y: { title: unit } },
    tooltip: { items: [{ channel: 'y', name: title }] },
  });
  return (
    <Row gutter={16} data-testid="dashboard-trend">
      <Col span={12}>
        <Column {...chart('每日订单数', 'orders', '单')} />
      </Col>
      <Col span={12}>
        <Line {...chart('每日支付金额（元）', 'yuan', '元')} point={{ size: 3 }} />
      </Col>
    </Row>
  );
}
