import type { RefundInput } from './refunds';
import { paramError } from './refusal';
import type { PrepayInput } from './trades';

/**
 * Field checks of the v3 request bodies, with WeChat's limits (pay.weixin.qq.com/doc/v3,
 * Native 下单 / 申请退款). Each refusal names the field, as WeChat's PARAM_ERROR messages do.
 */
type Json = Record<string, unknown>;

export const OUT_TRADE_NO = /^[A-Za-z0-9_\-|*]{6,32}$/;
const OUT_REFUND_NO = /^[A-Za-z0-9_\-|*@]{1,64}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export function jsonObject(raw: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw paramError('请求体不是有效的 JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw paramError('请求体必须是 JSON 对象');
  }
  return value as Json;
}

function text(body: Json, field: string, limits: { max: number; optional?: boolean }): string | undefined {
  const value = body[field];
  if (value === undefined && limits.optional) return undefined;
  if (typeof value !== 'string' || value === '')
    throw paramError(`输入源“/body/${field}”映射到字段“${field}”必填性规则校验失败，此字段为必填项`);
  if ([...value].length > limits.max) throw paramError(`${field} 长度超过 ${limits.max}`);
  return value;
}

const required = (body: Json, field: string, max: number) => text(body, field, { max }) as string;

/** The mchid a body or query names must be the one that signed the request. */
export function sameMerchant(mchid: unknown, signedBy: string): void {
  if (typeof mchid !== 'string' || mchid === '') throw paramError('缺少参数 mchid');
  if (mchid !== signedBy) throw paramError('mchid 与请求签名中的商户号不一致');
}

function notifyUrl(body: Json, optional: boolean): string | undefined {
  const url = text(body, 'notify_url', { max: 256, optional });
  if (url === undefined) return undefined;
  // WeChat refuses a callback with parameters: the event carries everything the merchant needs.
  if (!/^https?:\/\/[^\s?#]+$/.test(url) || !URL.canParse(url)) {
    throw paramError('notify_url 格式不正确：须为 http(s) 地址且不能携带参数');
  }
  return url;
}

function amountOf(body: Json, fields: string[]): Record<string, number> {
  const amount = body.amount;
  if (amount === null || typeof amount !== 'object' || Array.isArray(amount))
    throw paramError('缺少参数 amount');
  const { currency } = amount as Json;
  if (currency !== undefined && currency !== 'CNY') throw paramError('amount.currency 仅支持 CNY');
  const out: Record<string, number> = {};
  for (const field of fields) {
    const value = (amount as Json)[field];
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw paramError(`amount.${field} 须为不小于 1 的整数（单位：分）`);
    }
    out[field] = value as number;
  }
  return out;
}

export function prepayInput(body: Json, signedBy: string): PrepayInput {
  sameMerchant(body.mchid, signedBy);
  const outTradeNo = required(body, 'out_trade_no', 32);
  if (!OUT_TRADE_NO.test(outTradeNo)) throw paramError('out_trade_no 须为 6-32 位字母、数字或 _-|*');
  const timeExpire = text(body, 'time_expire', { max: 64, optional: true });
  if (timeExpire !== undefined) {
    if (!RFC3339.test(timeExpire) || Number.isNaN(Date.parse(timeExpire))) {
      throw paramError('time_expire 须为 RFC 3339 格式，如 2026-11-21T13:29:35+08:00');
    }
    if (Date.parse(timeExpire) <= Date.now()) throw paramError('time_expire 早于当前时间');
  }
  const attach = text(body, 'attach', { max: 128, optional: true });
  return {
    appid: required(body, 'appid', 32),
    mchid: signedBy,
    description: required(body, 'description', 127),
    outTradeNo,
    ...(timeExpire ? { timeExpire } : {}),
    notifyUrl: notifyUrl(body, false) as string,
    ...(attach !== undefined ? { attach } : {}),
    total: amountOf(body, ['total']).total as number,
  };
}

export function refundInput(body: Json, signedBy: string): RefundInput {
  const outTradeNo = text(body, 'out_trade_no', { max: 32, optional: true });
  const transactionId = text(body, 'transaction_id', { max: 32, optional: true });
  if (!outTradeNo && !transactionId) throw paramError('out_trade_no 与 transaction_id 须至少填写一个');
  const outRefundNo = required(body, 'out_refund_no', 64);
  if (!OUT_REFUND_NO.test(outRefundNo)) throw paramError('out_refund_no 须为 1-64 位字母、数字或 _-|*@');
  const reason = text(body, 'reason', { max: 80, optional: true });
  const url = notifyUrl(body, true);
  const { refund, total } = amountOf(body, ['refund', 'total']) as { refund: number; total: number };
  if (refund > total) throw paramError('amount.refund 不能大于 amount.total');
  return {
    mchid: signedBy,
    ...(outTradeNo ? { outTradeNo } : { transactionId: transactionId as string }),
    outRefundNo,
    ...(reason ? { reason } : {}),
    ...(url ? { notifyUrl: url } : {}),
    refund,
    total,
  };
}
