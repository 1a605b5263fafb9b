import { ModalForm, ProFormDigit } from '@ant-design/pro-components';
import { adminRefundApi } from '@sitemall/contract';
import { Button, Form } from 'antd';
import { call } from '../api';
import { toFen } from '../format';
import { useSitesWith } from '../session';
import { ReasonField, SiteField } from './promotions/shared';
import { useWrite } from './write';

interface PolicyForm {
  siteId: number;
  pointsIssueYuan: number;
  refundYuan: number;
  reason: string;
}

/**
 * A site's four-eyes thresholds (积分发放、订单退款), in yuan: above them a second operator with
 * the finance permission approves. Finance edits them with a reason (audited before/after).
 */
export function SitePolicyForm() {
  const write = useWrite();
  const sites = useSitesWith('finance:manage');
  const [form] = Form.useForm<PolicyForm>();
  const load = async (siteId: number | undefined) => {
    if (!siteId) return;
    const policy = await call(adminRefundApi.sitePolicy, { siteId });
    form.setFieldsValue({
      siteId,
      pointsIssueYuan: policy.pointsIssueThreshold / 100,
      refundYuan: policy.refundThreshold / 100,
    });
  };
  if (sites.options.length === 0) return null;
  return (
    <ModalForm<PolicyForm>
      title="复核阈值"
      width={480}
      form={form}
      trigger={<Button>复核阈值</Button>}
      modalProps={{ destroyOnClose: true }}
      onOpenChange={(open) => {
        if (open) void load(sites.initial);
      }}
      onFinish={(f) =>
        write(
          () =>
            call(adminRefundApi.saveSitePolicy, {
              siteId: f.siteId,
              pointsIssueThreshold: toFen(f.pointsIssueYuan),
              refundThreshold: toFen(f.refundYuan),
              reason: f.reason,
            }),
          '复核阈值已保存',
        )
      }
    >
      <SiteField permission="finance:manage" onChange={(siteId) => void load(siteId)} />
      <ProFormDigit
        name="pointsIssueYuan"
        label="积分发放复核阈值（元）"
        min={0}
        max={20_000_000}
        fieldProps={{ precision: 2 }}
        extra="单批发放总额超过此值，须另一位财务人员复核后发放"
        rules={[{ required: true, message: '请填写积分发放复核阈值' }]}
      />
      <ProFormDigit
        name="refundYuan"
        label="订单退款复核阈值（元）"
        min={0}
        max={20_000_000}
        fieldProps={{ precision: 2 }}
        extra="订单实付（积分 + 现金）超过此值时，取消订单转为退款申请，须另一位财务人员复核"
        rules={[{ required: true, message: '请填写订单退款复核阈值' }]}
      />
      <ReasonField label="修改原因" />
    </ModalForm>
  );
}
