import { IDENTITY_MSG, isMobile, isValidPassword, MSG, SMS_CODE_LENGTH } from '@sitemall/contract';
import type { FormRule } from 'antd';

/** Client-side checks of the identity forms, with the contract's messages (spec section 5). */

export const phoneRules: FormRule[] = [
  { required: true, message: '请输入手机号' },
  {
    validator: (_, value: string | undefined) =>
      !value || isMobile(value) ? Promise.resolve() : Promise.reject(new Error(IDENTITY_MSG.badPhone)),
  },
];

/** Letters and digits, 6-20 characters; the empty value is left to `required`. */
export const passwordRule: FormRule = {
  validator: (_, value: string | undefined) =>
    !value || isValidPassword(value) ? Promise.resolve() : Promise.reject(new Error(MSG.passwordRule)),
};

export const loginPasswordRules: FormRule[] = [{ required: true, message: '请输入密码' }, passwordRule];

const CODE_PATTERN = new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`);
export const smsCodeRules: FormRule[] = [
  { required: true, message: '请输入短信验证码' },
  {
    validator: (_, value: string | undefined) =>
      !value || CODE_PATTERN.test(value)
        ? Promise.resolve()
        : Promise.reject(new Error(IDENTITY_MSG.badCodeFormat)),
  },
];

/** The confirmation must equal the field `of` (两次密码不一致). */
export const sameAs =
  (of: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_, value: string | undefined) =>
      !value || value === getFieldValue(of)
        ? Promise.resolve()
        : Promise.reject(new Error(MSG.passwordsDiffer)),
  });
