import { DownloadOutlined } from '@ant-design/icons';
import { ORDER_TABS, type OrderTabKey, PAGE_SIZE } from '@sitemall/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Pagination, Result, Skeleton, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useSite } from '../../../site/SiteProvider.tsx';
import { cancelOrder, confirmOrder, exportOrders, orderCountQuery, orderListQuery } from '../api.ts';
import { useOrderAction } from '../hooks.ts';
import { OrderCard } from './OrderCard.tsx';
import '../order.css';

const isTab = (value: string | null): value is OrderTabKey => ORDER_TABS.some((t) => t.key === value);

/** /myOrder: status tabs with counts, orders paged by 10 with their child orders and actions. */
export function MyOrders() {
  const { siteId } = useSite();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: OrderTabKey = isTab(tabParam) ? tabParam : 'all';
  const pageNum = Math.max(1, Number(params.get('pageNum')) || 1);
  const counts = useQuery({ ...orderCountQuery(siteId ?? ''), enabled: !!siteId });
  const list = useQuery({ ...orderListQuery(siteId ?? '', tab, pageNum), enabled: !!siteId });

  const go = (next: { tab?: OrderTabKey; pageNum?: number }) => {
    const query = new URLSearchParams(params);
    query.set('tab', next.tab ?? tab);
    query.set('pageNum', String(next.pageNum ?? 1));
    setParams(query);
  };

  const act = useOrderAction();

  const exporting = useMutation({
    mutationFn: (shown: OrderTabKey) => exportOrders(siteId ?? '', shown),
    onError: (error) => void message.error(error instanceof Error ? error.message : '导出失败'),
  });
  const exportTab = () => exporting.mutate(tab);

  const countOf = (key: string) => counts.data?.byTab.find((t) => t.key === key)?.count;

  return (
    <section className="page-card my-orders" data-testid="my-orders">
      <div className="my-orders__head">
        <h2 className="page-card__title">我的订单</h2>
        <Button
          icon={<DownloadOutlined />}
          loading={exporting.isPending}
          onClick={exportTab}
          data-testid="export-orders"
        >
          导出订单
        </Button>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => go({ tab: key as OrderTabKey })}
        items={ORDER_TABS.map((t) => {
          const count = t.key === 'all' ? counts.data?.total : countOf(t.key);
          return {
            key: t.key,
            label: (
              <span data-testid={`order-tab-${t.key}`}>
                {t.name}
                {count !== undefined && count > 0 && <span className="my-orders__count">{count}</span>}
              </span>
            ),
          };
        })}
      />
      {list.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : list.isError ? (
        <Result status="warning" title="订单加载失败" subTitle={list.error.message} />
      ) : list.data.list.length === 0 ? (
        <Empty description="暂无订单" />
      ) : (
        <>
          {list.data.list.map((order) => (
            <OrderCard
              key={order.orderNo}
              order={order}
              onCancel={(orderNo) => act(() => cancelOrder(siteId ?? '', orderNo), '订单已取消')}
              onConfirm={(orderNo) => act(() => confirmOrder(siteId ?? '', orderNo), '已确认收货')}
            />
          ))}
          <Pagination
            className="my-orders__pager"
            current={list.data.pageNum}
            pageSize={PAGE_SIZE}
            total={list.data.total}
            showSizeChanger={false}
            hideOnSinglePage
            onChange={(page) => go({ pageNum: page })}
          />
        </>
      )}
    </section>
  );
}
