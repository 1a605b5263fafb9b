import { ModalForm, ProFormDigit, ProFormSelect, ProFormText, ProTable } from '@ant-design/pro-components';
import {
  type AdminDraw,
  type AdminGift,
  type AdminLottery,
  type AdminPrize,
  type AdminWhiteUser,
  adminActivityApi,
  GIFT_STATUS_LABEL,
  PRIZE_KIND_LABEL,
  WHITE_IMPORT_RESULT_LABEL,
  type WhiteImportReport,
} from '@sitemall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Row, Space, Spin, Statistic, Table, Tabs, Tag, Upload } from 'antd';
import { useState } from 'react';
import { call, callFile, pageOf } from '../../api';
import { yuan } from '../../format';
import { useSession } from '../../session';
import { useWrite } from '../write';

const kindLabel = (kind: string) => PRIZE_KIND_LABEL[kind as keyof typeof PRIZE_KIND_LABEL] ?? kind;
const GIFT_COLOR: Record<number, string> = { 0: 'orange', 1: 'green', [-1]: 'default' };

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
              amount: form.kind === 'points' ? Math.round((form.amountYuan ?? 0) * 100) : 0,
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
        options={Object.entries(PRIZE_KIND_LABEL).map(([value, label]) => ({ value, label }))}
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

/** Invited users: CSV import (white code, phone) with a report per line, then the list. */
function WhiteUsers({ lottery }: { lottery: AdminLottery }) {
  const { can } = useSession();
  const write = useWrite();
  const [report, setReport] = useState<WhiteImportReport>();
  const [version, setVersion] = useState(0);
  const manage = can('promotions:manage', lottery.siteId);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {lottery.audience !== 'invited' ? (
        <Alert type="info" showIcon message="本活动对所有会员开放；受邀名单仅在“仅受邀用户”活动中生效。" />
      ) : null}
      {manage ? (
        <Space>
          <Upload
            accept=".csv,text/csv"
            showUploadList={false}
            beforeUpload={(file) => {
              // Read here, never uploaded as a file: the text travels in the import request.
              void file.text().then((text) =>
                write(async () => {
                  setReport(
                    await call(adminActivityApi.importWhiteUsers, {
                      siteId: lottery.siteId,
                      activityId: lottery.id,
                      fileName: file.name,
                      text,
                    }),
                  );
                  setVersion((v) => v + 1);
                }, '导入完成'),
              );
              return false;
            }}
          >
            <Button type="primary">导入受邀用户（CSV）</Button>
          </Upload>
          <span style={{ color: '#888' }}>
            每行：邀请码,手机号（可空）；首行可为表头；重复导入不会重复创建
          </span>
        </Space>
      ) : null}
      {report ? (
        <Card
          size="small"
          title={`导入结果：新增 ${report.created} 行，已存在 ${report.existing} 行，错误 ${report.errors} 行`}
        >
          <Table
            size="small"
            rowKey="line"
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            dataSource={report.rows}
            columns={[
              { title: '行', dataIndex: 'line', width: 60 },
              { title: '邀请码', dataIndex: 'whiteCode' },
              { title: '手机号', dataIndex: 'phone' },
              {
                title: '结果',
                dataIndex: 'result',
                render: (v: keyof typeof WHITE_IMPORT_RESULT_LABEL, r) => (
                  <Tag color={v === 'created' ? 'green' : v === 'exists' ? 'default' : 'red'}>
                    {v === 'error' ? r.detail : WHITE_IMPORT_RESULT_LABEL[v]}
                  </Tag>
                ),
              },
            ]}
          />
        </Card>
      ) : null}
      <ProTable<AdminWhiteUser>
        key={version}
        rowKey="id"
        search={false}
        options={false}
        size="small"
        headerTitle="受邀用户"
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无受邀用户' }}
        request={(p) =>
          pageOf(adminActivityApi.whiteUsers, {
            siteId: lottery.siteId,
            activityId: lottery.id,
            pageNum: p.current,
          })
        }
        columns={[
          { title: '邀请码', dataIndex: 'whiteCode' },
          { title: '手机号', dataIndex: 'phone', render: (_, r) => r.phone || '-' },
          {
            title: '已绑定会员',
            dataIndex: 'memberId',
            render: (_, r) => (r.memberId ? `#${r.memberId}` : '未绑定'),
          },
          { title: '导入时间', dataIndex: 'createdAt' },
        ]}
      />
    </Space>
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

function Gifts({ lottery }: { lottery: AdminLottery }) {
  const write = useWrite();
  return (
    <ProTable<AdminGift, { status?: string }>
      rowKey="id"
      options={false}
      size="small"
      headerTitle="中奖与发货"
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无中奖记录' }}
      search={{ labelWidth: 'auto', span: 8 }}
      request={(p) =>
        pageOf(adminActivityApi.gifts, {
          siteId: lottery.siteId,
          activityId: lottery.id,
          status: p.status === undefined ? undefined : Number(p.status),
          pageNum: p.current,
        })
      }
      toolBarRender={() => [
        <Button
          key="export"
          onClick={() =>
            write(
              () =>
                callFile(
                  adminActivityApi.exportGifts,
                  { siteId: lottery.siteId, activityId: lottery.id },
                  `gifts-${lottery.code}.xlsx`,
                ),
              '已导出发货单',
            )
          }
        >
          导出发货单（xlsx）
        </Button>,
      ]}
      columns={[
        { title: '记录号', dataIndex: 'id', width: 80, search: false },
        { title: '会员', dataIndex: 'member', search: false },
        { title: '奖品', dataIndex: 'prizeName', search: false },
        { title: '类型', dataIndex: 'kind', search: false, width: 70, render: (_, g) => kindLabel(g.kind) },
        {
          title: '状态',
          dataIndex: 'status',
          width: 90,
          valueEnum: Object.fromEntries(Object.entries(GIFT_STATUS_LABEL).map(([k, v]) => [k, { text: v }])),
          render: (_, g) => <Tag color={GIFT_COLOR[g.status]}>{g.statusName}</Tag>,
        },
        {
          title: '收货信息',
          dataIndex: 'address',
          search: false,
          render: (_, g) =>
            g.address ? (
              <span style={{ fontSize: 12 }}>
                {g.address.consignee} {g.address.phone}
                <br />
                {g.address.address}
              </span>
            ) : (
              '-'
            ),
        },
        {
          title: '领取截止',
          dataIndex: 'claimDeadline',
          search: false,
          render: (_, g) => g.claimDeadline ?? '-',
        },
        { title: '中奖时间', dataIndex: 'createdAt', search: false },
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
        { key: 'white', label: '受邀用户', children: <WhiteUsers lottery={lottery} /> },
        { key: 'draws', label: '抽奖记录', children: <Draws lottery={lottery} /> },
        { key: 'gifts', label: '中奖与发货', children: <Gifts lottery={lottery} /> },
        { key: 'results', label: '活动效果', children: <Results lottery={lottery} /> },
      ]}
    />
  );
}
