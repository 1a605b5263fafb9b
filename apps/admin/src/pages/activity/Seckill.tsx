import {
  type ActionType,
  ModalForm,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormList,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminSeckillActivity,
  type AdminSeckillSession,
  type AdminSeckillSku,
  adminActivityApi,
} from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Progress, Space, Table, Tag, Typography } from 'antd';
import { type Key, useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { toFen, yuan } from '../../format';
import { useSession, useSitesWith } from '../../session';
import { useWrite } from '../write';
import { defaultWindow, EndButton, timingColumns, windowOf } from './shared';

const sessionsKey = (siteId: number | undefined) => ['seckill-sessions', siteId];

function useSessions(siteId: number | undefined) {
  return useQuery({
    queryKey: sessionsKey(siteId),
    queryFn: () => call(adminActivityApi.seckillSessions, { siteId: siteId as number }),
    enabled: siteId !== undefined,
  });
}

/** Create or edit a daily session ("HH:mm" to "HH:mm", 24:00 for midnight). */
function SessionFormModal({ siteId, session }: { siteId: number; session?: AdminSeckillSession }) {
  const write = useWrite();
  const queryClient = useQueryClient();
  return (
    <ModalForm<{ name: string; startTime: string; endTime: string; sort?: number; enabled: boolean }>
      title={session ? `编辑场次：${session.name}` : '新建场次'}
      width={420}
      trigger={session ? <Button type="link">编辑</Button> : <Button>新建场次</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={session ?? { startTime: '10:00', endTime: '12:00', enabled: true }}
      onFinish={(form) =>
        write(async () => {
          await call(adminActivityApi.saveSeckillSession, { siteId, id: session?.id, ...form });
          await queryClient.invalidateQueries({ queryKey: sessionsKey(siteId) });
        }, '场次已保存')
      }
    >
      <ProFormText name="name" label="场次名称" rules={[{ required: true, max: 40 }]} />
      <Space size="large">
        <ProFormText name="startTime" label="开始" rules={[{ required: true, pattern: /^\d{2}:\d{2}$/ }]} />
        <ProFormText name="endTime" label="结束" rules={[{ required: true, pattern: /^\d{2}:\d{2}$/ }]} />
      </Space>
      <ProFormDigit name="sort" label="排序" min={0} max={999} fieldProps={{ precision: 0 }} />
      <ProFormSwitch name="enabled" label="启用" />
    </ModalForm>
  );
}

function Sessions({ siteId }: { siteId: number }) {
  const { can } = useSession();
  const sessions = useSessions(siteId);
  const manage = can('promotions:manage', siteId);
  return (
    <Card
      size="small"
      title={`每日场次（站点 ${siteId}）`}
      extra={manage ? <SessionFormModal siteId={siteId} /> : null}
      style={{ marginBottom: 16 }}
    >
      <Table<AdminSeckillSession>
        size="small"
        rowKey="id"
        loading={sessions.isPending}
        pagination={false}
        dataSource={sessions.data?.list ?? []}
        locale={{ emptyText: <Empty description="暂无场次" /> }}
        columns={[
          { title: '场次', dataIndex: 'name' },
          { title: '时间', dataIndex: 'startTime', render: (_, s) => `${s.startTime} – ${s.endTime}` },
          { title: '排序', dataIndex: 'sort', width: 70 },
          {
            title: '状态',
            dataIndex: 'enabled',
            width: 80,
            render: (v: boolean) => (v ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
          {
            title: '操作',
            key: 'op',
            width: 80,
            render: (_, s) => (manage ? <SessionFormModal siteId={siteId} session={s} /> : null),
          },
        ]}
      />
    </Card>
  );
}

interface SaleForm {
  siteId: number;
  name: string;
  sessionIds: number[];
  window: [string, string];
  memberLimit: number;
  orderLimit: number;
  expireMinutes: number;
  skus: { specificationId: number; priceYuan: number; totalStock: number }[];
  reason?: string;
}

/** Create or edit a flash sale: sessions, window, limits, and each specification's price and stock. */
function SaleFormModal({ sale, onDone }: { sale?: AdminSeckillActivity; onDone: () => void }) {
  const sites = useSitesWith('promotions:manage');
  const { siteId } = useSession();
  const site = sale?.siteId ?? siteId ?? sites.initial;
  const sessions = useSessions(site);
  const write = useWrite();
  return (
    <ModalForm<SaleForm>
      title={sale ? `编辑秒杀活动：${sale.name}` : '新建秒杀活动'}
      width={640}
      trigger={sale ? <Button type="link">编辑</Button> : <Button type="primary">新建秒杀活动</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={
        sale
          ? {
              siteId: sale.siteId,
              name: sale.name,
              sessionIds: sale.sessionIds,
              window: [sale.startAt, sale.endAt],
              memberLimit: sale.memberLimit,
              orderLimit: sale.orderLimit,
              expireMinutes: sale.expireMinutes,
              skus: sale.skus.map((s) => ({
                specificationId: s.specificationId,
                priceYuan: s.price / 100,
                totalStock: s.totalStock,
              })),
            }
          : {
              siteId: site,
              window: defaultWindow(),
              memberLimit: 1,
              orderLimit: 1,
              expireMinutes: 5,
              skus: [{}],
            }
      }
      onFinish={(form) =>
        write(async () => {
          await call(adminActivityApi.saveSeckillActivity, {
            siteId: form.siteId,
            id: sale?.id,
            name: form.name,
            sessionIds: form.sessionIds,
            ...windowOf(form.window),
            memberLimit: form.memberLimit,
            orderLimit: form.orderLimit,
            expireMinutes: form.expireMinutes,
            skus: form.skus.map((s) => ({
              specificationId: s.specificationId,
              price: toFen(s.priceYuan),
              totalStock: s.totalStock,
            })),
            reason: form.reason,
          });
          onDone();
        }, '已保存')
      }
    >
      <ProFormSelect
        name="siteId"
        label="站点"
        options={sites.options}
        disabled
        rules={[{ required: true }]}
      />
      <ProFormText name="name" label="活动名称" rules={[{ required: true, max: 60 }]} />
      <ProFormSelect
        name="sessionIds"
        label="场次"
        mode="multiple"
        rules={[{ required: true, message: '请选择场次' }]}
        options={(sessions.data?.list ?? []).map((s) => ({
          value: s.id,
          label: `${s.name} ${s.startTime}–${s.endTime}`,
        }))}
      />
      <ProFormDateTimeRangePicker name="window" label="活动日期（北京时间）" rules={[{ required: true }]} />
      <Space size="large">
        <ProFormDigit name="memberLimit" label="每人限购" min={1} max={999} fieldProps={{ precision: 0 }} />
        <ProFormDigit name="orderLimit" label="每单限购" min={1} max={999} fieldProps={{ precision: 0 }} />
        <ProFormDigit
          name="expireMinutes"
          label="未支付关闭（分钟）"
          min={1}
          max={1440}
          fieldProps={{ precision: 0 }}
        />
      </Space>
      <ProFormList
        name="skus"
        label="秒杀规格"
        creatorButtonProps={{ creatorButtonText: '添加规格' }}
        min={1}
      >
        <Space size="middle">
          <ProFormDigit
            name="specificationId"
            label="规格 ID"
            min={1}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true }]}
          />
          <ProFormDigit
            name="priceYuan"
            label="活动价"
            min={0}
            fieldProps={{ precision: 2 }}
            rules={[{ required: true }]}
          />
          <ProFormDigit
            name="totalStock"
            label="活动库存"
            min={0}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true }]}
          />
        </Space>
      </ProFormList>
    </ModalForm>
  );
}

