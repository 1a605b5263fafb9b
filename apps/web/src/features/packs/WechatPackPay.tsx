import { PACK_ORDER_STATUS, type PackOrder } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Modal } from 'antd';
import { useEffect, useRef } from 'react';
import { useSite } from '../../site/SiteProvider.tsx';
import { WechatPayPanel } from '../order/components/WechatPayPanel.tsx';
import { useNow } from '../order/hooks.ts';
import { packOrderQuery } from './api.ts';

/**
 * The WeChat code of a pack bought with wx_pc, in a dialog: the mall's QR panel, the order
 * asked every 2 s until it is paid (then onPaid, once) or closed. A failed code is replaced by
 * submitting the same request again (onRefresh).
 */
export function WechatPackPay({
  order,
  isRefreshing,
  onRefresh,
  onPaid,
  onClose,
}: {
  order: PackOrder;
  isRefreshing: boolean;
  onRefresh: () => void;
  onPaid: (order: PackOrder) => void;
  onClose: () => void;
}) {
  const { siteId, site } = useSite();
  const now = useNow();
  const poll = useQuery({ ...packOrderQuery(siteId ?? '', order.orderNo), enabled: !!siteId });
  const latest = poll.data ?? order;
  // The poll carries the latest state of the code shown (paid, closed, failed…); a new code
  // (after a failed one) comes with the resubmitted order.
  const code =
    poll.data?.wechat?.outTradeNo === order.wechat?.outTradeNo
      ? poll.data?.wechat
      : (order.wechat ?? poll.data?.wechat);
  const paidOnce = useRef(false);
  const isPaid = latest.status === PACK_ORDER_STATUS.paid;
  // biome-ignore lint/correctness/useExhaustiveDependencies: react to the paid state only
  useEffect(() => {
    if (!isPaid || paidOnce.current) return;
    paidOnce.current = true;
    onPaid(latest);
  }, [isPaid]);

  const payable =
    latest.status === PACK_ORDER_STATUS.unpaid && !!latest.expireTime && Date.parse(latest.expireTime) > now;
  return (
    <Modal
      open
      title={`微信支付：${order.name}`}
      footer={null}
      onCancel={onClose}
      width={560}
      destroyOnHidden
    >
      {latest.status === PACK_ORDER_STATUS.closed && (
        <Alert type="warning" showIcon message="订单已超时关闭，请重新购买" data-testid="pack-wx-closed" />
      )}
      {code && (
        <WechatPayPanel
          code={code}
          now={now}
          cashUnit={site?.cashUnit ?? ''}
          canRefresh={payable}
          isRefreshing={isRefreshing}
          onRefresh={onRefresh}
          onBack={onClose}
        />
      )}
      <p className="packs__sum" data-testid="pack-wx-order">
        订单号 {order.orderNo} · 支付成功后自动发卡
      </p>
    </Modal>
  );
}
