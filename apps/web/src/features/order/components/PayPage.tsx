import { ClockCircleOutlined, CreditCardOutlined, WalletOutlined, WechatOutlined } from '@ant-design/icons';
import { chinaTime, PAY_WAY, PAY_WAY_NAME, PAY_WAYS, type PayOrderInfo } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Result, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { payInfoQuery } from '../api.ts';
import { useNow, usePayOrder, useWechatCode } from '../hooks.ts';
import { offeredPayWays, timeLeft } from '../lib/countdown.ts';
import { availablePoints, fenText, maxPointsPart, pointsPartError, splitSummary } from '../lib/wechat.ts';
import { OrderQueryState } from './OrderQueryState.tsx';
import { PointsPartField } from './PointsPartField.tsx';
import { WechatPayPanel } from './WechatPayPanel.tsx';
import '../order.css';

const PENDING = [0, 15];

/**
 * /selectPayWay?orderNo=: the order's amount, the points balance, the pay ways the site offers
 * (spec section 9: wx_pc and ye filtered by paywayConf) and a countdown to the order's expiry.
 * A paid order (points, or WeChat seen by polling) calls onPaid: the route sets the post-pay
 * flag and goes to /payresultvalid (section 4).
 */
export function PayPage({ orderNo, onPaid }: { orderNo: string; onPaid: () => void }) {
  const { siteId } = useSite();
  const info = useQuery({ ...payInfoQuery(siteId ?? '', orderNo), enabled: !!orderNo });
  if (!orderNo) return <Result status="404" title="缺少订单号" />;
  if (!info.data)
    return <OrderQueryState query={info} rows={6} errorTitle="订单信息加载失败" backText="查看我的订单" />;
  return <PayForm order={info.data} onPaid={onPaid} />;
}

function PayForm({ order, onPaid }: { order: PayOrderInfo; onPaid: () => void }) {
  const { site, formatMoney } = useSite();
  const link = useSiteLink();
  const { message } = App.useApp();
  const now = useNow();
  const left = timeLeft(Date.parse(order.expireTime), now);
  const cashUnit = site?.cashUnit ?? '';
  const ways = offeredPayWays(
    PAY_WAYS.map((code) => ({ code, name: PAY_WAY_NAME[code] ?? code })),
    site?.paywayConf ?? [],
  );
  const wechat = useWechatCode({ order, now, onPaid });
  const [chosen, setChosen] = useState<string | null>(order.wechat ? PAY_WAY.wechatPc : null);
  const pointsPayment = usePayOrder(order);
  const balance = availablePoints(order.balance, order.wechat);
  const maxPoints = maxPointsPart(balance, order.payAmount);
  const [usePoints, setUsePoints] = useState(() => (order.wechat?.pointsAmount ?? 0) > 0);
  const [pointsFen, setPointsFen] = useState<number | null>(() => order.wechat?.pointsAmount || maxPoints);

  const isOpen = (code: string) => order.payWays.some((w) => w.code === code);
  // Points first: it is the pay way every site can complete.
  const current =
    (chosen && isOpen(chosen) ? chosen : null) ??
    (isOpen(PAY_WAY.points) ? PAY_WAY.points : (ways.find((w) => isOpen(w.code))?.code ?? null));
  const pending = PENDING.includes(order.status);
  const expired = pending && !left;
  const payable = pending && !expired;
  const isWechat = current === PAY_WAY.wechatPc;
  const isMixed = isWechat && order.mixedPay && usePoints;
  const pointsError = isMixed ? pointsPartError(pointsFen, maxPoints, cashUnit) : null;
  const pointsPart = isMixed ? (pointsFen ?? 0) : 0;
  const short = current === PAY_WAY.points && balance < order.payAmount;
  const showCode = isWechat && payable && wechat.code;

  const payWithPoints = async () => {
    try {
      // Gift cards (pack) pay on the server first, points the rest: the same button flow.
      const result = await pointsPayment.mutateAsync({
        payWay: current === PAY_WAY.pack ? PAY_WAY.pack : PAY_WAY.points,
      });
      if (result.isPaid) onPaid();
      else void message.info(`订单状态：${result.statusName}`);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '支付失败');
    }
  };
  // pointsAmount goes only to sites that allow mixed payment (0 = all by WeChat).
  const requestCode = (points: number) => void wechat.request(order.mixedPay ? points : undefined);
  const pay = () => (isWechat ? requestCode(pointsPart) : void payWithPoints());
  const choose = (code: string) => {
    setChosen(code);
    if (code !== PAY_WAY.wechatPc) wechat.hide();
  };

  return (
    <div className="pay" data-testid="pay-page">
      <section className="page-card pay__summary">
        <div>
          <h2 className="pay__title">订单提交成功，请尽快付款！</h2>
          <p className="checkout__muted">
            订单号：<span data-testid="pay-order-no">{order.orderNo}</span>　下单时间：
            {chinaTime(order.createTime)}
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
            {ways.map((way) => (
              <button
                key={way.code}
                type="button"
                className={`pay__way ${current === way.code ? 'is-active' : ''}`}
                disabled={!isOpen(way.code) || !payable}
                aria-pressed={current === way.code}
                onClick={() => choose(way.code)}
                data-testid={`payway-${way.code}`}
              >
                {way.code === PAY_WAY.points ? (
                  <WalletOutlined />
                ) : way.code === PAY_WAY.pack ? (
                  <CreditCardOutlined />
                ) : (
                  <WechatOutlined />
                )}
                <span>{way.name}</span>
                {way.code === PAY_WAY.points && (
                  <small data-testid="pay-balance">可用余额 {formatMoney(balance)}</small>
                )}
              </button>
            ))}
          </div>
        )}
        {isWechat && wechat.error && (
          <Alert
            className="pay__alert"
            type="error"
            showIcon
            message={wechat.error}
            data-testid="pay-error"
          />
        )}
        {showCode ? (
          <WechatPayPanel
            code={showCode}
            now={now}
            cashUnit={cashUnit}
            canRefresh={payable}
            isRefreshing={wechat.isRequesting}
            onRefresh={() => requestCode(showCode.pointsAmount)}
            onBack={wechat.hide}
          />
        ) : (
          <>
            {isWechat && order.mixedPay && (
              <PointsPartField
                isOn={usePoints}
                onToggle={setUsePoints}
                pointsFen={pointsFen}
                onChange={setPointsFen}
                maxFen={maxPoints}
                cashUnit={cashUnit}
                error={pointsError}
              />
            )}
            {isWechat && (
              <p className="pay__split" data-testid="pay-split">
                {splitSummary(
                  { pointsAmount: pointsPart, cashAmount: order.payAmount - pointsPart },
                  cashUnit,
                )}
              </p>
            )}
            {short && <p className="checkout__warn">积分余额不足，无法使用积分支付</p>}
            <div className="pay__actions">
              <Button
                type="primary"
                size="large"
                disabled={!current || !payable || short || !!pointsError}
                loading={pointsPayment.isPending || wechat.isRequesting}
                onClick={pay}
                data-testid="pay-submit"
              >
                立即支付{' '}
                {isWechat ? `¥${fenText(order.payAmount - pointsPart)}` : formatMoney(order.payAmount)}
              </Button>
              <Link to={link(`/orderDetail?orderNo=${encodeURIComponent(order.orderNo)}`)}>查看订单详情</Link>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
