import { type ActionType, ProDescriptions, ProTable } from '@ant-design/pro-components';
import {
  type AdminProviderOrder,
  adminProviderApi as api,
  ORDER_STATUS_LABEL,
  PROVIDER_CONSOLE_LABEL,
  PROVIDER_KIND_LABEL,
  PROVIDER_NAME_LABEL,
  type ProviderKind,
  type ProviderStatus,
} from '@sitemall/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Card, Drawer, Empty, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { detailColumn, searchForm } from '../../columns';
import { dayRangeColumn, enumOf, time, yuan } from '../../format';
import { useSession } from '../../session';
import { TextAction } from '../TextAction';

const STATUS_COLOR: Record<ProviderStatus, string> = {
  locked: 'default',
  pending: 'default',
  paid: 'processing',
  issuing: 'orange',
  issued: 'green',
  failed: 'red',
  expired: 'default',
};
const STATUS_ENUM = enumOf(PROVIDER_CONSOLE_LABEL);
const KIND_ENUM = enumOf(PROVIDER_KIND_LABEL);
const ACTION_LABEL: Record<string, string> = {
  issue: '发送出票',
  cancel: '撤销请求',
  stock: '库存发码',
  retry: '运营重试',
  refund: '运营退款',
};
const OUTCOME_LABEL: Record<string, { text: string; color: string }> = {
  issued: { text: '已出票', color: 'green' },
  failed: { text: '失败', color: 'red' },
  retried: { text: '未应答，待重试', color: 'orange' },
};

/** One provider order: goods, request ids, the attempt log, and retry or refund when unsettled. */
function ProviderOrderDrawer({
  row,
  onClose,
  onChanged,
}: {
  row: AdminProviderOrder;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { can } = useSession();
  const { message } = App.useApp();
  const key = ['provider-order', row.siteId, row.id];
  const detail = useQuery({
    queryKey: key,
    queryFn: () => call(api.order, { siteId: row.siteId, id: row.id }),
  });
  const act = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSuccess: () => message.success('已处理'),
    onError: (e) => message.error((e as Error).message),
    onSettled: () => {
      void detail.refetch();
      onChanged();
    },
  });
  const d = detail.data;
  return (
    <Drawer open width={640} title={`服务商订单 ${row.orderNo}`} onClose={onClose}>
      {!d ? (
        <Spin tip="加载中">
          <div style={{ height: 200 }} />
        </Spin>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {d.needsAction ? (
            <Alert
              type="warning"
              showIcon
              message="服务商未确认出票结果"
              description={`已发送 ${d.attempts} 次，最近一次：${d.lastError || '无'}。可立即重试（同一请求号，不会重复出票），或撤销并退款。`}
            />
          ) : null}
          <ProDescriptions column={2} size="small" bordered>
            <ProDescriptions.Item label="商品" span={2}>
              {d.title}
            </ProDescriptions.Item>
            <ProDescriptions.Item label="明细" span={2}>
              {d.detail}
            </ProDescriptions.Item>
            <ProDescriptions.Item label="状态">
              <Tag color={STATUS_COLOR[d.status]}>{d.statusName}</Tag>
            </ProDescriptions.Item>
            <ProDescriptions.Item label="订单状态">
              {ORDER_STATUS_LABEL[d.orderStatus] ?? d.orderStatus}（{d.orderStatus}）
            </ProDescriptions.Item>
            <ProDescriptions.Item label="服务商">
              {PROVIDER_NAME_LABEL[d.provider] ?? d.provider}
            </ProDescriptions.Item>
            <ProDescriptions.Item label="实付">{yuan(d.payAmount)}</ProDescriptions.Item>
            <ProDescriptions.Item label="请求号">
              <Typography.Text copyable>{d.providerReqId}</Typography.Text>
            </ProDescriptions.Item>
            <ProDescriptions.Item label="服务商单号">{d.providerOrderId ?? '-'}</ProDescriptions.Item>
            <ProDescriptions.Item label="券码（脱敏）" span={2}>
              {d.maskedCodes.length ? d.maskedCodes.join('、') : '-'}
            </ProDescriptions.Item>
            <ProDescriptions.Item label="下单时间">{time(d.createTime)}</ProDescriptions.Item>
            <ProDescriptions.Item label="更新时间">{time(d.updateTime)}</ProDescriptions.Item>
          </ProDescriptions>
          <Card size="small" title={`出票记录（${d.attemptLog.length}）`}>
            {d.attemptLog.length === 0 ? (
              <Empty description="尚未发送" />
            ) : (
              <Timeline
                items={d.attemptLog.map((a) => ({
                  color: OUTCOME_LABEL[a.outcome]?.color ?? 'gray',
                  children: (
                    <span>
                      {time(a.time)} {ACTION_LABEL[a.action] ?? a.action}：
                      {OUTCOME_LABEL[a.outcome]?.text ?? a.outcome}
                      {a.operatorName ? `（${a.operatorName}）` : ''}
                      {a.note ? ` ${a.note}` : ''}
                    </span>
                  ),
                }))}
              />
            )}
          </Card>
          {d.needsAction && can('orders:manage', d.siteId) ? (
            <Space>
              <TextAction
                label="立即重试"
                title={`重试出票：${d.orderNo}`}
                field="重试原因"
                onSubmit={(reason) =>
                  act.mutateAsync(() => call(api.retry, { siteId: d.siteId, id: d.id, reason }))
                }
              />
              <TextAction
                label="撤销并退款"
                title={`撤销出票并退款：${d.orderNo}`}
                field="退款原因"
                danger
                onSubmit={(reason) =>
                  act.mutateAsync(() => call(api.refund, { siteId: d.siteId, id: d.id, reason }))
                }
              />
            </Space>
          ) : null}
        </Space>
      )}
    </Drawer>
  );
}

