import type { GroupActivity, GroupTeam } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Result, Skeleton, Tag } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { loginRouteFor } from '../../site/routing.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { getToken, SESSION_KEYS, session } from '../../site/storage.ts';
import { groupDetailQuery, useGroupOrder } from './groupApi.ts';
import { clock, dayClock, phaseAt, remaining } from './lib/countdown.ts';
import { useServerNow } from './lib/useServerNow.ts';
import './activity.css';

/** Sends a visitor to the site's login, coming back to `back` afterwards; false when logged in. */
export function useLoginFirst() {
  const { site, siteId } = useSite();
  const navigate = useNavigate();
  return (back: string) => {
    if (getToken()) return false;
    session.set(SESSION_KEYS.loginSuccessBackPath, back);
    navigate(loginRouteFor(site?.loginWay, siteId));
    return true;
  };
}

/** Opens or joins a team, then shows the team page (its share link and the way to pay). */
export function useGroupAction(back: string) {
  const { siteId } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const loginFirst = useLoginFirst();
  const ordering = useGroupOrder(siteId ?? '');
  const go = async (target: { activityId: number } | { teamId: number }) => {
    if (loginFirst(back)) return;
    try {
      const result = await ordering.mutateAsync(target);
      navigate(link(`/groupTeam?teamId=${result.teamId}`));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '提交失败');
    }
  };
  return { go, ordering };
}

function ActivityCard({ activity }: { activity: GroupActivity }) {
  const { formatMoney } = useSite();
  const link = useSiteLink();
  return (
    <li className="flash-item" data-testid="group-activity">
      <img src={activity.image} alt="" className="flash-item__image" />
      <h3 className="flash-item__name">{activity.productName}</h3>
      <p className="flash-item__price">
        <strong>{formatMoney(activity.price)}</strong> <s>{formatMoney(activity.marketPrice)}</s>
      </p>
      <p className="flash-item__limit">
        {activity.teamSize} 人团 · {activity.teamHours} 小时内成团
      </p>
      <Link to={link(`/groupBuy?id=${activity.id}`)}>
        <Button type="primary" danger block>
          去拼团
        </Button>
      </Link>
    </li>
  );
}

function TeamRow({
  team,
  now,
  onJoin,
  busy,
}: {
  team: GroupTeam;
  now: number;
  onJoin: () => void;
  busy: boolean;
}) {
  const link = useSiteLink();
  const left = team.expireTimeStamp - now;
  return (
    <li className="group-team-row" data-testid="group-team">
      <span className="group-team-row__leader">
        <Tag color="red">团长</Tag>
        {team.leader}
      </span>
      <span>
        还差 <strong>{team.size - team.joined}</strong> 人成团
      </span>
      <span className="group-countdown">剩余 {clock(left)}</span>
      <Link to={link(`/groupTeam?teamId=${team.teamId}`)}>查看</Link>
      <Button type="primary" danger onClick={onJoin} loading={busy} disabled={left <= 0}>
        去参团
      </Button>
    </li>
  );
}

/**
 * /groupBuy (拼团): without an id, the site's group buys; with one, the activity with its price,
 * team size and countdown, a button to open a team and the teams still forming to join.
 */
export function GroupBuy({ id }: { id?: number }) {
  const { siteId, formatMoney } = useSite();
  const detail = useQuery({ ...groupDetailQuery(siteId ?? '', id), enabled: !!siteId });
  const now = useServerNow(detail.data?.currentTime, detail.dataUpdatedAt);
  const back = id === undefined ? '/groupBuy' : `/groupBuy?id=${id}`;
  const { go, ordering } = useGroupAction(back);

  if (detail.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (detail.isError)
    return <Result status="warning" title="拼团活动加载失败" subTitle={detail.error.message} />;
  const { activities, teams } = detail.data;

  if (id === undefined)
    return (
      <section className="page-card" data-testid="group-buy">
        <h2 className="page-card__title">拼团</h2>
        {activities.length === 0 ? (
          <Empty description="暂无拼团活动" />
        ) : (
          <ul className="flash-sale__grid">
            {activities.map((a) => (
              <ActivityCard key={a.id} activity={a} />
            ))}
          </ul>
        )}
      </section>
    );

  const activity = activities[0];
  if (!activity) return <Empty className="page-card" description="该拼团活动已下架" />;
  const phase = phaseAt(activity.timing, now);
  const busy = (target: object) =>
    ordering.isPending && JSON.stringify(ordering.variables) === JSON.stringify(target);
  return (
    <section className="page-card group-buy" data-testid="group-buy">
      <div className="group-buy__head">
        <img src={activity.image} alt="" className="group-buy__image" />
        <div className="group-buy__info">
          <Tag color="red">{activity.teamSize} 人团</Tag>
          <h2 className="group-buy__name">{activity.productName}</h2>
          <p className="group-buy__price">
            拼团价 <strong>{formatMoney(activity.price)}</strong> <s>{formatMoney(activity.marketPrice)}</s>
          </p>
          <ul className="group-buy__rules">
            <li>
              开团后 {activity.teamHours} 小时内凑满 {activity.teamSize} 人即拼团成功，成团后发货
            </li>
            <li>未成团自动退款（原路退回）</li>
            <li>每人限购 {activity.memberLimit} 件</li>
          </ul>
          <p className="group-countdown" data-testid="group-activity-countdown">
            {phase === 1
              ? '活动已结束'
              : `${phase === -1 ? '距开始' : '距结束'} ${dayClock(remaining(activity.timing, now))}`}
          </p>
          <Button
            type="primary"
            danger
            size="large"
            disabled={phase !== 0}
            loading={busy({ activityId: activity.id })}
            onClick={() => void go({ activityId: activity.id })}
            data-testid="group-open"
          >
            {phase === 0 ? `发起拼团 ${formatMoney(activity.price)}` : phase === -1 ? '即将开始' : '已结束'}
          </Button>
        </div>
      </div>
      <h3 className="group-buy__subtitle">可参加的团</h3>
      {teams.length === 0 ? (
        <Empty description="暂无正在拼的团，快来发起拼团吧" />
      ) : (
        <ul className="group-team-list">
          {teams.map((team) => (
            <TeamRow
              key={team.teamId}
              team={team}
              now={now}
              busy={busy({ teamId: team.teamId })}
              onJoin={() => void go({ teamId: team.teamId })}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
