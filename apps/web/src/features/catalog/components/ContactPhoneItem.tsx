import { isMobile } from '@sitemall/contract';
import { Form, Input } from 'antd';
import { validIf } from '../../../ui/rules.ts';

const CONTACT_PHONE_RULES = [
  { required: true, message: '请输入手机号码' },
  validIf(isMobile, '请输入 11 位手机号码'),
];

/**
 * The `phone` field of the catalog's contact forms (merchant application and its look-up, the
 * service message): 11 digits starting with 1, checked when the field is left, not at each key.
 */
export function ContactPhoneItem({ label, placeholder }: { label?: string; placeholder?: string }) {
  return (
    <Form.Item label={label} name="phone" validateTrigger="onBlur" rules={CONTACT_PHONE_RULES}>
      <Input placeholder={placeholder} maxLength={11} inputMode="numeric" />
    </Form.Item>
  );
}
