import type { SeckillProduct, SeckillSession } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Progress, Result, Skeleton, Tabs } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { loginRouteFor } from '../../site/routing.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { getToken, SESSION_KEYS, session } from '../../site/storage.ts';
import { seckillQuery, useGrab } from './api.ts';
import { clock, PHASE_LABEL, phaseAt, remaining } from './lib/countdown.ts';
import { useServerNow } from './lib/useServerNow.ts';
import './activity.css';

/** What the button of an item says and whether it can be pressed, at the server time `now`. */
function itemState(item: SeckillProduct, now: number): { label: string; open: boolean } {
  const phase = phaseAt(item.timing, now);
  if (phase !== 0) return { label: PHASE_LABEL[phase], open: false };
  if (item.stock <= 0) return { label: '已抢光', open: false };
  if (item.bought >= item.memberLimit) return { label: '已达限购', open: false };
  return { label: '立即抢购', open: true };
}

/** /seckill (限时秒杀): today's sessions as tabs, each with its countdown and products. */
export function FlashSale() {
  const { siteId, site, formatMoney } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const sale = useQuery({ ...seckillQuery(siteId ?? ''), enabled: !!siteId });
  const now = useServerNow(sale.data?.currentTime, sale.dataUpdatedAt);
  const [tab, setTab] = useState<string>();
  const grabbing = useGrab(siteId ?? '');

  if (sale.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (sale.isError) return <Result status="warning" title="秒杀活动加载失败" subTitle={sale.error.message} />;
  const { sessions } = sale.data;
  if (sessions.length === 0) return <Empty className="page-card" description="今日暂无秒杀场次" />;
  const running = sessions.find((s) => phaseAt(s.timing, now) === 0) ?? sessions[0];
  const active = tab ?? String(running?.id);

  const buy = async (item: SeckillProduct) => {
    if (!getToken()) {
      session.set(SESSION_KEYS.loginSuccessBackPath, '/seckill');
      navigate(loginRouteFor(site?.loginWay, siteId));
      return;
    }
    try {
      const order = await grabbing.mutateAsync(item);
      navigate(link(`/selectPayWay?orderNo=${encodeURIComponent(order.orderNo)}`));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '抢购失败');
    }
  };

  const panel = (s: SeckillSession) => {
    const phase = phaseAt(s.timing, now);
    return (
      <div>
        <p className="flash-sale__countdown" data-testid="flash-countdown" aria-live="off">
          {phase === 1
            ? '本场已结束'
            : `${phase === -1 ? '距开始' : '距结束'} ${clock(remaining(s.timing, now))}`}
        </p>
        {s.products.length === 0 ? (
          <Empty description="本场暂无商品" />
        ) : (
          <ul className="flash-sale__grid">
            {s.products.map((p) => {
              const state = itemState(p, now);
              const key = `${p.activityId}-${p.specificationId}`;
              return (
                <li key={key} className="flash-item" data-testid="flash-item">
                  <img src={p.image} alt="" className="flash-item__image" />
                  <h3 className="flash-item__name">{p.name}</h3>
                  <p className="flash-item__price">
                    <strong>{formatMoney(p.price)}</strong> <s>{formatMoney(p.marketPrice)}</s>
                  </p>
                  <Progress
                    percent={Math.round(((p.totalStock - p.stock) / Math.max(p.totalStock, 1)) * 100)}
                    size="small"
                    status="normal"
                    strokeColor="#cf1322"
                    format={() => `剩 ${p.stock} 件`}
                    aria-label={`已抢 ${p.totalStock - p.stock} 件，共 ${p.totalStock} 件`}
                  />
                  <p className="flash-item__limit">每人限购 {p.memberLimit} 件</p>
                  <Button
                    type="primary"
                    block
                    danger={state.open}
                    disabled={!state.open}
                    loading={grabbing.isPending && grabbing.variables === p}
                    onClick={() => void buy(p)}
                    data-testid="flash-buy"
                  >
                    {state.label}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    );
  };

  return (
    <section className="page-card flash-sale" data-testid="flash-sale">
      <h2 className="page-card__title">限时秒杀</h2>
      <Tabs
        activeKey={active}
        onChange={setTab}
        items={sessions.map((s) => ({
          key: String(s.id),
          label: (
            <span className="flash-sale__tab">
              <strong>
                {s.startTime}-{s.endTime}
              </strong>
              <span>
                {s.name} · {PHASE_LABEL[phaseAt(s.timing, now)]}
              </span>
            </span>
          ),
          children: panel(s),
        }))}
      />
    </section>
  );
}
