import { chinaTime, PAY_WAY_NAME } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Empty, Popconfirm, Result, Tag, Timeline } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { cancelOrder, confirmOrder, orderDetailQuery, trackQuery } from '../api.ts';
import { useOrderAction } from '../hooks.ts';
import { orderStatusView } from '../lib/status.ts';
import { isAwaitingReceipt, isPending } from './OrderCard.tsx';
import { OrderQueryState } from './OrderQueryState.tsx';
import { ProviderGoodsPanel } from './ProviderGoodsPanel.tsx';
import '../order.css';

const time = (value: string | null) => (value ? chinaTime(value) : '—');

/** /orderDetail?orderNo=: child orders, lines, address snapshot, amounts, payment, history, logistics. */
export function OrderDetailView({ orderNo }: { orderNo: string }) {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const act = useOrderAction();
  const detail = useQuery({
    ...orderDetailQuery(siteId ?? '', orderNo),
    enabled: !!orderNo,
    // While a provider issues the tickets or codes, the page follows until they are there.
    refetchInterval: (query) =>
      query.state.data?.providerGoods?.some((g) => g.status === 'paid' || g.status === 'issuing')
        ? 2_000
        : false,
  });
  const track = useQuery({ ...trackQuery(siteId ?? '', orderNo), enabled: !!orderNo });

  if (!orderNo) return <Result status="404" title="缺少订单号" />;
  if (!detail.data)
    return (
      <OrderQueryState query={detail} rows={10} errorTitle="订单不存在或无法查看" backText="返回我的订单" />
    );
  const order = detail.data;
  const view = orderStatusView(order);
  const tracks = track.data?.list.filter((t) => t.events.length > 0) ?? [];

  return (
    <div className="order-detail" data-testid="order-detail">
      <section className="page-card">
        <div className="order-detail__head">
          <h2 className="page-card__title">
            订单详情{' '}
            <Tag
              color={isPending(order.status) ? 'orange' : view.reason ? 'default' : 'blue'}
              data-testid="order-status"
            >
              {view.label}
            </Tag>
          </h2>
          <div className="order-card__actions">
            {isPending(order.status) && (
              <Link to={link(`/selectPayWay?orderNo=${encodeURIComponent(order.orderNo)}`)}>
                <Button type="primary">去支付</Button>
              </Link>
            )}
            {isPending(order.status) && (
              <Popconfirm
                title="确定取消该订单吗？"
                onConfirm={() => act(() => cancelOrder(siteId ?? '', order.orderNo), '订单已取消')}
              >
                <Button>取消订单</Button>
              </Popconfirm>
            )}
            {isAwaitingReceipt(order.status) && (
              <Popconfirm
                title="确认已收到商品吗？"
                onConfirm={() => act(() => confirmOrder(siteId ?? '', order.orderNo), '已确认收货')}
              >
                <Button type="primary">确认收货</Button>
              </Popconfirm>
            )}
          </div>
        </div>
        <Descriptions size="small" column={3} bordered>
          <Descriptions.Item label="订单号">{order.orderNo}</Descriptions.Item>
          <Descriptions.Item label="下单时间">{time(order.createTime)}</Descriptions.Item>
          <Descriptions.Item label="订单状态">
            {view.label}
            {view.reason && (
              <span className="order-detail__reason" data-testid="order-reason">
                {view.reason}
              </span>
            )}
          </Descriptions.Item>
          <Descriptions.Item label="支付方式">
            {order.payWay ? (PAY_WAY_NAME[order.payWay] ?? order.payWay) : '未支付'}
          </Descriptions.Item>
          <Descriptions.Item label="支付时间">{time(order.payTime)}</Descriptions.Item>
          <Descriptions.Item label="订单备注">{order.remark || '—'}</Descriptions.Item>
          <Descriptions.Item label="收货信息" span={3}>
            {order.address
              ? `${order.address.consignee} ${order.address.phone}　${[order.address.provinceName, order.address.cityName, order.address.districtName, order.address.detail].filter(Boolean).join(' ')}`
              : '虚拟商品，无需收货地址'}
          </Descriptions.Item>
        </Descriptions>
      </section>
      <section className="page-card">
        <h3 className="checkout__title">商品信息</h3>
        {order.childOrders.map((child) => (
          <div className="checkout__group" key={child.childOrderNo} data-testid="detail-child">
            <div className="checkout__group-head">
              <Tag color="volcano" bordered={false}>
                {child.sourceName}
              </Tag>
              <span className="checkout__muted">
                子订单 {child.childOrderNo} · {orderStatusView({ ...child, payTime: order.payTime }).label} ·
                运费 {formatMoney(child.freightAmount)}
              </span>
            </div>
            {child.lines.map((line) => (
              <div className="checkout__line" key={`${line.productId}-${line.specificationId}`}>
                {line.image ? <img src={line.image} alt="" /> : <span className="checkout__noimg" />}
                <span className="checkout__name">
                  {line.name}
                  <small>规格：{line.specificationValue}</small>
                </span>
                <span>{formatMoney(line.price)}</span>
                <span>× {line.num}</span>
                <strong>{formatMoney(line.amount)}</strong>
              </div>
            ))}
          </div>
        ))}
        <dl className="order-detail__sum">
          <dt>商品金额</dt>
          <dd>{formatMoney(order.goodsAmount)}</dd>
          <dt>运费</dt>
          <dd>{formatMoney(order.freightAmount)}</dd>
          <dt>{view.amountLabel}</dt>
          <dd className="checkout__pay" data-testid="order-amount">
            {formatMoney(order.payAmount)}
          </dd>
        </dl>
      </section>
      {order.providerGoods && order.providerGoods.length > 0 && (
        <ProviderGoodsPanel goods={order.providerGoods} />
      )}
      <div className="order-detail__cols">
        <section className="page-card">
          <h3 className="checkout__title">订单进度</h3>
          <Timeline
            items={[...order.logs].reverse().map((log) => ({
              children: (
                <span>
                  <b>{orderStatusView({ ...log, payTime: order.payTime }).label}</b> {log.note}
                  <br />
                  <small className="checkout__muted">{time(log.createTime)}</small>
                </span>
              ),
            }))}
          />
        </section>
        <section className="page-card">
          <h3 className="checkout__title">物流信息</h3>
          {tracks.length === 0 ? (
            <Empty description="暂无物流信息" image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            tracks.map((t) => (
              <div key={t.childOrderNo}>
                <p>
                  {t.company} {t.trackingNo}
                </p>
                <Timeline items={t.events.map((e) => ({ children: `${time(e.time)} ${e.text}` }))} />
              </div>
            ))
          )}
        </section>
      </div>
    </div>
  );
}
