import { type ActionType, ModalForm, ProFormDigit, ProFormText, ProTable } from '@ant-design/pro-components';
import { type AdminBudget, adminPromotionsApi as promo } from '@sitemall/contract';
import { Button, Progress } from 'antd';
import { useRef } from 'react';
import { call, pageOf } from '../../api';
import { yuan } from '../../format';
import { useSession } from '../../session';
import { useRun, useWrite } from '../write';
import { fenOf, ReasonAction, ReasonField, SiteField } from './shared';

function CreateBudgetForm({ onDone }: { onDone: () => void }) {
  const write = useWrite();
  return (
    <ModalForm<{ siteId: number; name: string; limitYuan: number; reason: string }>
      name="createBudget"
      title="新建活动预算"
      width={480}
      trigger={<Button type="primary">新建预算</Button>}
      modalProps={{ destroyOnClose: true }}
      onFinish={async (f) => {
        return write(
          () =>
            call(promo.createBudget, {
              siteId: f.siteId,
              name: f.name,
              limitAmount: fenOf(f.limitYuan) ?? 0,
              reason: f.reason,
            }),
          '已创建',
          onDone,
        );
      }}
    >
      <SiteField />
      <ProFormText name="name" label="预算名称" rules={[{ required: true, max: 40 }]} />
      <ProFormDigit
        name="limitYuan"
        label="额度（元）"
        min={0.01}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true }]}
      />
      <ReasonField />
    </ModalForm>
  );
}

/** Budgets per site or campaign: the limit, what the vouchers backed by it have reserved so far. */
export function Budgets() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const reload = () => action.current?.reload();
  const run = useRun(reload);
  return (
    <ProTable<AdminBudget>
      headerTitle="活动预算"
      rowKey="id"
      actionRef={action}
      params={{ siteId }}
      search={false}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无活动预算' }}
      request={(p) => pageOf(promo.budgets, { siteId: p.siteId, pageNum: p.current })}
      toolBarRender={() => (can('promotions:manage') ? [<CreateBudgetForm key="new" onDone={reload} />] : [])}
      columns={[
        { title: '编号', dataIndex: 'id', width: 70 },
        { title: '站点', dataIndex: 'siteId', width: 70 },
        { title: '名称', dataIndex: 'name' },
        { title: '额度', dataIndex: 'limitAmount', render: (_, b) => yuan(b.limitAmount) },
        { title: '已使用', dataIndex: 'used', render: (_, b) => yuan(b.used) },
        {
          title: '使用率',
          dataIndex: 'rate',
          width: 200,
          render: (_, b) => {
            const pct = Math.round((b.used / b.limitAmount) * 100);
            return <Progress percent={pct} size="small" status={pct >= 80 ? 'exception' : 'normal'} />;
          },
        },
        { title: '关联优惠券', dataIndex: 'templates', width: 100 },
        {
          title: '操作',
          valueType: 'option',
          render: (_, b) =>
            can('promotions:manage', b.siteId)
              ? [
                  <ReasonAction<{ limitYuan: number }>
                    key="limit"
                    label="调整额度"
                    title={`调整预算额度：${b.name}`}
                    initialValues={{ limitYuan: b.limitAmount / 100 }}
                    onSubmit={({ limitYuan, reason }) =>
                      run(
                        () =>
                          call(promo.updateBudget, {
                            siteId: b.siteId,
                            budgetId: b.id,
                            limitAmount: fenOf(limitYuan) ?? 0,
                            reason,
                          }),
                        '已保存',
                      )
                    }
                  >
                    <ProFormDigit
                      name="limitYuan"
                      label="新额度（元）"
                      min={0.01}
                      fieldProps={{ precision: 2 }}
                      rules={[{ required: true }]}
                    />
                  </ReasonAction>,
                ]
              : [],
        },
      ]}
    />
  );
}
