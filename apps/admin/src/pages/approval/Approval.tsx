import {
  type ActionType,
  ProCard,
  ProForm,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormTextArea,
  ProTable,
} from '@ant-design/pro-components';
import {
  type AdminOrder,
  adminApprovalApi as api,
  type BodyOf,
  fenToYuan,
  SOURCE_TYPES,
} from '@sitemall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Popconfirm, Space, Spin, Tag } from 'antd';
import { useRef } from 'react';
import { call, pageOf } from '../../api';
import { time, toFen, yuan } from '../../format';
import { useSession } from '../../session';
import { TextAction } from '../TextAction';

const SOURCE_OPTIONS = [...new Map(SOURCE_TYPES.map((s) => [s.source, `${s.source} ${s.name}`]))].map(
  ([value, label]) => ({ value, label }),
);

interface RuleForm {
  isEnabled: boolean;
  minAmountYuan: number;
  minQty?: number | null;
  sources: number[];
  vipLevelIds: number[];
  levels: 1 | 2;
  expireHours: number;
  reason: string;
}

/** The site's approval rule: which orders wait for approvers, how many levels, how long. */
function RuleCard({ siteId }: { siteId: number }) {
  const { can } = useSession();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = ['approval-rule', siteId];
  const rule = useQuery({ queryKey: key, queryFn: () => call(api.rule, { siteId }) });
  const save = useMutation({
    mutationFn: (body: BodyOf<typeof api.saveRule>) => call(api.saveRule, body),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      message.success('审批规则已保存');
    },
    onError: (e) => message.error((e as Error).message),
  });
  if (!rule.data)
    return (
      <ProCard title="审批规则">
        <Spin tip="加载中">
          <div style={{ height: 120 }} />
        </Spin>
      </ProCard>
    );
  const r = rule.data;
  return (
    <ProCard title="审批规则" subTitle={r.updatedAt ? `最近修改 ${time(r.updatedAt)}` : '尚未设置'}>
      <ProForm<RuleForm>
        key={`${siteId}-${r.updatedAt}`}
        layout="horizontal"
        labelCol={{ span: 5 }}
        wrapperCol={{ span: 14 }}
        disabled={!can('orders:manage', siteId)}
        initialValues={{
          isEnabled: r.isEnabled,
          minAmountYuan: Number(fenToYuan(r.minAmount)),
          minQty: r.minQty,
          sources: r.sources,
          vipLevelIds: r.vipLevelIds,
          levels: r.levels as 1 | 2,
          expireHours: r.expireHours,
        }}
        submitter={{ searchConfig: { submitText: '保存规则' }, resetButtonProps: false }}
        onFinish={async (v) => {
          await save.mutateAsync({
            siteId,
            isEnabled: v.isEnabled,
            minAmount: toFen(v.minAmountYuan ?? 0),
            minQty: v.minQty ?? null,
            sources: v.sources ?? [],
            vipLevelIds: v.vipLevelIds ?? [],
            levels: v.levels,
            expireHours: v.expireHours,
            reason: v.reason,
          });
          return true;
        }}
      >
        <ProFormSwitch name="isEnabled" label="启用审批" />
        <ProFormDigit
          name="minAmountYuan"
          label="订单金额达到"
          fieldProps={{ precision: 2, addonAfter: '元' }}
          min={0}
          rules={[{ required: true }]}
        />
        <ProFormDigit
          name="minQty"
          label="或商品件数达到"
          fieldProps={{ precision: 0, addonAfter: '件' }}
          min={1}
        />
        <ProFormSelect name="sources" label="或含以下供货来源" mode="multiple" options={SOURCE_OPTIONS} />
        <ProFormSelect
          name="vipLevelIds"
          label="仅限会员分组"
          mode="multiple"
          placeholder="不限（全部会员）"
          options={r.vipLevels.map((l) => ({ value: l.id, label: l.name }))}
        />
        <ProFormRadio.Group
          name="levels"
          label="审批级数"
          options={[
            { value: 1, label: '一级审批' },
            { value: 2, label: '两级审批（须两人）' },
          ]}
        />
        <ProFormDigit
          name="expireHours"
          label="超时未审批取消"
          fieldProps={{ precision: 0, addonAfter: '小时' }}
          min={1}
          max={720}
          rules={[{ required: true }]}
        />
        <ProFormTextArea
          name="reason"
          label="修改原因"
          rules={[{ required: true, whitespace: true, message: '请填写操作原因' }]}
          fieldProps={{ maxLength: 200 }}
        />
      </ProForm>
    </ProCard>
  );
}

/** Orders waiting in 11/12 on the operator's sites, approved or rejected here. */
function Queue() {
  const { siteId, can } = useSession();
  const { message } = App.useApp();
  const action = useRef<ActionType>(null);
  const decide = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSuccess: () => message.success('已处理'),
    onError: (e) => message.error((e as Error).message),
    onSettled: () => action.current?.reload(),
  });
  return (
    <ProTable<AdminOrder, { siteId?: number }>
      headerTitle="待审批订单"
      rowKey="orderNo"
      actionRef={action}
      search={false}
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: <Empty description="没有待审批的订单" /> }}
      request={(p) => pageOf(api.queue, { siteId: p.siteId, pageNum: p.current })}
      columns={[
        { title: '订单号', dataIndex: 'orderNo', copyable: true },
        { title: '站点', dataIndex: 'siteId', width: 70 },
        { title: '会员', dataIndex: 'memberPhone' },
        { title: '金额', dataIndex: 'payAmount', render: (_, r) => yuan(r.payAmount) },
        {
          title: '审批级',
          dataIndex: 'status',
          render: (_, r) => (
            <Tag color={r.status === 12 ? 'purple' : 'orange'}>{r.status === 12 ? '二级' : '一级'}</Tag>
          ),
        },
        { title: '下单时间', dataIndex: 'createdAt', render: (_, r) => time(r.createdAt) },
        {
          title: '操作',
          valueType: 'option',
          render: (_, r) =>
            can('orders:manage', r.siteId)
              ? [
                  <Popconfirm
                    key="ok"
                    title="确认审批通过？"
                    onConfirm={() =>
                      decide.mutateAsync(() =>
                        call(api.approve, {
                          siteId: r.siteId,
                          orderNo: r.orderNo,
                          status: r.status as 11 | 12,
                        }),
                      )
                    }
                  >
                    <Button type="link">通过</Button>
                  </Popconfirm>,
                  <TextAction
                    key="no"
                    label="不通过"
                    title={`审批不通过：${r.orderNo}`}
                    field="原因"
                    danger
                    link
                    onSubmit={(reason) =>
                      decide.mutateAsync(() =>
                        call(api.reject, { siteId: r.siteId, orderNo: r.orderNo, reason }),
                      )
                    }
                  />,
                ]
              : [],
        },
      ]}
    />
  );
}

/** Order approval: the rule of the chosen site and the queue of waiting orders. */
export function ApprovalPage() {
  const { siteId } = useSession();
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Queue />
      {siteId ? (
        <RuleCard siteId={siteId} />
      ) : (
        <Alert type="info" showIcon message="在右上角选择一个站点以查看和修改它的审批规则" />
      )}
    </Space>
  );
}
