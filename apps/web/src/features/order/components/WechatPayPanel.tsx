import { ClockCircleOutlined, WechatOutlined } from '@ant-design/icons';
import type { WechatCode } from '@sitemall/contract';
import { Button, QRCode, Spin, Typography } from 'antd';
import { timeLeft } from '../lib/countdown.ts';
import { codeProblem, fenText } from '../lib/wechat.ts';
import '../order.css';

/**
 * A WeChat Native code to scan: the QR code of codeUrl drawn in the browser (no network), the
 * amounts, a countdown to the code's expiry, and a refresh when it can no longer be paid.
 */
export function WechatPayPanel({
  code,
  now,
  cashUnit,
  canRefresh,
  isRefreshing,
  onRefresh,
  onBack,
}: {
  code: WechatCode;
  now: number;
  cashUnit: string;
  /** The order can still be paid (a new code helps). */
  canRefresh: boolean;
  isRefreshing: boolean;
  onRefresh: () => void;
  onBack: () => void;
}) {
  const problem = codeProblem(code, now);
  const left = timeLeft(Date.parse(code.expireTime), now);
  const refresh = problem?.canRefresh && canRefresh ? onRefresh : undefined;
  return (
    <div className="wechat-pay" data-testid="wechat-panel" data-state={problem ? 'unusable' : code.state}>
      <div className="wechat-pay__code" data-testid="wechat-qr">
        <QRCode
          value={code.codeUrl}
          size={200}
          bordered={false}
          status={isRefreshing ? 'loading' : problem ? 'expired' : 'active'}
          onRefresh={refresh}
          statusRender={(info) =>
            // The overlay says what happened to this code (failed, expired, order ended), not
            // antd's generic 二维码过期, and offers a new code only where one can be paid.
            info.status === 'expired' && problem ? (
              <div className="wechat-pay__overlay" data-testid="wechat-overlay">
                <p>{problem.title}</p>
                {refresh && (
                  <Button type="primary" size="small" onClick={refresh} data-testid="wechat-new-code">
                    获取新二维码
                  </Button>
                )}
              </div>
            ) : (
              <Spin />
            )
          }
        />
      </div>
      <div className="wechat-pay__text">
        <p className="wechat-pay__cash">
          <WechatOutlined /> 微信支付 <strong data-testid="wechat-cash">¥{fenText(code.cashAmount)}</strong>
        </p>
        {code.pointsAmount > 0 && (
          <p data-testid="wechat-points">
            积分抵扣 {fenText(code.pointsAmount)} {cashUnit}
          </p>
        )}
        {problem ? (
          <p className="checkout__warn" data-testid="wechat-problem">
            {problem.text}
          </p>
        ) : (
          <>
            {left && (
              <p className="pay__countdown" data-testid="wechat-countdown">
                <ClockCircleOutlined /> 二维码 <b>{left.text}</b> 后失效
              </p>
            )}
            <p className="wechat-pay__hint">请使用微信扫一扫扫描二维码支付</p>
          </>
        )}
        {code.scanUrl && !problem && (
          <p>
            <Typography.Link
              href={code.scanUrl}
              target="_blank"
              rel="noopener"
              data-testid="wechat-scan-link"
            >
              在模拟器中扫码支付（演示）
            </Typography.Link>
          </p>
        )}
        <Button type="link" className="wechat-pay__back" onClick={onBack} data-testid="wechat-back">
          选择其他支付方式
        </Button>
      </div>
    </div>
  );
}
