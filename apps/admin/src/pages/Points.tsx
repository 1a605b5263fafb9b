import { type ActionType, ProTable } from '@ant-design/pro-components';
import { adminApi, ISSUE_STATUS_LABEL, type IssueBatch, type IssueStatus } from '@sitemall/contract';
import { Button, Input, Modal, Popconfirm, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../api';
import { searchForm, statusColumn } from '../columns';
import { time, yuan } from '../format';
import { useSession } from '../session';
import { IssueCsvForm, IssueOneForm, useSubmitDraft } from './issue-forms';
import { SitePolicyForm } from './SitePolicyForm';
import { useRun } from './write';

const STATUS_COLOR: Record<IssueStatus, string> = {
  draft: 'default',
  submitted: 'orange',
  approved: 'blue',
  executed: 'green',
  rejected: 'red',
};

function BatchRows({ batch }: { batch: IssueBatch }) {
  return (
    <Table
      size="small"
      rowKey="line"
      pagination={false}
      dataSource={[
        ...batch.rows,
        ...batch.refused.map((r) => ({
          ...r,
          account: '',
          amount: 0,
          note: '',
          requestKey: '',
          result: 'error' as const,
        })),
      ]}
      columns={[
        { title: '行', dataIndex: 'line', width: 60 },
        { title: '会员', dataIndex: 'account' },
        { title: '数额', dataIndex: 'amount', render: (v: number) => (v ? yuan(v) : '-') },
        { title: '备注', dataIndex: 'note' },
        {
          title: '结果',
          dataIndex: 'result',
          render: (v: string | undefined, r) =>
            v ? <Tag color={v === 'ok' ? 'green' : 'red'}>{r.detail ?? v}</Tag> : <Tag>未执行</Tag>,
        },
      ]}
    />
  );
}

/** Issue batches: drafts, the approval queue (four eyes above the site's threshold), results per row. */
export function PointsPage() {
  const { siteId, me, can } = useSession();
  const action = useRef<ActionType>(null);
  const submitDraft = useSubmitDraft();
  const [rejecting, setRejecting] = useState<IssueBatch>();
  const [reason, setReason] = useState('');
  const reload = () => action.current?.reload();
  const run = useRun(reload);
  return (
    <>
      <ProTable<IssueBatch, { status?: IssueStatus; siteId?: number }>
        form={searchForm()}
        headerTitle="积分发放单"
        rowKey="id"
        actionRef={action}
        params={{ siteId }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无发放单' }}
        request={(p) => pageOf(adminApi.batches, { siteId: p.siteId, status: p.status, pageNum: p.current })}
        toolBarRender={() => [
          ...(can('points:manage')
            ? [<IssueOneForm key="one" onDone={reload} />, <IssueCsvForm key="csv" onDone={reload} />]
            : []),
          <SitePolicyForm key="policy" />,
        ]}
        expandable={{ expandedRowRender: (b) => <BatchRows batch={b} /> }}
        columns={[
          { title: '编号', dataIndex: 'id', search: false, width: 70 },
          { title: '站点', dataIndex: 'siteId', search: false, width: 80 },
          statusColumn(ISSUE_STATUS_LABEL, STATUS_COLOR),
          { title: '文件', dataIndex: 'fileName', search: false, render: (_, b) => b.fileName || '单个发放' },
          { title: '行数', dataIndex: 'rowCount', search: false, width: 70 },
          {
            title: '总额',
            dataIndex: 'totalAmount',
            search: false,
            render: (_, b) => yuan(b.totalAmount),
          },
          {
            title: '需复核',
            dataIndex: 'needsApproval',
            search: false,
            render: (_, b) => (b.needsApproval ? '是' : '否'),
          },
          { title: '制单人', dataIndex: 'makerName', search: false },
          { title: '复核人', dataIndex: 'approverName', search: false },
          { title: '原因', dataIndex: 'reason', search: false, ellipsis: true },
          {
            title: '创建时间',
            dataIndex: 'createdAt',
            search: false,
            render: (_, b) => time(b.createdAt, 'MM-DD HH:mm'),
          },
          {
            title: '操作',
            valueType: 'option',
            render: (_, b) => [
              b.status === 'draft' && can('points:manage', b.siteId) ? (
                <Button key="submit" type="link" onClick={() => run(() => submitDraft(b), '已提交')}>
                  提交
                </Button>
              ) : null,
              b.status === 'submitted' && can('finance:manage', b.siteId) && b.makerId !== me.id ? (
                <Popconfirm
                  key="approve"
                  title={`复核通过并发放 ${yuan(b.totalAmount)}？`}
                  onConfirm={() => run(() => call(adminApi.approveBatch, { batchId: b.id }), '已复核并发放')}
                >
                  <Button type="link">复核通过</Button>
                </Popconfirm>
              ) : null,
              b.status === 'submitted' && can('finance:manage', b.siteId) ? (
                <Button key="reject" type="link" danger onClick={() => setRejecting(b)}>
                  驳回
                </Button>
              ) : null,
            ],
          },
        ]}
      />
      <Modal
        open={!!rejecting}
        title={`驳回发放单 #${rejecting?.id ?? ''}`}
        onCancel={() => setRejecting(undefined)}
        destroyOnClose
        onOk={async () => {
          const batch = rejecting;
          if (!batch) return;
          await run(() => call(adminApi.rejectBatch, { batchId: batch.id, reason }), '已驳回');
          setRejecting(undefined);
          setReason('');
        }}
      >
        <Input.TextArea
          placeholder="驳回原因"
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
    </>
  );
}
