import {
  type ActionType,
  ModalForm,
  ProDescriptions,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminOrder,
  type AdminOrderDetail,
  adminApi,
  ORDER_STATUS_LABEL,
  REFUND_REQUEST_STATUS_LABEL,
  type RefundRequest,
} from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Drawer, Empty, Space, Spin, Table, Tag, Timeline } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { call, pageOf } from '../api';
import { detailColumn, searchForm } from '../columns';
import { dayRangeColumn, time, yuan } from '../format';
import { useSession } from '../session';
import { ParcelFields } from './ParcelFields';
import { REFUND_STATUS_COLOR } from './RefundRequests';

const STATUS_ENUM = Object.fromEntries(
  Object.entries(ORDER_STATUS_LABEL).map(([k, v]) => [k, { text: `${v}（${k}）` }]),
);
/** Paid physical goods wait here (确认中) for shipment or cancellation. */
const CONFIRMING = 24;

function ShipForm({
  order,
  childOrderNo,
  onDone,
}: {
  order: AdminOrderDetail;
  childOrderNo: string;
  onDone: () => void;
}) {
  const { message } = App.useApp();
  return (
    <ModalForm<{ company: string; trackingNo: string }>
      title={`发货：${childOrderNo}`}
      width={420}
      trigger={
        <Button type="primary" size="small">
          发货
        </Button>
      }
      modalProps={{ destroyOnClose: true }}
      onFinish={async (form) => {
        try {
          await call(adminApi.shipOrder, { siteId: order.siteId, childOrderNo, ...form });
          message.success('已发货');
          onDone();
          return true;
        } catch (e) {
          message.error((e as Error).message);
          return false;
        }
      }}
    >
      <ParcelFields />
    </ModalForm>
  );
}

function CancelForm({ order, onDone }: { order: AdminOrderDetail; onDone: () => void }) {
  const { message } = App.useApp();
  return (
    <ModalForm<{ reason: string }>
      title={`取消订单并退款：${order.orderNo}`}
      width={460}
      trigger={<Button danger>取消订单</Button>}
      modalProps={{ destroyOnClose: true }}
      onFinish={async ({ reason }) => {
        try {
          const after = await call(adminApi.cancelOrder, {
            siteId: order.siteId,
            orderNo: order.orderNo,
            reason,
          });
          message.success(
            after.refundRequest?.status === 'submitted'
              ? '超过站点退款阈值，已提交退款申请，待财务复核'
              : '订单已取消，已按原支付方式退款',
          );
          onDone();
          return true;
        } catch (e) {
          message.error((e as Error).message);
          return false;
        }
      }}
    >
      <ProFormTextArea
        name="reason"
        label="取消原因"
        rules={[{ required: true, message: '请填写操作原因' }]}
        fieldProps={{ maxLength: 200 }}
      />
    </ModalForm>
  );
}

/** The order's refund request above the site's threshold: who asked, why, and where it stands. */
function RefundRequestNote({ request }: { request: RefundRequest }) {
  const label = REFUND_REQUEST_STATUS_LABEL[request.status];
  const type = { submitted: 'warning', approved: 'info', executed: 'success', rejected: 'error' } as const;
  return (
    <Alert
      type={type[request.status]}
      showIcon
      message={
        <Space>
          {`退款申请 #${request.id}`}
          <Tag color={REFUND_STATUS_COLOR[request.status]}>{label}</Tag>
          {`退款金额 ${yuan(request.amount)}`}
        </Space>
      }
      description={
        <>
          <div>
            {request.makerName} 于 {time(request.createdAt)} 申请：{request.reason}
          </div>
          {request.status === 'submitted' ? (
            <div>
              超过站点退款阈值，须另一位财务人员在 <Link to="/refunds">待审批退款</Link> 中复核
            </div>
          ) : null}
          {request.approverName ? (
            <div>
              复核人：{request.approverName}
              {request.decidedAt ? `（${time(request.decidedAt)}）` : ''}
              {request.decisionReason ? `，驳回原因：${request.decisionReason}` : ''}
            </div>
          ) : null}
        </>
      }
    />
  );
}

