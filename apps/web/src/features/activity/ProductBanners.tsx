import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { activityTimeQuery } from './api.ts';
import { groupDetailQuery } from './groupApi.ts';
import { clock, phaseAt, remaining } from './lib/countdown.ts';
import { useServerNow } from './lib/useServerNow.ts';
import './activity.css';

// The product page's banners of an activity on the product: a module of their own, so the page
// does not load the flash-sale and group-buy pages' own components (antd's Tabs, Progress,
// Result) with them.

/** One banner: the activity's tag, its price, a line about its time and a link to it. */
function ActivityBanner(props: {
  testId: string;
  tag: ReactNode;
  price: string;
  note: ReactNode;
  to: string;
  action: string;
}) {
  return (
    <div className="product-flash" data-testid={props.testId}>
      <span className="product-flash__tag">{props.tag}</span>
      <strong>{props.price}</strong>
      <span>{props.note}</span>
      <Link to={props.to} className="product-flash__link">
        {props.action} ›
      </Link>
    </div>
  );
}

/** The product's flash sale, its price and countdown. */
export function ProductFlashSale({ productId }: { productId: number }) {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const sale = useQuery({ ...activityTimeQuery(siteId ?? '', productId), enabled: !!siteId });
  const item = sale.data ?? null;
  const now = useServerNow(item?.timing.currentTime, sale.dataUpdatedAt);
  if (!item) return null;
  const phase = phaseAt(item.timing, now);
  if (phase === 1) return null;
  return (
    <ActivityBanner
      testId="product-flash"
      tag="限时秒杀"
      price={formatMoney(item.price)}
      note={`${phase === -1 ? '距开始' : '距结束'} ${clock(remaining(item.timing, now))}`}
      to={link('/seckill')}
      action="去抢购"
    />
  );
}

/** The product's running group buy, its price and a way to it. */
export function ProductGroupBuy({ productId }: { productId: number }) {
  const { siteId, formatMoney } = useSite();
  const link = useSiteLink();
  const detail = useQuery({ ...groupDetailQuery(siteId ?? ''), enabled: !!siteId });
  const now = useServerNow(detail.data?.currentTime, detail.dataUpdatedAt);
  const activity = detail.data?.activities.find(
    (a) => a.productId === productId && phaseAt(a.timing, now) === 0,
  );
  if (!activity) return null;
  return (
    <ActivityBanner
      testId="product-group"
      tag={`${activity.teamSize} 人拼团`}
      price={formatMoney(activity.price)}
      note={`${activity.teamHours} 小时内成团`}
      to={link(`/groupBuy?id=${activity.id}`)}
      action="去拼团"
    />
  );
}
