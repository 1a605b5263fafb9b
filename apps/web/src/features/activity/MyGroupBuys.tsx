import { GROUP_TEAM_STATUS, type MyGroup } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Pagination, Result, Skeleton, Tag } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { myGroupsQuery } from './groupApi.ts';
import './activity.css';

const STATUS_COLOR: Record<number, string> = {
  [GROUP_TEAM_STATUS.forming]: 'processing',
  [GROUP_TEAM_STATUS.succeeded]: 'success',
  [GROUP_TEAM_STATUS.failed]: 'default',
};
const MINE: Record<string, string> = { reserved: '待支付', paid: '已支付', refunded: '已退款' };

function Row({ item }: { item: MyGroup }) {
  const { formatMoney } = useSite();
  const link = useSiteLink();
  return (
    <li className="my-group" data-testid="my-group">
      <img src={item.image} alt="" className="my-group__image" />
      <div className="my-group__body">
        <h3 className="my-group__name">{item.productName}</h3>
        <p className="my-group__meta">
          {item.activityName} · {formatMoney(item.price)} × {item.num} ·{' '}
          {item.isLeader ? '我是团长' : '我参的团'}
        </p>
        <p className="my-group__meta">
          <Tag color={STATUS_COLOR[item.team.status]}>{item.team.statusName}</Tag>
          已参团 {item.team.joined}/{item.team.size} 人 · {MINE[item.memberStatus] ?? item.memberStatus}
        </p>
      </div>
      <div className="my-group__actions">
        <Link to={link(`/groupTeam?teamId=${item.team.teamId}`)}>
          <Button type="primary" ghost>
            查看团
          </Button>
        </Link>
        <Link to={link(`/orderDetail?orderNo=${encodeURIComponent(item.orderNo)}`)}>订单详情</Link>
      </div>
    </li>
  );
}

/** /myGroupBuy (我的拼团): the member's teams, newest first, 10 a page. */
export function MyGroupBuys() {
  const { siteId } = useSite();
  const link = useSiteLink();
  const [params, setParams] = useSearchParams();
  const pageNum = Math.max(1, Number(params.get('pageNum')) || 1);
  const page = useQuery({ ...myGroupsQuery(siteId ?? '', pageNum), enabled: !!siteId });

  let body: React.ReactNode;
  if (page.isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (page.isError)
    body = <Result status="warning" title="我的拼团加载失败" subTitle={page.error.message} />;
  else if (page.data.list.length === 0)
    body = (
      <Empty description="还没有参加过拼团">
        <Link to={link('/groupBuy')}>
          <Button type="primary">去看看拼团</Button>
        </Link>
      </Empty>
    );
  else
    body = (
      <>
        <ul className="my-group-list">
          {page.data.list.map((item) => (
            <Row key={item.orderNo} item={item} />
          ))}
        </ul>
        <Pagination
          current={pageNum}
          pageSize={page.data.pageSize}
          total={page.data.total}
          hideOnSinglePage
          onChange={(n) => setParams({ ...Object.fromEntries(params), pageNum: String(n) })}
        />
      </>
    );

  return (
    <section className="page-card" data-testid="my-group-buys">
      <h2 className="page-card__title">我的拼团</h2>
      {body}
    </section>
  );
}
