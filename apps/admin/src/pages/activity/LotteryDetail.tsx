import { ModalForm, ProFormDigit, ProFormSelect, ProFormText, ProTable } from '@ant-design/pro-components';
import {
  type AdminDraw,
  type AdminLottery,
  type AdminPrize,
  adminActivityApi,
  PRIZE_KIND_LABEL,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Row, Space, Spin, Statistic, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { call, pageOf } from '../../api';
import { optionsOf, toFen, yuan } from '../../format';
import { useSession } from '../../session';
import { useWrite } from '../write';
import { GiftRecords, kindLabel } from './GiftRecords';
import { InvitedUsers } from './InvitedUsers';

interface PrizeForm {
  name: string;
  kind: 'none' | 'points' | 'product';
  amountYuan?: number;
  weight: number;
  total?: number | null;
  sort?: number;
}

/** Create or edit a prize: kind, points for a points prize, weight, pieces (empty: unlimited). */
function PrizeFormModal({
  lottery,
  prize,
  onSaved,
}: {
  lottery: AdminLottery;
  prize?: AdminPrize;
  onSaved: (saved: AdminLottery) => void;
}) {
  const write = useWrite();
  return (
    <ModalForm<PrizeForm>
      title={prize ? `编辑奖品：${prize.name}` : '添加奖品'}
      width={460}
      trigger={prize ? <Button type="link">编辑</Button> : <Button type="primary">添加奖品</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={
        prize
          ? {
              name: prize.name,
              kind: prize.kind as PrizeForm['kind'],
              amountYuan: prize.amount / 100,
              weight: prize.weight,
              total: prize.total,
              sort: prize.sort,
            }
          : { kind: 'product', weight: 1, sort: lottery.prizes.length }
      }
      onFinish={(form) =>
        write(async () => {
          onSaved(
            await call(adminActivityApi.savePrize, {
              siteId: lottery.siteId,
              activityId: lottery.id,
              id: prize?.id,
              name: form.name,
              kind: form.kind,
              amount: form.kind === 'points' ? toFen(form.amountYuan ?? 0) : 0,
              weight: form.weight,
              total: form.total ?? undefined,
              sort: form.sort ?? 0,
            }),
          );
        }, '奖品已保存')
      }
    >
      <ProFormText name="name" label="奖品名称" rules={[{ required: true, max: 40 }]} />
      <ProFormSelect
        name="kind"
        label="类型"
        rules={[{ required: true }]}
        options={optionsOf(PRIZE_KIND_LABEL)}
      />
      <ProFormDigit name="amountYuan" label="积分数额（积分奖品）" min={0} fieldProps={{ precision: 2 }} />
      <ProFormDigit
        name="weight"
        label="权重"
        tooltip="中奖概率 = 本奖品权重 / 有库存奖品的权重之和"
        min={0}
        max={1_000_000}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true }]}
      />
      <ProFormDigit
        name="total"
        label="奖品总数（留空为不限）"
        min={0}
        max={1_000_000}
        fieldProps={{ precision: 0 }}
      />
      <ProFormDigit name="sort" label="排序" min={0} max={999} fieldProps={{ precision: 0 }} />
    </ModalForm>
  );
}

function Prizes({ lottery, onSaved }: { lottery: AdminLottery; onSaved: (saved: AdminLottery) => void }) {
  const { can } = useSession();
  const manage = can('promotions:manage', lottery.siteId);
  const totalWeight = lottery.prizes
    .filter((p) => p.remaining === null || p.remaining > 0)
    .reduce((s, p) => s + p.weight, 0);
  return (
    <Table<AdminPrize>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={lottery.prizes}
      locale={{ emptyText: <Empty description="还没有奖品，请添加" /> }}
      title={() => (manage ? <PrizeFormModal lottery={lottery} onSaved={onSaved} /> : null)}
      columns={[
        { title: '排序', dataIndex: 'sort', width: 60 },
        { title: '奖品', dataIndex: 'name' },
        { title: '类型', dataIndex: 'kind', width: 80, render: kindLabel },
        {
          title: '积分',
          dataIndex: 'amount',
          width: 90,
          render: (v: number, p) => (p.kind === 'points' ? yuan(v) : '-'),
        },
        { title: '权重', dataIndex: 'weight', width: 70 },
        {
          title: '概率',
          dataIndex: 'weight',
          key: 'chance',
          width: 80,
          render: (w: number) => (totalWeight > 0 ? `${((w / totalWeight) * 100).toFixed(1)}%` : '-'),
        },
        { title: '总数', dataIndex: 'total', width: 80, render: (v: number | null) => v ?? '不限' },
        { title: '剩余', dataIndex: 'remaining', width: 80, render: (v: number | null) => v ?? '不限' },
        {
          title: '操作',
          key: 'op',
          width: 80,
          render: (_, p) =>
            manage ? <PrizeFormModal lottery={lottery} prize={p} onSaved={onSaved} /> : null,
        },
      ]}
    />
  );
}

