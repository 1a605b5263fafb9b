import { BARGAIN_STATUS, type BargainActivityCard, type BargainView, chinaTime } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Input, List, Progress, Result, Skeleton, Space, Tag } from 'antd';
import { useHref, useNavigate } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import {
  bargainListQuery,
  bargainQuery,
  useBuyBargain,
  useHelpBargain,
  useStartBargain,
} from './bargain-api.ts';
import { clock, phaseAt, remaining } from './lib/countdown.ts';
import { useServerNow } from './lib/useServerNow.ts';
import './activity.css';

const errorText = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback);

const DAY_MS = 86_400_000;
/** An activity's countdown within a day of its start or end; farther away, its date. */
function windowText(timing: BargainActivityCard['timing'], now: number): string {
  const phase = phaseAt(timing, now);
  const left = remaining(timing, now);
  if (left > DAY_MS)
    return `${phase === -1 ? '开始于' : '活动截至'} ${chinaTime(phase === -1 ? timing.startTimeStamp : timing.endTimeStamp, 'YYYY-MM-DD')}`;
  return `${phase === -1 ? '距开始' : '距结束'} ${clock(left)}`;
}

const STATUS_COLOR: Record<number, string> = { 1: 'processing', 2: 'success', 3: 'default', 4: 'gold' };

