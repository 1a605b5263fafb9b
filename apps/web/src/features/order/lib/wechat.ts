import { formatMoney, WECHAT_CODE_STATE, type WechatCode } from '@sitemall/contract';

/** Fen for text that prints its own unit beside it ("¥", "… 积分"): grouped, two decimals. */
export const fenText = (fen: number): string => formatMoney(fen);

/**
 * The points this order can use: the balance plus what the order's open code holds (a hold is
 * debited from the balance; a new code or a points payment releases it first).
 */
export const availablePoints = (balance: number, openCode: WechatCode | undefined): number =>
  balance + (openCode?.state === WECHAT_CODE_STATE.open ? openCode.pointsAmount : 0);

/**
 * The most points (fen) a mixed payment may hold: the balance, but at least 1 fen is left for
 * WeChat to pay (ORDER_MSG.pointsPartInvalid), never below 0.
 */
export const maxPointsPart = (balance: number, payAmount: number): number =>
  Math.max(0, Math.min(balance, payAmount - 1));

/** An InputNumber value in yuan (two decimals) as an integer of fen; null when not a number. */
export function yuanToFen(value: number | string | null | undefined): number | null {
  const yuan = typeof value === 'string' ? Number(value.trim() || Number.NaN) : value;
  if (typeof yuan !== 'number' || !Number.isFinite(yuan)) return null;
  return Math.round(yuan * 100);
}

/** Why the points part cannot be sent, or null when it can. */
export function pointsPartError(pointsFen: number | null, maxFen: number, cashUnit: string): string | null {
  if (pointsFen === null) return '请输入积分抵扣数额';
  if (pointsFen < 0) return '积分抵扣数额不能小于 0';
  if (pointsFen > maxFen) return `最多可抵扣 ${fenText(maxFen)} ${cashUnit}`.trim();
  return null;
}

/** The summary of a payment: e.g. `积分抵扣 50.00 积分 + 微信支付 ¥50.00`, or `微信支付 ¥100.00`. */
export function splitSummary(part: { pointsAmount: number; cashAmount: number }, cashUnit: string): string {
  const cash = `微信支付 ¥${fenText(part.cashAmount)}`;
  if (part.pointsAmount <= 0) return cash;
  return `${`积分抵扣 ${fenText(part.pointsAmount)} ${cashUnit}`.trim()} + ${cash}`;
}

/** The code can still be scanned and paid: open and not past its expiry. */
export const isCodeUsable = (code: WechatCode, nowMs: number): boolean =>
  code.state === WECHAT_CODE_STATE.open && Date.parse(code.expireTime) > nowMs;

/**
 * What the QR panel says about a code that cannot be paid, and whether a new code helps
 * (refunding/refunded: the order ended after a late payment; a new code cannot fix that).
 */
export function codeProblem(
  code: WechatCode,
  nowMs: number,
): { title: string; text: string; canRefresh: boolean } | null {
  if (isCodeUsable(code, nowMs) || code.state === WECHAT_CODE_STATE.paid) return null;
  if (code.state === WECHAT_CODE_STATE.failed)
    return { title: '支付失败', text: '支付失败，请重新获取二维码', canRefresh: true };
  if (code.state === WECHAT_CODE_STATE.refunding || code.state === WECHAT_CODE_STATE.refunded)
    return { title: '订单已结束', text: '订单已结束，微信付款将原路退回', canRefresh: false };
  return { title: '二维码已过期', text: '二维码已过期，请刷新', canRefresh: true };
}
