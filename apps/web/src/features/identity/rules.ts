import { IDENTITY_MSG, isMobile, isValidPassword, MSG, SMS_CODE_LENGTH } from '@sitemall/contract';
import type { FormRule } from 'antd';
import { validIf } from '../../ui/rules.ts';

/** Client-side checks of the identity forms, with the contract's messages (spec section 5). */

export const phoneRules: FormRule[] = [
  { required: true, message: '请输入手机号' },
  validIf(isMobile, IDENTITY_MSG.badPhone),
];

/** Letters and digits, 6-20 characters; the empty value is left to `required`. */
export const passwordRule: FormRule = validIf(isValidPassword, MSG.passwordRule);

export const loginPasswordRules: FormRule[] = [{ required: true, message: '请输入密码' }, passwordRule];

const CODE_PATTERN = new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`);
export const smsCodeRules: FormRule[] = [
  { required: true, message: '请输入短信验证码' },
  validIf((value) => CODE_PATTERN.test(value), IDENTITY_MSG.badCodeFormat),
];

/** The confirmation must equal the field `of` (两次密码不一致). */
export const sameAs =
  (of: string): FormRule =>
  ({ getFieldValue }) =>
    validIf((value) => value === getFieldValue(of), MSG.passwordsDiffer);