function Draws({ lottery }: { lottery: AdminLottery }) {
  return (
    <ProTable<AdminDraw>
      rowKey="id"
      search={false}
      options={false}
      size="small"
      headerTitle="抽奖记录"
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无抽奖记录' }}
      request={(p) =>
        pageOf(adminActivityApi.draws, { siteId: lottery.siteId, activityId: lottery.id, pageNum: p.current })
      }
      columns={[
        { title: '记录号', dataIndex: 'id', width: 80 },
        { title: '会员', dataIndex: 'member' },
        {
          title: '结果',
          dataIndex: 'prizeName',
          render: (_, d) => <Tag color={d.won ? 'gold' : 'default'}>{d.prizeName}</Tag>,
        },
        { title: '消耗积分', dataIndex: 'costPoints', render: (_, d) => yuan(d.costPoints) },
        { title: '时间', dataIndex: 'createdAt' },
      ]}
    />
  );
}

function Results({ lottery }: { lottery: AdminLottery }) {
  const results = useQuery({
    queryKey: ['lottery-results', lottery.id],
    queryFn: () => call(adminActivityApi.lotteryResults, { siteId: lottery.siteId, activityId: lottery.id }),
  });
  if (results.isPending)
    return (
      <Spin tip="加载中">
        <div style={{ height: 120 }} />
      </Spin>
    );
  if (!results.data) return <Alert type="error" message={results.error?.message ?? '加载失败'} />;
  const r = results.data;
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Row gutter={16}>
        {[
          ['抽奖次数', r.draws],
          ['参与会员', r.members],
          ['中奖次数', r.won],
          ['消耗积分', yuan(r.pointsSpent)],
          ['发出积分', yuan(r.pointsGiven)],
          ['带来订单', r.orders],
        ].map(([title, value]) => (
          <Col span={4} key={title}>
            <Card size="small">
              <Statistic title={title} value={value} />
            </Card>
          </Col>
        ))}
      </Row>
      <Table
        size="small"
        rowKey="prizeId"
        pagination={false}
        dataSource={r.prizes}
        locale={{ emptyText: '暂无奖品' }}
        columns={[
          { title: '奖品', dataIndex: 'name' },
          { title: '类型', dataIndex: 'kind', render: kindLabel },
          { title: '已发出', dataIndex: 'awarded' },
          { title: '剩余', dataIndex: 'remaining', render: (v: number | null) => v ?? '不限' },
        ]}
      />
      <Space>
        <Tag color="orange">待领取 {r.gifts.toClaim}</Tag>
        <Tag color="green">已领取 {r.gifts.claimed}</Tag>
        <Tag>已过期 {r.gifts.expired}</Tag>
      </Space>
    </Space>
  );
}

/** One lottery's prizes, invited users, draws, gifts with the delivery sheet, and results. */
export function LotteryDetail({ lottery: initial }: { lottery: AdminLottery }) {
  const [lottery, setLottery] = useState(initial);
  return (
    <Tabs
      items={[
        { key: 'prizes', label: '奖品', children: <Prizes lottery={lottery} onSaved={setLottery} /> },
        { key: 'white', label: '受邀用户', children: <InvitedUsers activity={lottery} /> },
        { key: 'draws', label: '抽奖记录', children: <Draws lottery={lottery} /> },
        {
          key: 'gifts',
          label: '中奖与发货',
          children: <GiftRecords siteId={lottery.siteId} activity={lottery} />,
        },
        { key: 'results', label: '活动效果', children: <Results lottery={lottery} /> },
      ]}
    />
  );
}