interface Filters {
  orderNo?: string;
  status?: ProviderStatus | 'needsAction';
  kind?: ProviderKind;
  createTime?: [string, string];
  siteId?: number;
  current?: number;
}

/** Provider orders of the operator's sites by state, kind, day and order number. */
export function ProviderOrders() {
  const { siteId } = useSession();
  const action = useRef<ActionType>(null);
  const [open, setOpen] = useState<AdminProviderOrder>();
  return (
    <>
      <ProTable<AdminProviderOrder, Filters>
        form={searchForm()}
        headerTitle="服务商订单"
        rowKey="id"
        actionRef={action}
        params={{ siteId }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: <Empty description="没有符合条件的服务商订单" /> }}
        request={(p) =>
          pageOf(api.orders, {
            siteId: p.siteId,
            orderNo: p.orderNo?.trim() || undefined,
            status: p.status && p.status !== 'needsAction' ? p.status : undefined,
            needsAction: p.status === 'needsAction' ? true : undefined,
            kind: p.kind,
            from: p.createTime?.[0],
            to: p.createTime?.[1],
            pageNum: p.current,
          })
        }
        columns={[
          { title: '订单号', dataIndex: 'orderNo', copyable: true },
          { title: '站点', dataIndex: 'siteId', search: false, width: 70 },
          {
            title: '类型',
            dataIndex: 'kind',
            valueEnum: KIND_ENUM,
            render: (_, r) => PROVIDER_KIND_LABEL[r.kind],
          },
          { title: '商品', dataIndex: 'title', search: false, ellipsis: true },
          {
            title: '状态',
            dataIndex: 'status',
            // The longest state (出票失败（已退款）) in one tag, not over the next column.
            width: 170,
            valueEnum: { ...STATUS_ENUM, needsAction: { text: '出票异常待处理' } },
            render: (_, r) => (
              <Space size={4} wrap>
                <Tag color={STATUS_COLOR[r.status]}>{r.statusName}</Tag>
                {r.needsAction ? <Tag color="red">待处理</Tag> : null}
              </Space>
            ),
          },
          { title: '发送次数', dataIndex: 'attempts', search: false, width: 90 },
          { title: '最近错误', dataIndex: 'lastError', search: false, ellipsis: true },
          {
            title: '下单时间',
            ...dayRangeColumn('createTime'),
            render: (_, r) => time(r.createTime),
          },
          detailColumn(setOpen),
        ]}
      />
      {open ? (
        <ProviderOrderDrawer
          row={open}
          onClose={() => setOpen(undefined)}
          onChanged={() => action.current?.reload()}
        />
      ) : null}
    </>
  );
}
