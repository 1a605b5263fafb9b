import type { OrderSummary } from '@sitemall/contract';
import { chinaTime, ORDER_STATUS, ORDER_STATUS_LABEL } from '@sitemall/contract';
import { Button, Popconfirm, Tag } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { orderStatusView } from '../lib/status.ts';

export const isPending = (status: number) => status === 0 || status === 15;
export const isAwaitingReceipt = (status: number) => status === ORDER_STATUS.awaitingReceipt;
export const statusLabel = (status: number, fallback: string) => ORDER_STATUS_LABEL[status] ?? fallback;

/** One order of /myOrder: child orders with their lines, amount, status and the actions it allows. */
export function OrderCard({
  order,
  onCancel,
  onConfirm,
}: {
  order: OrderSummary;
  onCancel: (orderNo: string) => Promise<unknown>;
  onConfirm: (orderNo: string) => Promise<unknown>;
}) {
  const { formatMoney } = useSite();
  const link = useSiteLink();
  const detail = link(`/orderDetail?orderNo=${encodeURIComponent(order.orderNo)}`);
  const view = orderStatusView(order);
  return (
    <article className="order-card" data-testid="order-card" data-order-no={order.orderNo}>
      <header className="order-card__head">
        <span>{chinaTime(order.createTime)}</span>
        <span>
          订单号：<Link to={detail}>{order.orderNo}</Link>
        </span>
        <span className="order-card__fill" />
        <Tag
          color={isPending(order.status) ? 'orange' : order.status === 23 ? 'green' : 'default'}
          data-testid="order-status"
        >
          {view.label}
        </Tag>
      </header>
      <div className="order-card__body">
        <div className="order-card__children">
          {order.childOrders.map((child) => (
            <div className="order-card__child" key={child.childOrderNo}>
              <div className="order-card__child-head">
                <Tag color="volcano" bordered={false}>
                  {child.sourceName}
                </Tag>
                <span className="checkout__muted">子订单 {child.childOrderNo}</span>
              </div>
              {child.lines.map((line) => (
                <div className="order-card__line" key={`${line.productId}-${line.specificationId}`}>
                  {line.image ? <img src={line.image} alt="" /> : <span className="checkout__noimg" />}
                  <span className="order-card__name">
                    {line.name}
                    <small>规格：{line.specificationValue}</small>
                  </span>
                  <span>
                    {formatMoney(line.price)} × {line.num}
                  </span>
                </div>
              ))}
            </div>
          ))}
        </div>
        <div className="order-card__amount">
          <span className="checkout__muted">{view.amountLabel}</span>
          <strong data-testid="order-amount">{formatMoney(order.payAmount)}</strong>
          {order.freightAmount > 0 && (
            <small className="checkout__muted">含运费 {formatMoney(order.freightAmount)}</small>
          )}
          {view.reason && (
            <small className="order-card__reason" data-testid="order-reason">
              {view.reason}
            </small>
          )}
        </div>
        <div className="order-card__actions">
          {isPending(order.status) && (
            <Link to={link(`/selectPayWay?orderNo=${encodeURIComponent(order.orderNo)}`)}>
              <Button type="primary" size="small" data-testid="order-pay">
                去支付
              </Button>
            </Link>
          )}
          {isPending(order.status) && (
            <Popconfirm
              title="确定取消该订单吗？"
              description="取消后订单无法恢复"
              okText="确定取消"
              cancelText="再想想"
              onConfirm={() => onCancel(order.orderNo)}
            >
              <Button size="small" data-testid="order-cancel">
                取消订单
              </Button>
            </Popconfirm>
          )}
          {isAwaitingReceipt(order.status) && (
            <Popconfirm title="确认已收到商品吗？" onConfirm={() => onConfirm(order.orderNo)}>
              <Button type="primary" size="small" data-testid="order-confirm">
                确认收货
              </Button>
            </Popconfirm>
          )}
          <Link to={detail}>
            <Button type="link" size="small">
              订单详情
            </Button>
          </Link>
        </div>
      </div>
    </article>
  );
}