function OrderDetailDrawer({
  order,
  onClose,
  onChanged,
}: {
  order: AdminOrder;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { can } = useSession();
  const queryClient = useQueryClient();
  const key = ['order', order.siteId, order.orderNo];
  const detail = useQuery({
    queryKey: key,
    queryFn: () => call(adminApi.orderDetail, { siteId: order.siteId, orderNo: order.orderNo }),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    onChanged();
  };
  const d = detail.data;
  const manage = can('orders:manage', order.siteId);
  return (
    <Drawer open width={760} title={`订单详情 ${order.orderNo}`} onClose={onClose} destroyOnClose>
      {!d ? (
        <Spin />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {d.refundRequest ? <RefundRequestNote request={d.refundRequest} /> : null}
          <ProDescriptions column={2} bordered size="small">
            <ProDescriptions.Item label="订单号">{d.orderNo}</ProDescriptions.Item>
            <ProDescriptions.Item label="站点">{d.siteId}</ProDescriptions.Item>
            <ProDescriptions.Item label="状态">
              <Tag color="blue">{d.statusName}</Tag>
            </ProDescriptions.Item>
            <ProDescriptions.Item label="会员">{d.memberPhone}</ProDescriptions.Item>
            <ProDescriptions.Item label="商品金额">{yuan(d.goodsAmount)}</ProDescriptions.Item>
            <ProDescriptions.Item label="运费">{yuan(d.freightAmount)}</ProDescriptions.Item>
            <ProDescriptions.Item label="实付">{yuan(d.payAmount)}</ProDescriptions.Item>
            <ProDescriptions.Item label="支付时间">{time(d.paidAt)}</ProDescriptions.Item>
            <ProDescriptions.Item label="收货地址" span={2}>
              {d.address
                ? `${d.address.consignee} ${d.address.phone} ${d.address.provinceName}${d.address.cityName}${d.address.districtName}${d.address.detail}`
                : '虚拟商品，无需收货地址'}
            </ProDescriptions.Item>
          </ProDescriptions>
          {d.children.map((c) => (
            <Card
              key={c.childOrderNo}
              size="small"
              title={`子订单 ${c.childOrderNo}`}
              extra={
                <Space>
                  <Tag>{c.statusName}</Tag>
                  {manage && c.hasAddress && !c.shipment && c.status === CONFIRMING ? (
                    <ShipForm order={d} childOrderNo={c.childOrderNo} onDone={refresh} />
                  ) : null}
                </Space>
              }
            >
              <Table
                size="small"
                pagination={false}
                rowKey="name"
                dataSource={c.lines}
                columns={[
                  { title: '商品', dataIndex: 'name' },
                  { title: '数量', dataIndex: 'num', width: 80 },
                  { title: '单价', dataIndex: 'price', width: 120, render: (v: number) => yuan(v) },
                ]}
              />
              {c.shipment ? (
                <div style={{ marginTop: 8 }}>
                  物流：{c.shipment.company} {c.shipment.trackingNo}
                </div>
              ) : null}
            </Card>
          ))}
          <Card size="small" title="状态记录">
            {d.timeline.length === 0 ? (
              <Empty description="暂无记录" />
            ) : (
              <Timeline
                items={d.timeline.map((t) => ({
                  children: `${time(t.at)} ${t.statusName}${t.note ? `：${t.note}` : ''}`,
                }))}
              />
            )}
          </Card>
          {manage && d.status === CONFIRMING && d.refundRequest?.status !== 'submitted' ? (
            <CancelForm order={d} onDone={refresh} />
          ) : null}
        </Space>
      )}
    </Drawer>
  );
}

interface Filters {
  orderNo?: string;
  phone?: string;
  status?: string;
  createdAt?: [string, string];
  siteId?: number;
  current?: number;
}

/** Orders of the operator's sites: search, pages, detail, ship and cancel. */
export function OrdersPage() {
  const { siteId } = useSession();
  const action = useRef<ActionType>(null);
  const [open, setOpen] = useState<AdminOrder>();
  return (
    <>
      <ProTable<AdminOrder, Filters>
        form={searchForm()}
        headerTitle="订单管理"
        rowKey="orderNo"
        actionRef={action}
        params={{ siteId }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '没有符合条件的订单' }}
        request={(p) =>
          pageOf(adminApi.orders, {
            siteId: p.siteId,
            orderNo: p.orderNo?.trim() || undefined,
            phone: p.phone?.trim() || undefined,
            status: p.status === undefined ? undefined : Number(p.status),
            from: p.createdAt?.[0],
            to: p.createdAt?.[1],
            pageNum: p.current,
          })
        }
        columns={[
          { title: '订单号', dataIndex: 'orderNo', copyable: true },
          { title: '会员手机号', dataIndex: 'phone', hideInTable: true },
          { title: '站点', dataIndex: 'siteId', search: false, width: 80 },
          { title: '会员', dataIndex: 'memberPhone', search: false },
          {
            title: '状态',
            dataIndex: 'status',
            valueEnum: STATUS_ENUM,
            render: (_, r) => <Tag>{r.statusName}</Tag>,
          },
          { title: '实付', dataIndex: 'payAmount', search: false, render: (_, r) => yuan(r.payAmount) },
          {
            title: '下单时间',
            ...dayRangeColumn('createdAt'),
            render: (_, r) => time(r.createdAt),
          },
          detailColumn(setOpen),
        ]}
      />
      {open ? (
        <OrderDetailDrawer
          order={open}
          onClose={() => setOpen(undefined)}
          onChanged={() => action.current?.reload()}
        />
      ) : null}
    </>
  );
}
