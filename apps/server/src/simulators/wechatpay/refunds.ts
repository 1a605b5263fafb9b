import type { RefundStatus } from '../../modules/payment/wechatpay/client';
import { beijingTime } from '../../modules/payment/wechatpay/protocol';
import { WechatpayRefusal } from './refusal';
import { beijingDate, digits, isPaid, type TradeBook, type TradeRecord } from './trades';

/** A refund request as the merchant sent it, already checked field by field. */
export interface RefundInput {
  mchid: string;
  outTradeNo?: string;
  transactionId?: string;
  outRefundNo: string;
  reason?: string;
  notifyUrl?: string;
  refund: number;
  total: number;
}

export interface RefundRecord {
  mchid: string;
  outRefundNo: string;
  refundId: string;
  outTradeNo: string;
  transactionId: string;
  total: number;
  refund: number;
  reason?: string;
  notifyUrl?: string;
  status: RefundStatus;
  createTime: string;
  successTime?: string;
}

const USER_RECEIVED_ACCOUNT = '支付用户零钱';

/** The refund as the refund answer and query show it (the fields a Native payment has). */
export function refundOf(r: RefundRecord) {
  return {
    refund_id: r.refundId,
    out_refund_no: r.outRefundNo,
    transaction_id: r.transactionId,
    out_trade_no: r.outTradeNo,
    channel: 'ORIGINAL',
    user_received_account: USER_RECEIVED_ACCOUNT,
    ...(r.successTime ? { success_time: r.successTime } : {}),
    create_time: r.createTime,
    status: r.status,
    funds_account: 'AVAILABLE',
    amount: {
      total: r.total,
      refund: r.refund,
      payer_total: r.total,
      payer_refund: r.refund,
      settlement_refund: r.refund,
      settlement_total: r.total,
      discount_refund: 0,
      currency: 'CNY',
    },
    promotion_detail: [],
  };
}

/** The plaintext of a REFUND.* notify resource. */
export const refundNoticeOf = (r: RefundRecord) => ({
  mchid: r.mchid,
  out_trade_no: r.outTradeNo,
  transaction_id: r.transactionId,
  out_refund_no: r.outRefundNo,
  refund_id: r.refundId,
  refund_status: r.status,
  ...(r.successTime ? { success_time: r.successTime } : {}),
  user_received_account: USER_RECEIVED_ACCOUNT,
  amount: { total: r.total, refund: r.refund, payer_total: r.total, payer_refund: r.refund },
});

/**
 * Refunds in memory, keyed by merchant and out_refund_no (a repeated out_refund_no is the
 * same refund: merchants retry). Each starts PROCESSING; `complete` turns it SUCCESS.
 */
export function createRefundBook(trades: TradeBook, limit = 10_000) {
  const refunds = new Map<string, RefundRecord>();
  const keyOf = (mchid: string, outRefundNo: string) => `${mchid}\n${outRefundNo}`;

  const refundedOf = (t: TradeRecord) => {
    let sum = 0;
    for (const r of refunds.values()) {
      if (r.mchid === t.mchid && r.outTradeNo === t.outTradeNo && r.status !== 'CLOSED') sum += r.refund;
    }
    return sum;
  };

  return {
    /** Records a refund (or returns the one this out_refund_no already names); isNew says which. */
    request(input: RefundInput): { refund: RefundRecord; isNew: boolean } {
      const trade = input.outTradeNo
        ? trades.find(input.mchid, input.outTradeNo)
        : trades.byTransactionId(input.mchid, input.transactionId ?? '');
      if (!trade) throw new WechatpayRefusal(404, 'RESOURCE_NOT_EXISTS', '订单不存在');

      const existing = refunds.get(keyOf(input.mchid, input.outRefundNo));
      if (existing) {
        const isSame = existing.outTradeNo === trade.outTradeNo && existing.refund === input.refund;
        if (!isSame)
          throw new WechatpayRefusal(400, 'INVALID_REQUEST', '商户退款单号重复，退款参数与原退款单不一致');
        return { refund: existing, isNew: false };
      }
      if (!isPaid(trade)) throw new WechatpayRefusal(400, 'INVALID_REQUEST', '订单未支付，不能申请退款');
      if (input.total !== trade.total) {
        throw new WechatpayRefusal(400, 'PARAM_ERROR', 'amount.total 与原订单金额不一致');
      }
      if (refundedOf(trade) + input.refund > trade.total) {
        throw new WechatpayRefusal(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
      }

      if (refunds.size >= limit) refunds.delete(refunds.keys().next().value as string);
      const refund: RefundRecord = {
        mchid: input.mchid,
        outRefundNo: input.outRefundNo,
        refundId: `50300${beijingDate()}${digits(16)}`,
        outTradeNo: trade.outTradeNo,
        transactionId: trade.transactionId ?? '',
        total: trade.total,
        refund: input.refund,
        ...(input.reason ? { reason: input.reason } : {}),
        ...(input.notifyUrl ? { notifyUrl: input.notifyUrl } : {}),
        status: 'PROCESSING',
        createTime: beijingTime(new Date()),
      };
      refunds.set(keyOf(input.mchid, input.outRefundNo), refund);
      return { refund, isNew: true };
    },

    /** The money reached the payer: the refund succeeds and the trade reads REFUND. */
    complete(refund: RefundRecord): void {
      refund.status = 'SUCCESS';
      refund.successTime = beijingTime(new Date());
      const trade = trades.find(refund.mchid, refund.outTradeNo);
      if (trade) trades.markRefunded(trade);
    },

    find: (mchid: string, outRefundNo: string) => refunds.get(keyOf(mchid, outRefundNo)),
  };
}

export type RefundBook = ReturnType<typeof createRefundBook>;
