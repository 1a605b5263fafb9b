import { type ActionType, ProTable } from '@ant-design/pro-components';
import {
  adminRefundApi,
  REFUND_REQUEST_STATUS_LABEL,
  type RefundRequest,
  type RefundRequestStatus,
} from '@sitemall/contract';
import { Button, Input, Modal, Popconfirm } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../api';
import { searchForm, statusColumn } from '../columns';
import { time, yuan } from '../format';
import { useSession } from '../session';
import { SitePolicyForm } from './SitePolicyForm';
import { useRun } from './write';

export const REFUND_STATUS_COLOR: Record<RefundRequestStatus, string> = {
  submitted: 'orange',
  approved: 'blue',
  executed: 'green',
  rejected: 'red',
};

/**
 * 待审批退款: the order refunds above a site's threshold, proposed by an order operator; a
 * finance operator other than the proposer approves (the order is refunded then, once) or
 * rejects with a reason.
 */
export function RefundRequestsPage() {
  const { siteId, me, can } = useSession();
  const action = useRef<ActionType>(null);
  const [rejecting, setRejecting] = useState<RefundRequest>();
  const [reason, setReason] = useState('');
  const run = useRun(() => action.current?.reload());
  return (
    <>
      <ProTable<RefundRequest, { status?: RefundRequestStatus; orderNo?: string; siteId?: number }>
        headerTitle="待审批退款"
        rowKey="id"
        actionRef={action}
        params={{ siteId }}
        form={searchForm({ initialValues: { status: 'submitted' } })}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '没有退款申请' }}
        scroll={{ x: 1240 }}
        request={(p) =>
          pageOf(adminRefundApi.refundRequests, {
            siteId: p.siteId,
            status: p.status,
            orderNo: p.orderNo?.trim() || undefined,
            pageNum: p.current,
          })
        }
        toolBarRender={() => [<SitePolicyForm key="policy" />]}
        columns={[
          { title: '编号', dataIndex: 'id', search: false, width: 64 },
          { title: '站点', dataIndex: 'siteId', search: false, width: 64 },
          { title: '订单号', dataIndex: 'orderNo', copyable: true, width: 240 },
          { ...statusColumn(REFUND_REQUEST_STATUS_LABEL, REFUND_STATUS_COLOR), width: 90 },
          {
            title: '退款金额',
            dataIndex: 'amount',
            search: false,
            width: 110,
            render: (_, r) => yuan(r.amount),
          },
          { title: '申请原因', dataIndex: 'reason', search: false, ellipsis: true },
          { title: '申请人', dataIndex: 'makerName', search: false, width: 100 },
          {
            title: '复核人',
            dataIndex: 'approverName',
            search: false,
            width: 100,
            render: (_, r) => r.approverName || '-',
          },
          {
            title: '驳回原因',
            dataIndex: 'decisionReason',
            search: false,
            ellipsis: true,
            render: (_, r) => r.decisionReason || '-',
          },
          {
            title: '申请时间',
            dataIndex: 'createdAt',
            search: false,
            width: 110,
            render: (_, r) => time(r.createdAt, 'MM-DD HH:mm'),
          },
          {
            title: '操作',
            valueType: 'option',
            width: 170,
            fixed: 'right',
            render: (_, r) =>
              r.status === 'submitted' && can('finance:manage', r.siteId)
                ? [
                    r.makerId === me.id ? (
                      <span key="own" style={{ color: 'rgba(0,0,0,0.45)' }}>
                        本人申请，须他人复核
                      </span>
                    ) : (
                      <Popconfirm
                        key="approve"
                        title={`复核通过并退款 ${yuan(r.amount)}？`}
                        description={`订单 ${r.orderNo} 将取消，按原支付方式退回`}
                        okText="复核通过"
                        cancelText="取消"
                        onConfirm={() =>
                          run(
                            () => call(adminRefundApi.approveRefund, { requestId: r.id }),
                            '已复核，订单已退款',
                          )
                        }
                      >
                        <Button type="link">复核通过</Button>
                      </Popconfirm>
                    ),
                    r.makerId === me.id ? null : (
                      <Button key="reject" type="link" danger onClick={() => setRejecting(r)}>
                        驳回
                      </Button>
                    ),
                  ]
                : [],
          },
        ]}
      />
      <Modal
        open={!!rejecting}
        title={`驳回退款申请 #${rejecting?.id ?? ''}`}
        okText="驳回"
        okButtonProps={{ danger: true, disabled: !reason.trim() }}
        onCancel={() => setRejecting(undefined)}
        destroyOnClose
        onOk={async () => {
          const request = rejecting;
          if (!request) return;
          await run(
            () => call(adminRefundApi.rejectRefund, { requestId: request.id, reason }),
            '已驳回退款申请',
          );
          setRejecting(undefined);
          setReason('');
        }}
      >
        <Input.TextArea
          aria-label="驳回原因"
          placeholder="驳回原因（必填）"
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
    </>
  );
}
