import { PlusOutlined, UserOutlined } from '@ant-design/icons';
import { GROUP_TEAM_STATUS, type GroupView } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Avatar, Button, Input, Result, Skeleton, Space, Tag } from 'antd';
import { Link } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { useGroupAction } from './GroupBuy.tsx';
import { groupViewQuery } from './groupApi.ts';
import { clock } from './lib/countdown.ts';
import { useServerNow } from './lib/useServerNow.ts';
import './activity.css';

const MEMBER_STATUS: Record<string, string> = { reserved: '待支付', paid: '已支付', refunded: '已退款' };

/** What the team page offers the caller: pay their own order, wait, join, or nothing. */
function Action({
  view,
  now,
  onJoin,
  joining,
}: {
  view: GroupView;
  now: number;
  onJoin: () => void;
  joining: boolean;
}) {
  const link = useSiteLink();
  const { team, mine } = view;
  if (mine?.status === 'reserved')
    return (
      <Link to={link(`/selectPayWay?orderNo=${encodeURIComponent(mine.orderNo)}`)}>
        <Button type="primary" danger size="large" data-testid="group-pay">
          去支付
        </Button>
      </Link>
    );
  if (mine)
    return (
      <Link to={link(`/orderDetail?orderNo=${encodeURIComponent(mine.orderNo)}`)}>
        <Button size="large">查看订单</Button>
      </Link>
    );
  const open =
    team.status === GROUP_TEAM_STATUS.forming && team.joined < team.size && team.expireTimeStamp > now;
  if (!open) return null;
  return (
    <Button type="primary" danger size="large" loading={joining} onClick={onJoin} data-testid="group-join">
      立即参团
    </Button>
  );
}

/** /groupTeam?teamId= (团详情): the team's members and free slots, countdown, share link and action. */
export function GroupTeam({ teamId }: { teamId: number }) {
  const { siteId, formatMoney } = useSite();
  const { message } = App.useApp();
  const view = useQuery({ ...groupViewQuery(siteId ?? '', teamId), enabled: !!siteId });
  const now = useServerNow(view.data?.currentTime, view.dataUpdatedAt);
  const { go, ordering } = useGroupAction(`/groupTeam?teamId=${teamId}`);

  if (view.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (view.isError) return <Result status="warning" title="团信息加载失败" subTitle={view.error.message} />;
  const { activity, team, members } = view.data;
  const shareUrl = `${window.location.origin}${window.location.pathname}?siteId=${siteId}&teamId=${team.teamId}`;
  const forming = team.status === GROUP_TEAM_STATUS.forming;
  const left = team.expireTimeStamp - now;
  const slots = Array.from({ length: team.size }, (_, i) => members[i]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shareUrl);
      void message.success('链接已复制，快去邀请好友参团吧');
    } catch {
      void message.info('请手动复制链接');
    }
  };

  return (
    <section className="page-card group-team" data-testid="group-team-page">
      <div className="group-buy__head">
        <img src={activity.image} alt="" className="group-buy__image group-buy__image--small" />
        <div className="group-buy__info">
          <h2 className="group-buy__name">{activity.productName}</h2>
          <p className="group-buy__price">
            拼团价 <strong>{formatMoney(activity.price)}</strong> <s>{formatMoney(activity.marketPrice)}</s>
          </p>
          <Link to={`/groupBuy?siteId=${siteId}&id=${activity.id}`}>查看活动</Link>
        </div>
      </div>
      <div className="group-team__status">
        <Tag
          color={forming ? 'processing' : team.status === GROUP_TEAM_STATUS.succeeded ? 'success' : 'default'}
        >
          <span data-testid="group-team-status">{team.statusName}</span>
        </Tag>
        {forming && (
          <span>
            还差 <strong data-testid="group-missing">{team.size - team.joined}</strong> 人，剩余{' '}
            <span className="group-countdown" data-testid="group-team-countdown">
              {clock(left)}
            </span>
          </span>
        )}
        {team.status === GROUP_TEAM_STATUS.succeeded && <span>已成团，商家将尽快发货</span>}
        {team.status === GROUP_TEAM_STATUS.failed && <span>未能成团，已付款项将原路退回</span>}
      </div>
      <ul className="group-team__members" aria-label="团成员">
        {slots.map((m, i) => (
          <li
            key={m ? `${m.nickname}-${i}` : `free-${i}`}
            className="group-team__member"
            data-testid="group-member"
          >
            <Avatar
              size={56}
              className={m ? 'group-team__avatar' : 'group-team__avatar--free'}
              icon={m ? <UserOutlined /> : <PlusOutlined />}
            />
            <span>{m ? m.nickname : '待加入'}</span>
            {m?.isLeader && <Tag color="red">团长</Tag>}
            {m && m.status !== 'paid' && <small>{MEMBER_STATUS[m.status]}</small>}
          </li>
        ))}
      </ul>
      <Space direction="vertical" size="middle" className="group-team__actions">
        <Action
          view={view.data}
          now={now}
          joining={ordering.isPending}
          onJoin={() => void go({ teamId: team.teamId })}
        />
        {forming && (
          <Space.Compact className="group-team__share">
            <Input readOnly value={shareUrl} aria-label="分享链接" data-testid="group-share" />
            <Button onClick={() => void copy()}>复制链接</Button>
          </Space.Compact>
        )}
      </Space>
    </section>
  );
}