/** /bargain (砍价): the site's bargain activities; start one, or open the one already started. */
export function BargainList() {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const list = useQuery({ ...bargainListQuery(siteId ?? ''), enabled: !!siteId });
  const now = useServerNow(list.data?.[0]?.timing.currentTime, list.dataUpdatedAt);
  const starting = useStartBargain(siteId ?? '');

  if (list.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (list.isError) return <Result status="warning" title="砍价活动加载失败" subTitle={list.error.message} />;
  if (list.data.length === 0) return <Empty className="page-card" description="暂无砍价活动" />;

  const open = (id: number) => navigate(link(`/bargain?id=${id}`));
  const start = async (card: BargainActivityCard) => {
    if (card.mine) return open(card.mine);
    try {
      open((await starting.mutateAsync(card.id)).id);
    } catch (error) {
      void message.error(errorText(error, '发起砍价失败'));
    }
  };

  return (
    <section className="page-card bargain" data-testid="bargain-list">
      <h2 className="page-card__title">好友砍价</h2>
      <ul className="flash-sale__grid">
        {list.data.map((card) => {
          const phase = phaseAt(card.timing, now);
          return (
            <li
              key={card.id}
              id={`bargain-activity-${card.id}`}
              className="flash-item"
              data-testid="bargain-card"
            >
              <img src={card.image} alt="" className="flash-item__image" />
              <h3 className="flash-item__name">{card.productName}</h3>
              <p className="flash-item__price">
                <span>最低砍至 </span>
                <strong>{formatMoney(card.floorPrice)}</strong> <s>{formatMoney(card.price)}</s>
              </p>
              <p className="flash-item__limit">
                {card.helpMax} 位好友助力即成功 · {card.hours} 小时内有效
              </p>
              <p className="flash-item__limit">{windowText(card.timing, now)}</p>
              <Button
                type="primary"
                block
                danger={!card.mine}
                disabled={phase !== 0 && !card.mine}
                loading={starting.isPending && starting.variables === card.id}
                onClick={() => void start(card)}
                data-testid="bargain-start"
              >
                {card.mine ? '查看我的砍价' : phase === -1 ? '即将开始' : '发起砍价'}
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** How far the bargain went from its start price to the floor, in percent. */
const progressOf = (b: BargainView) =>
  b.startPrice === b.floorPrice
    ? 100
    : Math.round(((b.startPrice - b.price) / (b.startPrice - b.floorPrice)) * 100);

/**
 * A bargain (/bargain?id= for its owner, /bargainHelp?id= the shared link): price, progress,
 * countdown to its deadline, the helpers and their cuts; the owner shares and buys, another
 * member helps once.
 */
export function BargainDetail({ id }: { id: number }) {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const bargain = useQuery({ ...bargainQuery(siteId ?? '', id), enabled: !!siteId });
  const now = useServerNow(bargain.data?.timing.currentTime, bargain.dataUpdatedAt);
  const helping = useHelpBargain(siteId ?? '');
  const buying = useBuyBargain(siteId ?? '');
  // The shared link opens the help page of this bargain (with the router's base path).
  const shareHref = useHref(link(`/bargainHelp?id=${id}`));

  if (bargain.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (bargain.isError)
    return <Result status="warning" title="砍价加载失败" subTitle={bargain.error.message} />;
  const b = bargain.data;
  const left = remaining(b.timing, now);
  const live = b.status === BARGAIN_STATUS.inProgress || b.status === BARGAIN_STATUS.success;
  const status = live && left <= 0 ? BARGAIN_STATUS.failed : b.status;
  const shareUrl = new URL(shareHref, window.location.href).href;

  const help = async () => {
    try {
      const { cut } = await helping.mutateAsync(b.id);
      void message.success(`帮砍成功，砍掉 ${formatMoney(cut)}`);
    } catch (error) {
      void message.error(errorText(error, '帮砍失败'));
    }
  };
  const buy = async () => {
    try {
      const order = await buying.mutateAsync(b);
      navigate(link(`/selectPayWay?orderNo=${encodeURIComponent(order.orderNo)}`));
    } catch (error) {
      void message.error(errorText(error, '下单失败'));
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shareUrl);
      void message.success('链接已复制，发给好友帮你砍一刀');
    } catch {
      void message.info('请手动复制链接');
    }
  };

  return (
    <section className="page-card bargain-detail" data-testid="bargain-detail">
      <h2 className="page-card__title">
        {b.mine ? '我的砍价' : `${b.ownerName} 邀请你帮砍`}{' '}
        <Tag color={STATUS_COLOR[status]} data-testid="bargain-status">
          {status === b.status ? b.statusName : '砍价失败'}
        </Tag>
      </h2>
      <div className="bargain-detail__main">
        <img src={b.image} alt="" className="bargain-detail__image" />
        <div className="bargain-detail__info">
          <h3 className="bargain-detail__name">{b.productName}</h3>
          <p className="bargain-detail__price">
            当前价 <strong data-testid="bargain-price">{formatMoney(b.price)}</strong>
            <span>
              原价 <s>{formatMoney(b.startPrice)}</s> · 底价 {formatMoney(b.floorPrice)}
            </span>
          </p>
          <Progress
            percent={progressOf(b)}
            strokeColor="#cf1322"
            format={() => `已砍 ${formatMoney(b.startPrice - b.price)}`}
            aria-label={`已砍 ${formatMoney(b.startPrice - b.price)}`}
          />
          <p className="bargain-detail__meta" data-testid="bargain-helped">
            已有 {b.helpCount} 位好友助力，{b.helpMax} 位即成功
          </p>
          {live && (
            <p className="flash-sale__countdown" data-testid="bargain-countdown" aria-live="off">
              {left > 0 ? `剩余 ${clock(left)}` : '已过期'}
            </p>
          )}
          {b.mine ? (
            <Space direction="vertical" className="bargain-detail__actions">
              {status === BARGAIN_STATUS.inProgress && (
                <Space.Compact block>
                  <Input readOnly value={shareUrl} aria-label="分享链接" data-testid="bargain-share-url" />
                  <Button onClick={() => void copy()}>复制链接</Button>
                </Space.Compact>
              )}
              <Button
                type="primary"
                danger
                size="large"
                disabled={status !== BARGAIN_STATUS.success}
                loading={buying.isPending}
                onClick={() => void buy()}
                data-testid="bargain-buy"
              >
                {status === BARGAIN_STATUS.ordered ? '已下单' : `${formatMoney(b.price)} 立即购买`}
              </Button>
              {status === BARGAIN_STATUS.inProgress && (
                <span className="bargain-detail__meta">砍价成功后即可按砍后价购买</span>
              )}
            </Space>
          ) : (
            <Space className="bargain-detail__actions">
              <Button
                type="primary"
                danger
                size="large"
                disabled={b.helped || status !== BARGAIN_STATUS.inProgress}
                loading={helping.isPending}
                onClick={() => void help()}
                data-testid="bargain-help"
              >
                {b.helped ? '已帮砍' : status === BARGAIN_STATUS.inProgress ? '帮 TA 砍一刀' : b.statusName}
              </Button>
              <Button onClick={() => navigate(link('/bargain'))}>我也要砍价</Button>
            </Space>
          )}
        </div>
      </div>
      <h3 className="bargain-detail__subtitle">好友助力</h3>
      <List
        data-testid="bargain-helpers"
        dataSource={b.helpers}
        locale={{ emptyText: b.mine ? '还没有好友帮砍，快去分享吧' : '还没有好友帮砍，来砍第一刀吧' }}
        renderItem={(h) => (
          <List.Item>
            <span>{h.name}</span>
            <span>砍掉 {formatMoney(h.cut)}</span>
            <span className="bargain-detail__meta">{chinaTime(h.createTime)}</span>
          </List.Item>
        )}
      />
    </section>
  );
}
