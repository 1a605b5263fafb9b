import { ProFormText } from '@ant-design/pro-components';

/** The parcel an operator sends out (an order's shipment, an exchange's reship): carrier and waybill. */
export function ParcelFields() {
  return (
    <>
      <ProFormText
        name="company"
        label="物流公司"
        initialValue="顺丰速运"
        rules={[{ required: true, max: 40 }]}
      />
      <ProFormText
        name="trackingNo"
        label="运单号"
        rules={[
          { required: true, pattern: /^[A-Za-z0-9-]{6,40}$/, message: '运单号须为 6-40 位字母、数字或 -' },
        ]}
      />
    </>
  );
}
