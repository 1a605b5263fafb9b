import { ModalForm, ProDescriptions } from '@ant-design/pro-components';
import { adminAfterSaleApi as api, type BodyOf, type ConsoleCase } from '@sitemall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Drawer,
  Empty,
  Input,
  List,
  Popconfirm,
  Space,
  Spin,
  Table,
  Tag,
  Timeline,
} from 'antd';
import { useState } from 'react';
import { call } from '../../api';
import { time, yuan } from '../../format';
import { useSession } from '../../session';
import { ParcelFields } from '../ParcelFields';
import { TextAction } from '../TextAction';

type Ref = { siteId: number; afterSaleNo: string };
type Write = (typeof api)[
  | 'approve'
  | 'reject'
  | 'receive'
  | 'refuseReturn'
  | 'reply'
  | 'reship'
  | 'completeExchange'
  | 'proposeRefund'
  | 'executeRefund'
  | 'rejectRefund'
  | 'retryRefund'];

export const caseKey = (ref: Ref) => ['aftersale', ref.siteId, ref.afterSaleNo];

/** One decision on the case: the server answers the case as it is now, which replaces the cached one. */
function useCaseAction(ref: Ref, onChanged: () => void) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ endpoint, body }: { endpoint: Write; body: Record<string, unknown>; done: string }) =>
      call(endpoint, { ...ref, ...body } as BodyOf<Write>),
    onSuccess: (data, { done }) => {
      queryClient.setQueryData(caseKey(ref), data);
      message.success(done);
      onChanged();
    },
    onError: (e) => message.error((e as Error).message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: caseKey(ref) }),
  });
}

function Decisions({ c, act }: { c: ConsoleCase; act: ReturnType<typeof useCaseAction> }) {
  const { can } = useSession();
  if (!can('aftersales:manage', c.siteId)) return null;
  const run = (endpoint: Write, done: string, body: Record<string, unknown> = {}) =>
    act.mutateAsync({ endpoint, body, done });
  const buttons = [];
  if (c.status === 'applied') {
    buttons.push(
      <Popconfirm key="approve" title="确认审核通过？" onConfirm={() => run(api.approve, '已审核通过')}>
        <Button type="primary">审核通过</Button>
      </Popconfirm>,
      <TextAction
        key="reject"
        label="审核不通过"
        title="审核不通过"
        field="原因"
        danger
        onSubmit={(reason) => run(api.reject, '已驳回', { reason })}
      />,
    );
  }
  if (c.status === 'awaiting_return') {
    buttons.push(
      <Popconfirm key="receive" title="确认已收到退回商品？" onConfirm={() => run(api.receive, '已确认收货')}>
        <Button type="primary">确认收货</Button>
      </Popconfirm>,
      <TextAction
        key="refuse"
        label="拒绝收货"
        title="拒绝收货"
        field="原因"
        danger
        onSubmit={(reason) => run(api.refuseReturn, '已拒绝收货', { reason })}
      />,
    );
  }
  if (c.status === 'returned' && c.kind === 'exchange') {
    buttons.push(
      <ModalForm<{ company: string; trackingNo: string }>
        key="reship"
        title="换货发出"
        width={420}
        trigger={<Button type="primary">换货发出</Button>}
        modalProps={{ destroyOnClose: true }}
        onFinish={async (form) => {
          await run(api.reship, '换货已发出', form);
          return true;
        }}
      >
        <ParcelFields />
      </ModalForm>,
    );
  }
  if (c.status === 'reshipped') {
    buttons.push(
      <Popconfirm
        key="complete"
        title="确认换货完成？"
        onConfirm={() => run(api.completeExchange, '换货已完成')}
      >
        <Button type="primary">换货完成</Button>
      </Popconfirm>,
    );
  }
  return buttons.length ? <Space wrap>{buttons}</Space> : null;
}

