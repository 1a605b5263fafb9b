import {
  type ActionType,
  ModalForm,
  ProFormDatePicker,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  adminProviderApi as api,
  RECON_ITEM_LABEL,
  type ProviderReconciliation as ReconciliationRow,
  type ReconItemKind,
} from '@sitemall/contract';
import { App, Button, Empty, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useRef } from 'react';
import { call, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { chinaNow, time, yuan } from '../../format';
import { useSession } from '../../session';

const ITEM_COLOR: Record<ReconItemKind, string> = {
  missingOurs: 'red',
  missingTheirs: 'orange',
  amountDiffers: 'purple',
};
const amountOf = (fen: number | null) => (fen === null ? '-' : yuan(fen));

/** Runs the reconciliation of a day again (the statement fetched anew), with a reason. */
function RunForm({ onDone }: { onDone: () => void }) {
  const { message } = App.useApp();
  return (
    <ModalForm<{ runDay: string; reason: string }>
      title="按日对账"
      width={460}
      trigger={<Button type="primary">执行对账</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={{ runDay: chinaNow().subtract(1, 'day').format('YYYY-MM-DD') }}
      onFinish={async (form) => {
        try {
          const rows = await call(api.reconcile, {
            day: dayjs(form.runDay).format('YYYY-MM-DD'),
            reason: form.reason,
          });
          const issues = rows.reduce((n, r) => n + r.missingOurs + r.missingTheirs + r.amountDiffers, 0);
          if (issues > 0) message.warning(`对账完成，发现 ${issues} 笔差异`);
          else message.success('对账完成，没有差异');
          onDone();
          return true;
        } catch (e) {
          message.error((e as Error).message);
          return false;
        }
      }}
    >
      <ProFormDatePicker
        // Not "day": the list's search form has a day field, and a label finds the first id.
        name="runDay"
        label="对账日期"
        rules={[{ required: true, message: '请选择日期' }]}
        fieldProps={{ disabledDate: (d: dayjs.Dayjs) => d.isAfter(chinaNow(), 'day') }}
      />
      <ProFormTextArea
        name="reason"
        label="操作原因"
        rules={[{ required: true, whitespace: true, message: '请填写操作原因' }]}
        fieldProps={{ maxLength: 200 }}
      />
    </ModalForm>
  );
}

/** The differences of one day and provider. */
function Items({ row }: { row: ReconciliationRow }) {
  return (
    <Table
      size="small"
      rowKey="reqId"
      dataSource={row.items}
      pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
      locale={{ emptyText: '没有差异' }}
      columns={[
        {
          title: '差异',
          dataIndex: 'kind',
          render: (k: ReconItemKind) => <Tag color={ITEM_COLOR[k]}>{RECON_ITEM_LABEL[k]}</Tag>,
        },
        { title: '请求号', dataIndex: 'reqId' },
        { title: '订单号', dataIndex: 'orderNo', render: (v: string | null) => v ?? '-' },
        { title: '站点', dataIndex: 'siteId', render: (v: number | null) => v ?? '-' },
        { title: '我方金额', dataIndex: 'ourAmount', render: amountOf },
        { title: '服务商金额', dataIndex: 'theirAmount', render: amountOf },
        { title: '我方状态', dataIndex: 'ourStatus', render: (v: string | null) => v ?? '-' },
      ]}
    />
  );
}

/** Daily reconciliation results (one row per day and provider) and the run button. */
export function Reconciliation() {
  const { can } = useSession();
  const action = useRef<ActionType>(null);
  return (
    <ProTable<ReconciliationRow, { day?: string }>
      form={searchForm()}
      headerTitle="服务商对账"
      rowKey="id"
      actionRef={action}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: <Empty description="还没有对账结果" /> }}
      toolBarRender={() =>
        can('finance:manage') ? [<RunForm key="run" onDone={() => action.current?.reload()} />] : []
      }
      request={(p) =>
        pageOf(api.reconciliations, {
          day: p.day ? dayjs(p.day).format('YYYY-MM-DD') : undefined,
          pageNum: (p as { current?: number }).current,
        })
      }
      expandable={{ expandedRowRender: (r) => <Items row={r} />, rowExpandable: (r) => r.items.length > 0 }}
      columns={[
        { title: '日期', dataIndex: 'day', valueType: 'date' },
        { title: '服务商', dataIndex: 'providerName', search: false },
        { title: '一致', dataIndex: 'matched', search: false },
        {
          title: '我方缺失',
          dataIndex: 'missingOurs',
          search: false,
          render: (_, r) => <Tag color={r.missingOurs ? 'red' : 'default'}>{r.missingOurs}</Tag>,
        },
        {
          title: '服务商缺失',
          dataIndex: 'missingTheirs',
          search: false,
          render: (_, r) => <Tag color={r.missingTheirs ? 'orange' : 'default'}>{r.missingTheirs}</Tag>,
        },
        {
          title: '金额不一致',
          dataIndex: 'amountDiffers',
          search: false,
          render: (_, r) => <Tag color={r.amountDiffers ? 'purple' : 'default'}>{r.amountDiffers}</Tag>,
        },
        { title: '服务商金额', dataIndex: 'theirTotal', search: false, render: (_, r) => yuan(r.theirTotal) },
        { title: '我方金额', dataIndex: 'ourTotal', search: false, render: (_, r) => yuan(r.ourTotal) },
        { title: '执行人', dataIndex: 'ranBy', search: false },
        { title: '执行时间', dataIndex: 'ranAt', search: false, render: (_, r) => time(r.ranAt) },
      ]}
    />
  );
}
