import { type ActionType, ProTable } from '@ant-design/pro-components';
import {
  type AdminBenefit,
  type AdminLottery,
  adminActivityApi,
  LOTTERY_AUDIENCE_LABEL,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Progress, Select, Space, Tabs, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { useSession, useSitesWith } from '../../session';
import { BenefitForm } from './BenefitForm';
import { GiftRecords } from './GiftRecords';
import { InvitedUsers } from './InvitedUsers';
import { TimingTag } from './shared';

const audienceLabel = (a: AdminLottery) =>
  LOTTERY_AUDIENCE_LABEL[a.audience as keyof typeof LOTTERY_AUDIENCE_LABEL] ?? a.audience;

/** Pages of activities a picker loads at most (a site runs a few at a time). */
const MAX_PAGES = 20;

/** The site's lotteries for the pickers: every page (up to MAX_PAGES), newest end first. */
async function allLotteries(siteId: number): Promise<AdminLottery[]> {
  const first = await call(adminActivityApi.lotteries, { siteId });
  const pages = Math.min(Math.ceil(first.total / first.pageSize), MAX_PAGES);
  const rest = await Promise.all(
    Array.from({ length: Math.max(pages - 1, 0) }, (_, i) =>
      call(adminActivityApi.lotteries, { siteId, pageNum: i + 2 }),
    ),
  );
  return [first, ...rest].flatMap((page) => page.list);
}

/** Invited users of the activity picked here (an invited-only one first). */
function InvitedTab({ lotteries }: { lotteries: AdminLottery[] }) {
  const [picked, setPicked] = useState<number>();
  const first = lotteries.find((l) => l.audience === 'invited') ?? lotteries[0];
  const activity = lotteries.find((l) => l.id === picked) ?? first;
  if (!activity) return <Empty description="本站点还没有活动" />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <span>活动</span>
        <Select
          aria-label="选择活动"
          style={{ width: 360 }}
          value={activity.id}
          onChange={setPicked}
          options={lotteries.map((l) => ({
            value: l.id,
            label: `${l.name}（${l.code}，${audienceLabel(l)}）`,
          }))}
        />
      </Space>
      <InvitedUsers key={activity.id} activity={activity} />
    </Space>
  );
}

/** The site's benefits: quota left and what members did with their receives; created and edited here. */
function BenefitsTab({ siteId }: { siteId: number }) {
  const { can } = useSession();
  const manage = can('promotions:manage', siteId);
  const action = useRef<ActionType>(null);
  const reload = () => void action.current?.reload();
  return (
    <ProTable<AdminBenefit>
      rowKey="id"
      actionRef={action}
      search={false}
      options={false}
      size="small"
      headerTitle="权益与领取情况"
      scroll={{ x: 'max-content' }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无权益' }}
      toolBarRender={() => (manage ? [<BenefitForm key="new" siteId={siteId} onDone={reload} />] : [])}
      request={(p) => pageOf(adminActivityApi.benefits, { siteId, pageNum: p.current })}
      columns={[
        { title: '权益', dataIndex: 'name' },
        { title: '商品', dataIndex: 'productName', render: (_, b) => b.productName || `#${b.productId}` },
        {
          title: '状态',
          dataIndex: 'timing',
          width: 80,
          render: (_, b) => (b.enabled ? <TimingTag timing={b.timing} /> : <Tag>已下架</Tag>),
        },
        {
          title: '领取对象',
          dataIndex: 'vipLevelName',
          render: (_, b) => (b.vipLevelId === null ? '所有会员' : `${b.vipLevelName} 及以上`),
        },
        {
          title: '领取进度',
          dataIndex: 'remaining',
          width: 200,
          render: (_, b) => (
            <Space direction="vertical" size={0} style={{ width: '100%' }}>
              <Progress
                size="small"
                percent={b.total > 0 ? Math.round(((b.total - b.remaining) / b.total) * 100) : 0}
              />
              <span style={{ fontSize: 12 }}>
                已领 {b.total - b.remaining} / 共 {b.total}，剩余 {b.remaining}
              </span>
            </Space>
          ),
        },
        {
          title: '领取记录',
          dataIndex: 'received',
          render: (_, b) => (
            <Space size={4} wrap>
              <Tag>领取 {b.received}</Tag>
              <Tag color="orange">待使用 {b.toUse}</Tag>
              <Tag color="green">已使用 {b.used}</Tag>
              <Tag>已过期 {b.expired}</Tag>
            </Space>
          ),
        },
        { title: '有效天数', dataIndex: 'validDays', width: 90 },
        {
          title: '活动时间',
          dataIndex: 'startAt',
          width: 190,
          render: (_, b) => (
            <span style={{ fontSize: 12 }}>
              {b.startAt}
              <br />
              {b.endAt}
            </span>
          ),
        },
        ...(manage
          ? [
              {
                title: '操作',
                dataIndex: 'id',
                width: 70,
                fixed: 'right' as const,
                render: (_: unknown, b: AdminBenefit) => (
                  <BenefitForm siteId={siteId} benefit={b} onDone={reload} />
                ),
              },
            ]
          : []),
      ]}
    />
  );
}

/**
 * 权益与礼品: a site's gift records over its activities (status, activity, member; the delivery
 * sheet), the invited users of each activity (add, import by CSV, remove), and its benefits with
 * their receive counts.
 */
export function BenefitsGiftsPage() {
  const sites = useSitesWith('promotions:view');
  const [picked, setPicked] = useState<number>();
  const siteId = picked ?? sites.initial;
  const lotteries = useQuery({
    queryKey: ['benefits-gifts-lotteries', siteId],
    queryFn: () => allLotteries(siteId as number),
    enabled: siteId !== undefined,
  });
  if (siteId === undefined) return <Empty description="没有可查看的站点" />;
  const list = lotteries.data ?? [];
  return (
    <Card
      title="权益与礼品"
      extra={
        <Select
          aria-label="选择站点"
          style={{ width: 240 }}
          value={siteId}
          onChange={setPicked}
          options={sites.options}
        />
      }
    >
      <Tabs
        items={[
          {
            key: 'gifts',
            label: '礼品记录',
            children: (
              <GiftRecords
                key={siteId}
                siteId={siteId}
                activities={list.map((l) => ({ value: l.id, label: `${l.name}（${l.code}）` }))}
              />
            ),
          },
          {
            key: 'invited',
            label: '受邀用户',
            children: lotteries.isPending ? null : <InvitedTab key={siteId} lotteries={list} />,
          },
          { key: 'benefits', label: '权益', children: <BenefitsTab key={siteId} siteId={siteId} /> },
        ]}
      />
    </Card>
  );
}