/** The refund: preview per channel, the proposal (after-sales) and its review (finance), WeChat retries. */
function RefundCard({ c, act }: { c: ConsoleCase; act: ReturnType<typeof useCaseAction> }) {
  const { can, me } = useSession();
  const run = (endpoint: Write, done: string, body: Record<string, unknown> = {}) =>
    act.mutateAsync({ endpoint, body, done });
  const open = c.proposals.find((p) => p.status === 'proposed');
  const finance = can('finance:manage', c.siteId);
  const pendingWechat = c.refunds.some((r) => r.channel === 'wechat' && r.status === 'pending');
  if (!c.refundPreview && c.proposals.length === 0 && c.refunds.length === 0) return null;
  return (
    <Card size="small" title="退款">
      <Space direction="vertical" style={{ width: '100%' }}>
        {c.refundPreview ? (
          <Space wrap>
            <span>按原支付比例预计退回：</span>
            <Tag color="blue">积分 {yuan(c.refundPreview.points)}</Tag>
            <Tag color="green">微信 {yuan(c.refundPreview.cash)} 元</Tag>
            {!open && can('aftersales:manage', c.siteId) ? (
              <TextAction
                label="申请退款"
                title="申请退款（提交财务复核）"
                field="退款原因"
                onSubmit={(reason) => run(api.proposeRefund, '退款申请已提交，待财务复核', { reason })}
              />
            ) : null}
          </Space>
        ) : null}
        {c.proposals.length ? (
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={c.proposals}
            columns={[
              { title: '申请人', dataIndex: 'proposerName' },
              { title: '积分', dataIndex: 'points', render: (v: number) => yuan(v) },
              { title: '微信（元）', dataIndex: 'cash', render: (v: number) => yuan(v) },
              { title: '原因', dataIndex: 'reason' },
              { title: '状态', dataIndex: 'statusName', render: (v: string) => <Tag>{v}</Tag> },
              {
                title: '复核',
                key: 'review',
                render: (_, p) =>
                  p.status !== 'proposed' ? (
                    `${p.deciderName}${p.decideNote ? `：${p.decideNote}` : ''}`
                  ) : finance && p.proposerId !== me.id ? (
                    <Space>
                      <Popconfirm
                        title="确认执行退款？积分立即退回，微信部分原路退回"
                        onConfirm={() => run(api.executeRefund, '退款已执行', { proposalId: p.id })}
                      >
                        <Button type="primary" size="small">
                          执行退款
                        </Button>
                      </Popconfirm>
                      <TextAction
                        label="驳回"
                        title="驳回退款申请"
                        field="原因"
                        danger
                        onSubmit={(reason) =>
                          run(api.rejectRefund, '退款申请已驳回', { proposalId: p.id, reason })
                        }
                      />
                    </Space>
                  ) : (
                    <Tag color="orange">待其他财务人员复核</Tag>
                  ),
              },
            ]}
          />
        ) : null}
        {c.refunds.length ? (
          <Table
            size="small"
            rowKey="outRefundNo"
            pagination={false}
            dataSource={c.refunds}
            columns={[
              {
                title: '渠道',
                dataIndex: 'channel',
                render: (v: string) => ({ wechat: '微信', pack: '卡包' })[v] ?? '积分',
              },
              { title: '金额', dataIndex: 'amount', render: (v: number) => yuan(v) },
              { title: '退款单号', dataIndex: 'outRefundNo' },
              {
                title: '状态',
                dataIndex: 'status',
                render: (v: string, r) => (
                  <Tag color={v === 'succeeded' ? 'green' : 'orange'}>
                    {v === 'succeeded' ? '已退回' : `处理中${r.wechatStatus ? `（${r.wechatStatus}）` : ''}`}
                  </Tag>
                ),
              },
            ]}
          />
        ) : null}
        {pendingWechat && finance ? (
          <Button onClick={() => run(api.retryRefund, '已重新发起微信退款')}>重试微信退款</Button>
        ) : null}
      </Space>
    </Card>
  );
}

