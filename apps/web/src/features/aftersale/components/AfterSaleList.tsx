import { chinaTime } from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Empty, Pagination, Skeleton, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSiteLink } from '../../../site/links.ts';
import { useSite } from '../../../site/SiteProvider.tsx';
import { caseListQuery } from '../api.ts';
import '../aftersale.css';

const TABS = [
  { key: 'all', label: '全部', isOpen: undefined },
  { key: 'open', label: '处理中', isOpen: true },
  { key: 'closed', label: '已结束', isOpen: false },
] as const;

/** /afterSaleList: the member's after-sales cases, newest first, 10 a page. */
export function AfterSaleList() {
  const { siteId } = useSite();
  const link = useSiteLink();
  const [tab, setTab] = useState<(typeof TABS)[number]['key']>('all');
  const [pageNum, setPageNum] = useState(1);
  const isOpen = TABS.find((t) => t.key === tab)?.isOpen;
  const list = useQuery(caseListQuery(siteId ?? '', isOpen, pageNum));
  return (
    <section className="page-card" data-testid="aftersale-list">
      <h2 className="page-card__title">我的售后</h2>
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setTab(key as typeof tab);
          setPageNum(1);
        }}
        items={TABS.map((t) => ({ key: t.key, label: t.label }))}
      />
      {!list.data ? (
        <Skeleton active />
      ) : list.data.list.length === 0 ? (
        <Empty description="暂无售后记录" />
      ) : (
        list.data.list.map((c) => (
          <div className="aftersale-list__item" key={c.afterSaleNo} data-testid="aftersale-item">
            <span className="aftersale-entry__name">
              {c.name}
              <small>
                {c.kindName} · {c.qty} 件 · 售后单号 {c.afterSaleNo}
              </small>
            </span>
            <span className="checkout__muted">{chinaTime(c.createTime)}</span>
            <Tag color={c.isOpen ? 'processing' : 'default'}>{c.statusName}</Tag>
            <Link to={link(`/afterSaleDetail?afterSaleNo=${c.afterSaleNo}`)}>查看详情</Link>
          </div>
        ))
      )}
      {(list.data?.total ?? 0) > 10 && (
        <Pagination current={pageNum} total={list.data?.total} pageSize={10} onChange={setPageNum} />
      )}
    </section>
  );
}
