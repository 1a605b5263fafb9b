/** Validation rules shared by server and storefront (spec section 5). */

export const MOBILE_PATTERN = /^1\d{10}$/;
export const isMobile = (value: string): boolean => MOBILE_PATTERN.test(value);

/** Plain digits, or a landline: 0 plus 2-3 digits, an optional dash, 7-8 digits. */
export const HOTLINE_PATTERN = /^(\d+|0\d{2,3}-?\d{7,8})$/;
export const isPlainHotline = (value: string): boolean => HOTLINE_PATTERN.test(value);

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{6,20}$/;
export const isValidPassword = (value: string): boolean => PASSWORD_PATTERN.test(value);

export const MSG = {
  oldPasswordRequired: '请输入原始密码',
  newPasswordRequired: '请输入新密码',
  confirmPasswordRequired: '请输入确认密码',
  passwordsDiffer: '两次密码不一致',
  passwordRule: '密码必须包含字母加数字，且处于6-20位之间',
  passwordChanged: '修改成功',
  addedToCart: '加入购物车成功',
  invitedOnly: '抱歉，此活动仅限受邀用户参加！',
  wrongBankUserId: '获取到的用户id不正确',
} as const;