function Thread({ c, act }: { c: ConsoleCase; act: ReturnType<typeof useCaseAction> }) {
  const { can } = useSession();
  const [text, setText] = useState('');
  const send = async () => {
    await act.mutateAsync({ endpoint: api.reply, body: { content: text }, done: '留言已发送' });
    setText('');
  };
  return (
    <Card size="small" title="留言">
      <List
        size="small"
        locale={{ emptyText: '暂无留言' }}
        dataSource={c.comments}
        renderItem={(m) => (
          <List.Item>
            <Space align="start">
              <Tag color={m.author === 'operator' ? 'blue' : 'default'}>
                {m.author === 'operator' ? '客服' : '会员'}
              </Tag>
              <span style={{ whiteSpace: 'pre-wrap' }}>{m.content}</span>
              <span style={{ color: '#999' }}>{time(m.createTime)}</span>
            </Space>
          </List.Item>
        )}
      />
      {can('aftersales:manage', c.siteId) ? (
        <Space.Compact style={{ width: '100%', marginTop: 8 }}>
          <Input
            aria-label="回复会员"
            placeholder="回复会员（最多 500 字）"
            maxLength={500}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <Button type="primary" disabled={!text.trim()} loading={act.isPending} onClick={send}>
            发送回复
          </Button>
        </Space.Compact>
      ) : null}
    </Card>
  );
}

/** A case: what was asked, the timeline, the decisions the operator may take, the refund, the thread. */
export function CaseDrawer({
  caseRef,
  onClose,
  onChanged,
}: {
  caseRef: Ref;
  onClose: () => void;
  onChanged: () => void;
}) {
  const detail = useQuery({ queryKey: caseKey(caseRef), queryFn: () => call(api.caseDetail, caseRef) });
  const act = useCaseAction(caseRef, onChanged);
  const c = detail.data;
  return (
    <Drawer open width={820} title={`售后单 ${caseRef.afterSaleNo}`} onClose={onClose} destroyOnClose>
      {detail.isError ? (
        <Empty description={(detail.error as Error).message} />
      ) : !c ? (
        <Spin tip="加载中">
          <div style={{ height: 200 }} />
        </Spin>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <ProDescriptions column={2} bordered size="small">
            <ProDescriptions.Item label="状态">
              <Tag color={c.isOpen ? 'orange' : 'default'}>{c.statusName}</Tag>
            </ProDescriptions.Item>
            <ProDescriptions.Item label="类型">{c.kindName}</ProDescriptions.Item>
            <ProDescriptions.Item label="订单号">{c.orderNo}</ProDescriptions.Item>
            <ProDescriptions.Item label="会员">{c.memberPhone}</ProDescriptions.Item>
            <ProDescriptions.Item label="商品" span={2}>
              {c.name} {c.specificationValue} × {c.qty}（单价 {yuan(c.price)}）
            </ProDescriptions.Item>
            <ProDescriptions.Item label="原因">{c.reason}</ProDescriptions.Item>
            <ProDescriptions.Item label="申请时间">{time(c.createTime)}</ProDescriptions.Item>
            <ProDescriptions.Item label="说明" span={2}>
              {c.description || '-'}
            </ProDescriptions.Item>
            {c.returnParcel ? (
              <ProDescriptions.Item label="退货物流" span={2}>
                {c.returnParcel.company} {c.returnParcel.trackingNo}
              </ProDescriptions.Item>
            ) : null}
            {c.reshipParcel ? (
              <ProDescriptions.Item label="换货物流" span={2}>
                {c.reshipParcel.company} {c.reshipParcel.trackingNo}
              </ProDescriptions.Item>
            ) : null}
            {c.auditNote ? (
              <ProDescriptions.Item label="审核意见" span={2}>
                {c.auditNote}
              </ProDescriptions.Item>
            ) : null}
          </ProDescriptions>
          {c.pics.length ? (
            <Space wrap>
              {c.pics.map((src) => (
                <img
                  key={src}
                  src={src}
                  alt="售后图片"
                  style={{ width: 96, height: 96, objectFit: 'cover' }}
                />
              ))}
            </Space>
          ) : null}
          <Decisions c={c} act={act} />
          <RefundCard c={c} act={act} />
          <Card size="small" title="处理进度">
            <Timeline
              items={c.steps.map((s) => ({
                children: `${time(s.createTime)} ${s.statusName}${s.note ? `：${s.note}` : ''}`,
              }))}
            />
          </Card>
          <Thread c={c} act={act} />
        </Space>
      )}
    </Drawer>
  );
}
