/** Business constants of the spec, section 9 (and the tables of sections 3 and 4). */

export const PAGE_SIZE = 10;
export const SMS_RESEND_SECONDS = 60;
export const CART_SAVE_DEBOUNCE_MS = 600;
export const ACTIVITY_TICK_MS = 1000;
export const PART_LOAD_TIMEOUT_MS = 120_000;
export const GET_NEW_DATA_Y = 100;
export const MERCHANT_CODE = 10001;
export const RETURN_WINDOW_DAYS = 7;
export const EXCHANGE_WINDOW_DAYS = 15;
export const MERCHANT_FINES = [100, 200, 500] as const;

export const LOGIN_WAY = { password: 1, smsCode: 2, account: 3 } as const;
export type LoginWay = (typeof LOGIN_WAY)[keyof typeof LOGIN_WAY];

/** Route of the login page for each login way (section 2, /login). */
export const LOGIN_ROUTE: Record<LoginWay, string> = {
  1: '/PwdLogin',
  2: '/CodeLogin',
  3: '/AccountLogin',
};

export const ACTIVITY_TYPE = { preferential: 1, bargain: 2 } as const;
export const DEFAULT_ACTIVITY_CODE = 'cj001';

/** pack: gift cards first (smallest balance first), the rest in points (issue 13). */
export const PAY_WAY = { wechatPc: 'wx_pc', points: 'ye', pack: 'pack' } as const;
export const PAY_WAYS = [PAY_WAY.wechatPc, PAY_WAY.points, PAY_WAY.pack] as const;
export type PayWay = (typeof PAY_WAYS)[number];

/** Envelope codes (section 8, 9). */
export const CODE = {
  ok: 200,
  /** Some upstream answers say 0 for success; the client rewrites it to 200. */
  okLegacy: 0,
  badRequest: 400,
  unauthorized: 401,
  tokenInvalid: 416,
  /**
   * A normal miss, such as a product that does not exist or is withdrawn: a business answer the
   * request layer treats as normal (section 4 lists 222 among them), not a server fault.
   */
  notFound: 222,
  failure: 500,
} as const;

/** Codes the client treats as normal: no warning toast (section 4). */
export const QUIET_CODES: readonly number[] = [400, 222, 200, 0, 1];
/** Codes that mean "log in again" (section 4, 8). */
export const LOGIN_CODES: readonly number[] = [401, 416];

export const ORDER_STATUS_LABEL: Record<number, string> = {
  0: '待付款',
  11: '待审批',
  12: '待审批',
  15: '待付款',
  21: '审批不通过',
  22: '待收货',
  23: '已完成',
  24: '确认中',
  4: '订单已撤回',
  31: '售后',
  41: '已过期取消',
  51: '订单失败',
};

export const GIFT_STATUS_LABEL: Record<number, string> = {
  0: '待领取',
  1: '已领取',
  [-1]: '已过期',
};

/** Activity status from the current time against start and end (section 4). */
export const ACTIVITY_STATUS = { notStarted: -1, running: 0, ended: 1 } as const;
