import { randomInt } from 'node:crypto';
import type { TradeState, Transaction } from '../../modules/payment/wechatpay/client';
import { beijingTime } from '../../modules/payment/wechatpay/protocol';
import { orderClosed, orderNotExist, orderPaid, WechatpayRefusal } from './refusal';

/** A Native prepay request as the merchant sent it, already checked field by field. */
export interface PrepayInput {
  appid: string;
  mchid: string;
  description: string;
  outTradeNo: string;
  timeExpire?: string;
  notifyUrl: string;
  attach?: string;
  total: number;
}

export interface TradeRecord extends PrepayInput {
  /** The id in code_url (weixin://wxpay/bizpayurl?pr=…): what the phone scans. */
  pr: string;
  expiresAt?: number;
  state: TradeState;
  transactionId?: string;
  successTime?: string;
  openid?: string;
  createdAt: number;
}

const STATE_DESC: Record<TradeState, string> = {
  SUCCESS: '支付成功',
  REFUND: '转入退款',
  NOTPAY: '订单未支付',
  CLOSED: '订单已关闭',
  REVOKED: '已撤销',
  USERPAYING: '用户支付中',
  PAYERROR: '支付失败，请重新下单支付',
};

const PR_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const randomText = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
export const digits = (length: number) => randomText('0123456789', length);
/** yyyyMMdd in Beijing time, as WeChat's ids embed it. */
export const beijingDate = (at = new Date()) => beijingTime(at).slice(0, 10).replaceAll('-', '');

export const codeUrlOf = (pr: string) => `weixin://wxpay/bizpayurl?pr=${pr}`;

/** Accepts a whole code_url or its bare pr id. */
export function prOf(codeUrlOrPr: string): string {
  const match = /[?&]pr=([^&]+)/.exec(codeUrlOrPr);
  return match ? decodeURIComponent(match[1] as string) : codeUrlOrPr;
}

/** What makes two prepays "the same order": WeChat returns the old code_url only for those. */
const sameOrder = (a: PrepayInput, b: PrepayInput) =>
  a.appid === b.appid &&
  a.description === b.description &&
  a.notifyUrl === b.notifyUrl &&
  a.attach === b.attach &&
  a.timeExpire === b.timeExpire &&
  a.total === b.total;

export const isPaid = (t: TradeRecord) => t.state === 'SUCCESS' || t.state === 'REFUND';

/** The transaction as the query answer and the pay notify show it. */
export function transactionOf(t: TradeRecord): Transaction & { bank_type?: string } {
  const paid = isPaid(t);
  return {
    appid: t.appid,
    mchid: t.mchid,
    out_trade_no: t.outTradeNo,
    ...(t.transactionId ? { transaction_id: t.transactionId } : {}),
    trade_type: 'NATIVE',
    trade_state: t.state,
    trade_state_desc: STATE_DESC[t.state],
    ...(paid ? { bank_type: 'OTHERS', success_time: t.successTime } : {}),
    attach: t.attach ?? '',
    ...(paid && t.openid ? { payer: { openid: t.openid } } : {}),
    amount: {
      total: t.total,
      ...(paid ? { payer_total: t.total } : {}),
      currency: 'CNY',
      payer_currency: 'CNY',
    },
  };
}

/**
 * Native trades in memory, keyed by merchant and out_trade_no like WeChat's own. The oldest
 * are dropped beyond `limit`. NOTPAY → SUCCESS (pay) | PAYERROR (fail) | CLOSED (close, or
 * time_expire passed); SUCCESS → REFUND (a refund succeeded).
 */
