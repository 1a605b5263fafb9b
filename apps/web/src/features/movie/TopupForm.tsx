import { sourceName, TOPUP_AMOUNTS, TOPUP_SOURCE } from '@sitemall/contract';
import { App, Button, Form, Input, Radio, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSiteLink } from '../../site/links.ts';
import { useSite } from '../../site/SiteProvider.tsx';
import { newRequestId, useTopup } from './api.ts';
import './movie.css';

/** Direct top-up: phone number and face value; paid on the pay page, topped up after payment. */
export function TopupForm() {
  const { site, formatMoney } = useSite();
  const link = useSiteLink();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const topup = useTopup();
  const [requestId, setRequestId] = useState(newRequestId);
  const source = sourceName(site?.supplyConfig ?? [], TOPUP_SOURCE)?.name ?? '直充';

  const submit = async (values: { phone: string; amount: number }) => {
    try {
      const order = await topup.mutateAsync({ ...values, requestId });
      navigate(link(`/selectPayWay?orderNo=${encodeURIComponent(order.orderNo)}`));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : '提交失败');
      setRequestId(newRequestId());
    }
  };

  return (
    <section className="page-card topup" data-testid="topup-form">
      <h2 className="page-card__title">
        话费充值 <Tag color="volcano">{source}</Tag>
      </h2>
      <Form layout="vertical" onFinish={submit} initialValues={{ amount: 50 }} requiredMark={false}>
        <Form.Item
          label="充值号码"
          name="phone"
          rules={[
            { required: true, message: '请输入手机号' },
            { pattern: /^1\d{10}$/, message: '请输入正确的 11 位手机号' },
          ]}
        >
          <Input maxLength={11} placeholder="请输入 11 位手机号" inputMode="numeric" />
        </Form.Item>
        <Form.Item label="充值面额" name="amount">
          <Radio.Group optionType="button" buttonStyle="solid">
            {TOPUP_AMOUNTS.map((a) => (
              <Radio.Button key={a} value={a}>
                {a} 元
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item noStyle shouldUpdate>
          {({ getFieldValue }) => (
            <p className="checkout__muted">
              应付：{formatMoney(Number(getFieldValue('amount')) * 100)}，支付后自动充值到账
            </p>
          )}
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={topup.isPending}>
          提交订单
        </Button>
      </Form>
    </section>
  );
}
