import { ProTable } from '@ant-design/pro-components';
import { type AuditRow, adminApi } from '@sitemall/contract';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { pageOf } from '../api';
import { searchForm } from '../columns';
import { dayRangeColumn, enumOf, time } from '../format';
import { useSession } from '../session';

const ACTIONS: Record<string, string> = {
  'site.update': '修改站点',
  'order.ship': '发货',
  'order.cancel': '取消订单',
  'points.issue.draft': '积分发放草稿',
  'points.issue.submit': '提交发放单',
  'points.issue.approve': '复核发放',
  'points.issue.execute': '执行发放',
  'points.issue.reject': '驳回发放',
  'operator.assign': '分配角色',
  'seckill.session.save': '保存秒杀场次',
  'seckill.activity.create': '新建秒杀活动',
  'seckill.activity.update': '修改秒杀活动',
  'seckill.activity.end': '结束秒杀活动',
  'lottery.create': '新建抽奖活动',
  'lottery.update': '修改抽奖活动',
  'lottery.end': '结束抽奖活动',
  'lottery.prize.create': '添加奖品',
  'lottery.prize.update': '修改奖品',
  'lottery.white.import': '导入受邀用户',
  'lottery.white.add': '添加受邀用户',
  'lottery.white.remove': '移除受邀用户',
  'aftersale.approve': '售后审核通过',
  'aftersale.reject': '售后审核不通过',
  'aftersale.receive': '售后确认收货',
  'aftersale.refuseReturn': '售后拒绝收货',
  'aftersale.reply': '售后回复',
  'aftersale.reship': '换货发出',
  'aftersale.complete': '换货完成',
  'aftersale.refund.propose': '申请售后退款',
  'aftersale.refund.execute': '执行售后退款',
  'aftersale.refund.reject': '驳回售后退款',
  'aftersale.refund.retry': '重试微信退款',
  'approval.rule': '修改审批规则',
  'approval.approve': '订单审批通过',
  'approval.reject': '订单审批不通过',
  'member.freeze': '冻结会员',
  'member.unfreeze': '解冻会员',
  'member.sessions.revoke': '强制下线',
};

/** JSON as text: whatever an operator typed is shown, never interpreted. */
const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));
const valueText = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'string' ? value : json(value);
const fieldsOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** One line per field: its value before and after the write. */
function Change({ before, after }: { before: unknown; after: unknown }) {
  const was = fieldsOf(before);
  const now = fieldsOf(after);
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  if (keys.length === 0) return <>-</>;
  return (
    <div style={{ wordBreak: 'break-all', fontSize: 12 }}>
      {keys.map((key) => (
        <div key={key}>
          <Typography.Text type="secondary">{key}</Typography.Text>：{valueText(was[key])} →{' '}
          {valueText(now[key])}
        </div>
      ))}
    </div>
  );
}

const csvCell = (value: unknown) => {
  const text = typeof value === 'string' ? value : json(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

function exportCsv(rows: AuditRow[]) {
  const header = [
    '时间',
    '操作人',
    '站点',
    '操作',
    '对象',
    '对象ID',
    '修改前',
    '修改后',
    '原因',
    'IP',
    '请求ID',
  ];
  const lines = rows.map((r) =>
    [
      time(r.at),
      r.operatorName,
      r.siteId ?? '',
      r.action,
      r.entity,
      r.entityId,
      r.before,
      r.after,
      r.reason,
      r.ip,
      r.requestId,
    ]
      .map(csvCell)
      .join(','),
  );
  const blob = new Blob([`\uFEFF${[header.join(','), ...lines].join('\n')}\n`], {
    type: 'text/csv;charset=utf-8',
  });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `audit-${time(Date.now(), 'YYYYMMDD-HHmmss')}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

interface Filters {
  action?: string;
  operator?: string;
  at?: [string, string];
  siteId?: number;
  current?: number;
}

/** Every console write with before and after values, within the operator's audit scope. */
export function AuditPage() {
  const { siteId } = useSession();
  const [shown, setShown] = useState<AuditRow[]>([]);
  return (
    <ProTable<AuditRow, Filters>
      form={searchForm()}
      headerTitle="审计日志"
      rowKey="id"
      scroll={{ x: 1320 }}
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无审计记录' }}
      request={async (p) => {
        const page = await pageOf(adminApi.audit, {
          siteId: p.siteId,
          action: p.action,
          operator: p.operator?.trim() || undefined,
          from: p.at?.[0],
          to: p.at?.[1],
          pageNum: p.current,
        });
        setShown(page.data);
        return page;
      }}
      toolBarRender={() => [
        <Button key="export" disabled={shown.length === 0} onClick={() => exportCsv(shown)}>
          导出本页 CSV
        </Button>,
      ]}
      columns={[
        {
          title: '时间',
          ...dayRangeColumn('at'),
          render: (_, r) => time(r.at),
          width: 170,
        },
        { title: '操作人', dataIndex: 'operator', hideInTable: true, fieldProps: { placeholder: '用户名' } },
        { title: '操作人', dataIndex: 'operatorName', search: false, width: 100 },
        { title: '站点', dataIndex: 'siteId', search: false, width: 70 },
        {
          title: '操作',
          dataIndex: 'action',
          valueEnum: enumOf(ACTIONS),
          width: 120,
        },
        {
          title: '对象',
          dataIndex: 'entityId',
          search: false,
          render: (_, r) => `${r.entity} #${r.entityId}`,
        },
        {
          title: '修改内容（前 → 后）',
          dataIndex: 'after',
          search: false,
          width: 380,
          render: (_, r) => <Change before={r.before} after={r.after} />,
        },
        { title: '原因', dataIndex: 'reason', search: false, width: 160 },
        { title: 'IP', dataIndex: 'ip', search: false, width: 120 },
      ]}
    />
  );
}
