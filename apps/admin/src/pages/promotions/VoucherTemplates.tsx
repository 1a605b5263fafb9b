import { type ActionType, ModalForm, ProFormTextArea, ProTable } from '@ant-design/pro-components';
import {
  type AdminVoucherTemplate,
  CLAIM_MODE_LABEL,
  type IssueVouchersResult,
  adminPromotionsApi as promo,
  TEMPLATE_ACTION_LABEL,
  TEMPLATE_STATUS_LABEL,
  TEMPLATE_TRANSITIONS,
  type TemplateStatus,
} from '@sitemall/contract';
import { Alert, App, Button, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { searchForm, statusColumn } from '../../columns';
import { day } from '../../format';
import { useSession } from '../../session';
import { useRun } from '../write';
import { ReasonAction, ReasonField } from './shared';
import { CreateTemplateForm } from './template-form';

const STATUS_COLOR: Record<TemplateStatus, string> = {
  draft: 'default',
  active: 'green',
  paused: 'orange',
  ended: 'red',
};

const validText = (t: AdminVoucherTemplate) =>
  t.validMode === 'days' ? `领取后 ${t.validDays} 天` : `${day(t.validFrom)} 至 ${day(t.validTo)}`;

/** Issue to members typed as ids or phones; the result lists each row. */
function IssueForm({ template, onDone }: { template: AdminVoucherTemplate; onDone: () => void }) {
  const { message } = App.useApp();
  const [result, setResult] = useState<IssueVouchersResult>();
  return (
    <ModalForm<{ accounts: string; reason: string }>
      name="issueVouchers"
      title={`发放优惠券：${template.name}`}
      width={560}
      trigger={
        <Button type="link" size="small">
          发放
        </Button>
      }
      modalProps={{ destroyOnClose: true, afterClose: () => setResult(undefined) }}
      submitter={result ? { render: () => null } : undefined}
      onFinish={async (form) => {
        try {
          const answer = await call(promo.issueVouchers, {
            siteId: template.siteId,
            templateId: template.id,
            ...form,
          });
          setResult(answer);
          message.success(`已发放 ${answer.issued} 张`);
          onDone();
        } catch (e) {
          message.error((e as Error).message);
        }
        return false;
      }}
    >
      {result ? (
        <>
          <Alert
            type={result.failed ? 'warning' : 'success'}
            showIcon
            message={`发放成功 ${result.issued} 位，失败 ${result.failed} 位`}
            style={{ marginBottom: 12 }}
          />
          <Table
            size="small"
            rowKey="account"
            pagination={false}
            dataSource={result.rows}
            columns={[
              { title: '会员', dataIndex: 'account' },
              {
                title: '结果',
                dataIndex: 'ok',
                render: (ok: boolean, r) => <Tag color={ok ? 'green' : 'red'}>{r.detail}</Tag>,
              },
            ]}
          />
        </>
      ) : (
        <>
          <ProFormTextArea
            name="accounts"
            label="会员 id 或手机号"
            placeholder={'每行一个，也可用逗号分隔\n例如：13800000719'}
            rules={[{ required: true, message: '请填写会员 id 或手机号' }]}
            fieldProps={{ rows: 5, maxLength: 20_000 }}
          />
          <ReasonField label="发放原因" />
        </>
      )}
    </ModalForm>
  );
}

/** Voucher templates of the operator's sites: rule, claim mode, status, use so far; create, move, issue. */
export function VoucherTemplates() {
  const { siteId, can } = useSession();
  const action = useRef<ActionType>(null);
  const reload = () => action.current?.reload();
  const run = useRun(reload);
  return (
    <ProTable<AdminVoucherTemplate, { status?: TemplateStatus; name?: string; siteId?: number }>
      form={searchForm()}
      headerTitle="优惠券模板"
      rowKey="id"
      actionRef={action}
      params={{ siteId }}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: '暂无优惠券，点击右上角新建' }}
      scroll={{ x: 1300 }}
      request={(p) =>
        pageOf(promo.templates, { siteId: p.siteId, status: p.status, name: p.name, pageNum: p.current })
      }
      toolBarRender={() =>
        can('promotions:manage') ? [<CreateTemplateForm key="new" onDone={reload} />] : []
      }
      columns={[
        { title: '编号', dataIndex: 'id', search: false, width: 64 },
        { title: '站点', dataIndex: 'siteId', search: false, width: 64 },
        { title: '名称', dataIndex: 'name', ellipsis: true },
        { title: '规则', dataIndex: 'title', search: false },
        {
          title: '领取方式',
          dataIndex: 'claimMode',
          search: false,
          render: (_, t) => (
            <>
              {CLAIM_MODE_LABEL[t.claimMode as keyof typeof CLAIM_MODE_LABEL] ?? t.claimMode}
              {t.code ? <Tag style={{ marginLeft: 4 }}>{t.code}</Tag> : null}
            </>
          ),
        },
        statusColumn(TEMPLATE_STATUS_LABEL, STATUS_COLOR),
        {
          title: '已领 / 总量',
          dataIndex: 'issued',
          search: false,
          render: (_, t) => `${t.issued} / ${t.totalLimit ?? '不限'}`,
        },
        { title: '使用中', dataIndex: 'locked', search: false, width: 70 },
        { title: '已使用', dataIndex: 'used', search: false, width: 70 },
        { title: '待审核', dataIndex: 'pending', search: false, width: 70 },
        {
          title: '每人限领',
          dataIndex: 'perMemberLimit',
          search: false,
          render: (_, t) => t.perMemberLimit ?? '不限',
        },
        { title: '预算', dataIndex: 'budgetName', search: false, render: (_, t) => t.budgetName || '-' },
        { title: '有效期', dataIndex: 'validMode', search: false, render: (_, t) => validText(t) },
        {
          title: '操作',
          valueType: 'option',
          fixed: 'right',
          width: 170,
          render: (_, t) =>
            can('promotions:manage', t.siteId)
              ? [
                  ...TEMPLATE_TRANSITIONS.filter(([from]) => from === t.status).map(([, , act]) => (
                    <ReasonAction
                      key={act}
                      label={TEMPLATE_ACTION_LABEL[act]}
                      title={`${TEMPLATE_ACTION_LABEL[act]}优惠券：${t.name}`}
                      danger={act === 'end'}
                      onSubmit={({ reason }) =>
                        run(
                          () =>
                            call(promo.moveTemplate, {
                              siteId: t.siteId,
                              templateId: t.id,
                              action: act,
                              reason,
                            }),
                          `已${TEMPLATE_ACTION_LABEL[act]}`,
                        )
                      }
                    />
                  )),
                  t.status === 'active' && t.claimMode !== 'review' ? (
                    <IssueForm key="issue" template={t} onDone={reload} />
                  ) : null,
                ]
              : [],
        },
      ]}
    />
  );
}