function Skus({ sale }: { sale: AdminSeckillActivity }) {
  return (
    <Table<AdminSeckillSku>
      size="small"
      rowKey="specificationId"
      pagination={false}
      dataSource={sale.skus}
      columns={[
        { title: '规格 ID', dataIndex: 'specificationId', width: 90 },
        {
          title: '商品',
          dataIndex: 'name',
          render: (_, s) => (
            <span>
              {s.name}
              {s.specificationValue ? (
                <Typography.Text type="secondary">（{s.specificationValue}）</Typography.Text>
              ) : null}
            </span>
          ),
        },
        { title: '活动价', dataIndex: 'price', width: 100, render: (v: number) => yuan(v) },
        { title: '原价', dataIndex: 'sitePrice', width: 100, render: (v: number) => yuan(v) },
        { title: '活动库存', dataIndex: 'totalStock', width: 90 },
        { title: '剩余', dataIndex: 'stock', width: 80 },
        { title: '已售', dataIndex: 'sold', width: 80 },
        {
          title: '售出进度',
          key: 'progress',
          width: 160,
          render: (_, s) => (
            <Progress size="small" percent={s.totalStock ? Math.round((s.sold / s.totalStock) * 100) : 0} />
          ),
        },
      ]}
    />
  );
}

/** Flash sales: daily sessions, and activities with live stock and sold counts per specification. */
export function SeckillPage() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const reload = () => action.current?.reload();
  return (
    <>
      {siteId ? (
        <Sessions siteId={siteId} />
      ) : (
        <Card size="small" style={{ marginBottom: 16 }}>
          <Typography.Text type="secondary">
            在右上角选择一个站点以管理其每日场次和新建秒杀活动。
          </Typography.Text>
        </Card>
      )}
      <ProTable<AdminSeckillActivity, { siteId?: number }>
        headerTitle="秒杀活动（实时库存）"
        rowKey="id"
        actionRef={action}
        params={{ siteId }}
        search={false}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无秒杀活动' }}
        request={async (p) => {
          const page = await pageOf(adminActivityApi.seckillActivities, {
            siteId: p.siteId,
            pageNum: p.current,
          });
          // Live stock is the point of this screen: every activity opens with its specifications.
          setExpanded(page.data.map((a) => a.id));
          return page;
        }}
        toolBarRender={() =>
          siteId && can('promotions:manage', siteId) ? [<SaleFormModal key="new" onDone={reload} />] : []
        }
        expandable={{
          expandedRowRender: (sale) => <Skus sale={sale} />,
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys) => setExpanded([...keys]),
        }}
        columns={[
          { title: '站点', dataIndex: 'siteId', width: 70 },
          { title: '名称', dataIndex: 'name', width: 180 },
          ...timingColumns<AdminSeckillActivity>('活动日期'),
          { title: '场次数', dataIndex: 'sessionIds', width: 70, render: (_, a) => a.sessionIds.length },
          {
            title: '限购（人/单）',
            dataIndex: 'memberLimit',
            width: 110,
            render: (_, a) => `${a.memberLimit} / ${a.orderLimit}`,
          },
          {
            title: '剩余 / 总库存',
            dataIndex: 'skus',
            width: 120,
            render: (_, a) =>
              `${a.skus.reduce((s, k) => s + k.stock, 0)} / ${a.skus.reduce((s, k) => s + k.totalStock, 0)}`,
          },
          {
            title: '已售',
            dataIndex: 'sold',
            width: 70,
            render: (_, a) => a.skus.reduce((s, k) => s + k.sold, 0),
          },
          { title: '订单', dataIndex: 'orders', width: 70 },
          {
            title: '操作',
            valueType: 'option',
            width: 140,
            render: (_, a) =>
              can('promotions:manage', a.siteId)
                ? [
                    <SaleFormModal key="edit" sale={a} onDone={reload} />,
                    a.timing.status !== 1 ? (
                      <EndButton
                        key="end"
                        name={a.name}
                        onEnd={async (reason) => {
                          await call(adminActivityApi.endSeckillActivity, {
                            siteId: a.siteId,
                            activityId: a.id,
                            reason,
                          });
                          reload();
                        }}
                      />
                    ) : null,
                  ]
                : [],
          },
        ]}
      />
    </>
  );
}