export function createTradeBook(limit = 10_000) {
  const trades = new Map<string, TradeRecord>();
  const byPr = new Map<string, string>();
  const keyOf = (mchid: string, outTradeNo: string) => `${mchid}\n${outTradeNo}`;

  /** An unpaid trade past its time_expire is closed, whoever looks first. */
  const current = (t: TradeRecord | undefined) => {
    const isOpen = t && (t.state === 'NOTPAY' || t.state === 'PAYERROR');
    if (isOpen && t.expiresAt !== undefined && Date.now() >= t.expiresAt) t.state = 'CLOSED';
    return t;
  };

  const remember = (t: TradeRecord) => {
    if (trades.size >= limit) {
      const [oldestKey, oldest] = trades.entries().next().value as [string, TradeRecord];
      trades.delete(oldestKey);
      byPr.delete(oldest.pr);
    }
    trades.set(keyOf(t.mchid, t.outTradeNo), t);
    byPr.set(t.pr, keyOf(t.mchid, t.outTradeNo));
  };

  const byCode = (codeUrlOrPr: string) => {
    const key = byPr.get(prOf(codeUrlOrPr));
    const t = current(key === undefined ? undefined : trades.get(key));
    if (!t) throw new WechatpayRefusal(404, 'ORDER_NOT_EXIST', '二维码无效');
    return t;
  };

  return {
    prepay(input: PrepayInput): TradeRecord {
      const existing = current(trades.get(keyOf(input.mchid, input.outTradeNo)));
      if (existing) {
        if (isPaid(existing)) throw orderPaid();
        if (existing.state === 'CLOSED') throw orderClosed();
        if (!sameOrder(existing, input))
          throw new WechatpayRefusal(400, 'INVALID_REQUEST', '201 商户订单号重复');
        return existing;
      }
      const trade: TradeRecord = {
        ...input,
        pr: randomText(PR_ALPHABET, 10),
        ...(input.timeExpire ? { expiresAt: Date.parse(input.timeExpire) } : {}),
        state: 'NOTPAY',
        createdAt: Date.now(),
      };
      remember(trade);
      return trade;
    },

    find: (mchid: string, outTradeNo: string) => current(trades.get(keyOf(mchid, outTradeNo))),

    /** The latest trade with this out_trade_no, whichever merchant (tests know only the number). */
    findAny(outTradeNo: string): TradeRecord | undefined {
      let found: TradeRecord | undefined;
      for (const t of trades.values()) if (t.outTradeNo === outTradeNo) found = t;
      return current(found);
    },

    byTransactionId(mchid: string, transactionId: string) {
      for (const t of trades.values()) if (t.mchid === mchid && t.transactionId === transactionId) return t;
      return undefined;
    },

    /** The trade a code_url (or pr) points at; refuses an unknown code. */
    byCode,

    close(mchid: string, outTradeNo: string): void {
      const t = current(trades.get(keyOf(mchid, outTradeNo)));
      if (!t) throw orderNotExist();
      if (isPaid(t)) throw orderPaid();
      t.state = 'CLOSED';
    },

    pay(codeUrlOrPr: string, openid: string): TradeRecord {
      const t = byCode(codeUrlOrPr);
      if (isPaid(t)) throw orderPaid();
      if (t.state === 'CLOSED') throw orderClosed();
      t.state = 'SUCCESS';
      t.transactionId = `4200001234${beijingDate()}${digits(10)}`;
      t.successTime = beijingTime(new Date());
      t.openid = openid;
      return t;
    },

    /** The bank refused the payment; the person may try again until the trade closes. */
    fail(codeUrlOrPr: string): TradeRecord {
      const t = byCode(codeUrlOrPr);
      if (isPaid(t)) throw orderPaid();
      if (t.state === 'CLOSED') throw orderClosed();
      t.state = 'PAYERROR';
      return t;
    },

    markRefunded(t: TradeRecord): void {
      if (t.state === 'SUCCESS') t.state = 'REFUND';
    },

    latest(count: number): TradeRecord[] {
      return [...trades.values()]
        .slice(-count)
        .reverse()
        .map((t) => current(t) as TradeRecord);
    },
  };
}

export type TradeBook = ReturnType<typeof createTradeBook>;
