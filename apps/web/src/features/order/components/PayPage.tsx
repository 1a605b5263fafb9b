import { ClockCircleOutlined, WalletOutlined, WechatOutlined } from '@ant-design/icons';
import { ORDER_MSG, PAY_WAY, PAY_WAY_NAME, PAY_WAYS } from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Result, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { payInfoQuery, payOrder } from '../api.ts';
import { offeredPayWays, timeLeft } from '../lib/countdown.ts';
import { OrderQueryState } from './OrderQueryState.tsx';
import '../order.css';

const PENDING = [0, 15];

/** A ticking "time left until" (1 s), null once passed. */
function useTimeLeft(until: string | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return until ? timeLeft(Date.parse(until), now) : null;
}

/**
 * /selectPayWay?orderNo=: the order's amount, the points balance, the pay ways the site offers
 * (spec section 9: wx_pc and ye filtered by paywayConf) and a countdown to the order's expiry.
 * A successful points payment calls onPaid (the route sets the post-pay flag, section 4).
 */
export function PayPage({ orderNo, onPaid }: { orderNo: string; onPaid: () => void }) {
  const { siteId, site, formatMoney } = useSite();
  const link = useSiteLink();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const info = useQuery({ ...payInfoQuery(siteId ?? '', orderNo), enabled: !!orderNo });
  const left = useTimeLeft(info.data?.expireTime);
  const ways = offeredPayWays(
    PAY_WAYS.map((code) => ({ code, name: PAY_WAY_NAME[code] ?? code })),
    site?.paywayConf ?? [],
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  // A way the server refused as not yet available (wx_pc: ORDER_MSG.wechatLater) stays marked for this visit.
  const [refused, setRefused] = useState<ReadonlySet<string>>(new Set());
  const isOpen = (code: string) => !refused.has(code) && !!info.data?.payWays.some((w) => w.code === code);
  // Points first: it is the pay way every site can complete.
  const current =
    (chosen && isOpen(chosen) ? chosen : null) ??
    (isOpen(PAY_WAY.points) ? PAY_WAY.points : (ways.find((w) => isOpen(w.code))?.code ?? null));

  if (!orderNo) return <Result status="404" title="缺少订单号" />;
  if (!info.data)
    return <OrderQueryState query={info} rows={6} errorTitle="订单信息加载失败" backText="查看我的订单" />;
  const order = info.data;
  const pending = PENDING.includes(order.status);
  const expired = pending && !left;
  const short = current === PAY_WAY.points && order.balance < order.payAmount;

  const pay = async () => {
    if (!current) return;
    setPaying(true);
    try {
      const result = await payOrder(siteId ?? '', { orderNo, payWay: current, orderType: order.orderType });
      void queryClient.invalidateQueries({ queryKey: ['identity', siteId ?? ''] });
      if (result.isPaid) onPaid();
      else void message.info(`订单状态：${result.statusName}`);
    } catch (error) {
      const text = error instanceof Error ? error.message : '支付失败';
      if (text === ORDER_MSG.wechatLater) setRefused((prev) => new Set(prev).add(current));
      void message.error(text);
      void info.refetch();
    } finally {
      setPaying(false);
    }
  };

  return (
    <div className="pay" data-testid="pay-page">
      <section className="page-card pay__summary">
        <div>
          <h2 className="pay__title">订单提交成功，请尽快付款！</h2>
          <p className="checkout__muted">
            订单号：<span data-testid="pay-order-no">{order.orderNo}</span>　下单时间：
            {new Date(order.createTime).toLocaleString('zh-CN')}
          </p>
          {pending && left && (
            <p className="pay__countdown" data-testid="pay-countdown">
              <ClockCircleOutlined /> 请在 <b>{left.text}</b> 内完成支付，超时订单将自动取消
            </p>
          )}
          {expired && <p className="checkout__warn">订单已过期，请重新下单</p>}
          {!pending && <Tag color="blue">{order.statusName}</Tag>}
        </div>
        <div className="pay__amount">
          应付金额
          <strong data-testid="pay-amount">{formatMoney(order.payAmount)}</strong>
        </div>
      </section>
      <section className="page-card">
        <h3 className="checkout__title">选择支付方式</h3>
        {ways.length === 0 ? (
          <Result status="info" title="本站暂未开通在线支付方式" />
        ) : (
          <div className="pay__ways">
            {ways.map((way) => {
              const open = isOpen(way.code);
              return (
                <button
                  key={way.code}
                  type="button"
                  className={`pay__way ${current === way.code ? 'is-active' : ''}`}
                  disabled={!open || !pending || expired}
                  aria-pressed={current === way.code}
                  onClick={() => setChosen(way.code)}
                  data-testid={`payway-${way.code}`}
                >
                  {way.code === PAY_WAY.points ? <WalletOutlined /> : <WechatOutlined />}
                  <span>{way.name}</span>
                  {way.code === PAY_WAY.points && (
                    <small data-testid="pay-balance">可用余额 {formatMoney(order.balance)}</small>
                  )}
                  {!open && <Tag data-testid="payway-soon">即将开放</Tag>}
                </button>
              );
            })}
          </div>
        )}
        {short && <p className="checkout__warn">积分余额不足，无法使用积分支付</p>}
        <div className="pay__actions">
          <Button
            type="primary"
            size="large"
            disabled={!current || !pending || expired || short}
            loading={paying}
            onClick={() => void pay()}
            data-testid="pay-submit"
          >
            立即支付 {formatMoney(order.payAmount)}
          </Button>
          <Link to={link(`/orderDetail?orderNo=${encodeURIComponent(order.orderNo)}`)}>查看订单详情</Link>
        </div>
      </section>
    </div>
  );
}
