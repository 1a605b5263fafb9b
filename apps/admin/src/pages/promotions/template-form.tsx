import {
  ModalForm,
  ProFormDateRangePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import {
  CLAIM_MODE_LABEL,
  type CreateTemplateBody,
  adminPromotionsApi as promo,
  SCOPE_LABEL,
  VOUCHER_KIND_LABEL,
} from '@sitemall/contract';
import { Button } from 'antd';
import { call, rowsOf } from '../../api';
import { optionsOf } from '../../format';
import { useWrite } from '../write';
import { fenOf, SiteField } from './shared';

interface TemplateForm {
  siteId: number;
  name: string;
  kind: CreateTemplateBody['kind'];
  amountYuan?: number;
  percent?: number;
  capYuan?: number;
  pointsYuan?: number;
  thresholdYuan?: number;
  scopeType: CreateTemplateBody['scopeType'];
  scopeIds?: string;
  stackGroup?: string;
  claimMode: CreateTemplateBody['claimMode'];
  code?: string;
  claimRange?: [string, string];
  validMode: 'fixed' | 'days';
  validRange?: [string, string];
  validDays?: number;
  totalLimit?: number;
  perMemberLimit?: number;
  budgetId?: number;
  refundReturns?: boolean;
  start: boolean;
  reason?: string;
}

/** The form's yuan and ranges as the contract's body (fen, days). */
function bodyOf(f: TemplateForm): CreateTemplateBody {
  const value =
    f.kind === 'percent' ? (f.percent ?? 0) : (fenOf(f.kind === 'amount' ? f.amountYuan : f.pointsYuan) ?? 0);
  return {
    siteId: f.siteId,
    name: f.name,
    kind: f.kind,
    value,
    cap: f.kind === 'percent' ? fenOf(f.capYuan) : undefined,
    threshold: fenOf(f.thresholdYuan),
    scopeType: f.scopeType,
    scopeIds:
      f.scopeType === 'all'
        ? undefined
        : (f.scopeIds ?? '')
            .split(/[\s,，]+/)
            .filter(Boolean)
            .map(Number),
    stackGroup: f.stackGroup || undefined,
    claimMode: f.claimMode,
    code: f.claimMode === 'code' ? f.code : undefined,
    claimFrom: f.claimRange?.[0],
    claimTo: f.claimRange?.[1],
    validMode: f.validMode,
    validFrom: f.validMode === 'fixed' ? f.validRange?.[0] : undefined,
    validTo: f.validMode === 'fixed' ? f.validRange?.[1] : undefined,
    validDays: f.validMode === 'days' ? f.validDays : undefined,
    totalLimit: f.totalLimit,
    perMemberLimit: f.perMemberLimit,
    budgetId: f.budgetId,
    refundReturns: f.refundReturns,
    start: f.start,
    reason: f.reason,
  };
}

/** Every field of a template (design section 1): rule, scope, windows, limits, claim mode, budget. */
export function CreateTemplateForm({ onDone }: { onDone: () => void }) {
  const write = useWrite();
  return (
    <ModalForm<TemplateForm>
      name="voucherTemplate"
      title="新建优惠券"
      width={640}
      layout="horizontal"
      labelCol={{ span: 6 }}
      trigger={<Button type="primary">新建优惠券</Button>}
      modalProps={{ destroyOnClose: true }}
      initialValues={{
        kind: 'amount',
        scopeType: 'all',
        claimMode: 'self',
        validMode: 'days',
        validDays: 30,
        perMemberLimit: 1,
        start: true,
      }}
      onFinish={async (form) => {
        return write(
          () => call(promo.createTemplate, bodyOf(form)),
          (created) => `已创建：${created.name}（${created.title}）`,
          onDone,
        );
      }}
    >
      <SiteField />
      <ProFormText name="name" label="名称" rules={[{ required: true, max: 40 }]} />
      <ProFormRadio.Group name="kind" label="类型" options={optionsOf(VOUCHER_KIND_LABEL)} />
      <ProFormDependency name={['kind']}>
        {({ kind }) =>
          kind === 'percent' ? (
            <>
              <ProFormDigit
                name="percent"
                label="折扣（减 %）"
                min={1}
                max={99}
                fieldProps={{ precision: 0, addonAfter: '%' }}
                extra="例如 10 表示 9 折"
                rules={[{ required: true }]}
              />
              <ProFormDigit name="capYuan" label="最多减（元）" min={0} fieldProps={{ precision: 2 }} />
            </>
          ) : (
            <ProFormDigit
              name={kind === 'amount' ? 'amountYuan' : 'pointsYuan'}
              label={kind === 'amount' ? '减免金额（元）' : '抵扣积分（元）'}
              min={0.01}
              fieldProps={{ precision: 2 }}
              rules={[{ required: true }]}
            />
          )
        }
      </ProFormDependency>
      <ProFormDigit
        name="thresholdYuan"
        label="使用门槛（元）"
        min={0}
        fieldProps={{ precision: 2 }}
        extra="0 或不填为无门槛"
      />
      <ProFormSelect name="scopeType" label="适用范围" options={optionsOf(SCOPE_LABEL)} />
      <ProFormDependency name={['scopeType']}>
        {({ scopeType }) =>
          scopeType !== 'all' ? (
            <ProFormTextArea
              name="scopeIds"
              label="范围 id"
              placeholder="分类、商品或供应渠道编号，逗号分隔"
              rules={[{ required: true }]}
            />
          ) : null
        }
      </ProFormDependency>
      <ProFormText name="stackGroup" label="叠加组" placeholder="default" extra="同组的券每单只能用一张" />
      <ProFormSelect name="claimMode" label="领取方式" options={optionsOf(CLAIM_MODE_LABEL)} />
      <ProFormDependency name={['claimMode']}>
        {({ claimMode }) =>
          claimMode === 'code' ? (
            <ProFormText
              name="code"
              label="兑换码"
              rules={[{ required: true, pattern: /^[A-Za-z0-9]{4,20}$/, message: '4–20 位字母或数字' }]}
            />
          ) : null
        }
      </ProFormDependency>
      <ProFormDateRangePicker name="claimRange" label="领取时间" fieldProps={{ format: 'YYYY-MM-DD' }} />
      <ProFormRadio.Group
        name="validMode"
        label="有效期"
        options={[
          { value: 'days', label: '领取后 N 天' },
          { value: 'fixed', label: '固定日期' },
        ]}
      />
      <ProFormDependency name={['validMode']}>
        {({ validMode }) =>
          validMode === 'fixed' ? (
            <ProFormDateRangePicker
              name="validRange"
              label="使用时间"
              fieldProps={{ format: 'YYYY-MM-DD' }}
              rules={[{ required: true }]}
            />
          ) : (
            <ProFormDigit name="validDays" label="有效天数" min={1} max={3650} rules={[{ required: true }]} />
          )
        }
      </ProFormDependency>
      <ProFormDigit name="totalLimit" label="发行总量" min={1} extra="不填为不限" />
      <ProFormDigit name="perMemberLimit" label="每人限领" min={1} max={1000} />
      <ProFormDependency name={['siteId']}>
        {({ siteId }) => (
          <ProFormSelect
            name="budgetId"
            label="活动预算"
            params={{ siteId }}
            request={async () =>
              siteId
                ? (await rowsOf(promo.budgets, { siteId })).map((b) => ({ value: b.id, label: b.name }))
                : []
            }
            placeholder="不限"
            allowClear
          />
        )}
      </ProFormDependency>
      <ProFormSwitch name="refundReturns" label="全额退款退券" />
      <ProFormSwitch name="start" label="立即启用" extra="关闭则保存为草稿" />
      <ProFormTextArea name="reason" label="备注" fieldProps={{ maxLength: 200 }} />
    </ModalForm>
  );
}
