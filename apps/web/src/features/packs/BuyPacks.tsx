import { PAY_WAY, type PackOrder, type VirtualCode, formatMoney as yuanOf } from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Descriptions, Empty, Modal, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { keys } from '../../api/keys.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { packProductsQuery, packVirtualCode, submitWechatPack, useBuyPack } from './api.ts';
import { WechatPackPay } from './WechatPackPay.tsx';

/** A WeChat purchase in progress: its order (with the code to scan) and its request id. */
interface WechatPurchase {
  order: PackOrder;
  packId: number;
  asGift: boolean;
  requestId: string;
}

/**
 * 购买礼品卡 on /myCards: the site's pack products, bought with points (ye) or by WeChat
 * (wx_pc: the QR code in a dialog, the card issued when WeChat reports the payment), as the
 * site's paywayConf allows.
 */
export function BuyPacks() {
  const { siteId, site, formatMoney } = useSite();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const products = useQuery({ ...packProductsQuery(siteId ?? ''), enabled: !!siteId });
  const buying = useBuyPack(siteId ?? '');
  const [asGift, setAsGift] = useState(false);
  const [gift, setGift] = useState<{ order: PackOrder; code: VirtualCode } | null>(null);
  const [wechat, setWechat] = useState<WechatPurchase | null>(null);
  const [starting, setStarting] = useState<number | null>(null);
  const payways = site?.paywayConf ?? [];
  const byPoints = payways.includes(PAY_WAY.points);
  const byWechat = payways.includes(PAY_WAY.wechatPc);

  /** Asks for the order's code: a new purchase, or the same request again for a new code. */
  const startWechat = async (input: Omit<WechatPurchase, 'order'>) => {
    setStarting(input.packId);
    try {
      const order = await submitWechatPack(siteId ?? '', input);
      setWechat({ ...input, order });
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '微信支付下单失败');
    } finally {
      setStarting(null);
    }
  };

  const wechatPaid = async (order: PackOrder) => {
    setWechat(null);
    void queryClient.invalidateQueries({ queryKey: keys.packs.all(siteId ?? '') });
    if (!order.asGift) {
      void message.success(`支付成功：${order.name} 已放入我的卡包`);
      return;
    }
    try {
      setGift({ order, code: await packVirtualCode(siteId ?? '', order.orderNo) });
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '卡号读取失败');
    }
  };

  const buy = (packId: number, name: string, price: number) =>
    modal.confirm({
      title: `购买${name}`,
      content: `将使用 ${formatMoney(price)}购买${asGift ? '，卡号与密码可赠送他人' : '，购买后自动放入我的卡包'}。`,
      okText: '确认购买',
      cancelText: '取消',
      onOk: async () => {
        try {
          const { order, code } = await buying.mutateAsync({ packId, asGift });
          if (code) setGift({ order, code });
          else void message.success(`购买成功：${order.name} 已放入我的卡包`);
        } catch (error) {
          void message.error(error instanceof Error ? error.message : '购买失败');
        }
      },
    });

  return (
    <section className="page-card" data-testid="buy-packs">
      <h2 className="page-card__title">购买礼品卡</h2>
      {products.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : products.isError ? (
        <Empty description={products.error.message} />
      ) : products.data.list.length === 0 ? (
        <Empty description="本站暂无可购买的礼品卡" />
      ) : (
        <>
          <div className="packs__shelf">
            {products.data.list.map((p) => (
              <div className="packs__product" key={p.id} data-testid="pack-product">
                <div className="packs__face">{formatMoney(p.faceValue)}</div>
                <div className="packs__name">{p.name}</div>
                <div className="packs__meta">
                  售价 {byPoints || !byWechat ? formatMoney(p.salePrice) : ''}
                  {byWechat && p.salePrice > 0 ? `${byPoints ? ' 或 ' : ''}¥${yuanOf(p.salePrice)}` : ''} ·
                  有效期 {p.validityDays} 天
                </div>
                <Space.Compact block>
                  {byPoints && (
                    <Button
                      type="primary"
                      block
                      loading={buying.isPending && buying.variables?.packId === p.id}
                      onClick={() => buy(p.id, p.name, p.salePrice)}
                      data-testid="pack-buy"
                    >
                      积分购买
                    </Button>
                  )}
                  {byWechat && p.salePrice > 0 && (
                    <Button
                      block
                      className="packs__wechat"
                      loading={starting === p.id}
                      onClick={() =>
                        startWechat({ packId: p.id, asGift, requestId: `pack-${crypto.randomUUID()}` })
                      }
                      data-testid="pack-buy-wechat"
                    >
                      微信支付
                    </Button>
                  )}
                </Space.Compact>
              </div>
            ))}
          </div>
          <Checkbox checked={asGift} onChange={(e) => setAsGift(e.target.checked)} data-testid="pack-gift">
            作为礼品赠送（不放入我的卡包，购买后显示卡号与密码）
          </Checkbox>
        </>
      )}
      {wechat && (
        <WechatPackPay
          order={wechat.order}
          isRefreshing={starting !== null}
          onRefresh={() =>
            startWechat({ packId: wechat.packId, asGift: wechat.asGift, requestId: wechat.requestId })
          }
          onPaid={wechatPaid}
          onClose={() => setWechat(null)}
        />
      )}
      <Modal
        open={gift !== null}
        title="购买成功：请妥善保管卡号与密码"
        onCancel={() => setGift(null)}
        footer={
          <Button type="primary" onClick={() => setGift(null)}>
            我已记下
          </Button>
        }
      >
        {gift && (
          <Descriptions column={1} size="small" bordered data-testid="pack-gift-code">
            <Descriptions.Item label="礼品卡">{gift.order.name}</Descriptions.Item>
            <Descriptions.Item label="卡号">
              <Typography.Text copyable strong>
                {gift.code.code}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="密码">
              <Typography.Text copyable strong>
                {gift.code.pin ?? '—'}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="订单号">{gift.order.orderNo}</Descriptions.Item>
          </Descriptions>
        )}
        <p className="packs__sum">请立即记下或复制卡号与密码，赠送他人后对方在“我的卡包”绑定即可使用。</p>
      </Modal>
    </section>
  );
}
