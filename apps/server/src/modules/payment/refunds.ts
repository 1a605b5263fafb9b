import { PAY_WAY, WECHAT_CODE_STATE } from '@sitemall/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payRefund, wechatCode } from './payment.tables';

/**
 * Partial refunds of paid orders (after-sales) through the existing WeChat refund path: a
 * pay_refund row in state "requested" is the outbox; the reconciliation job (wechat-pay.ts)
 * sends it with its out_refund_no, retries with the same number, and settles it once by
 * notify or query.
 */

/** The WeChat code that paid an order (wx_pc), if WeChat paid any of it. */
async function paidCodeOf(db: Db, orderId: number) {
  const [code] = await db
    .select()
    .from(wechatCode)
    .where(
      and(
        eq(wechatCode.payee, 'order'),
        eq(wechatCode.orderId, orderId),
        inArray(wechatCode.state, [WECHAT_CODE_STATE.paid, WECHAT_CODE_STATE.refunded]),
      ),
    );
  return code;
}

/** How much of an order's payment came by WeChat (fen); the rest was points. */
export async function cashPaidFor(db: Db, order: { id: number; payWay: string | null }): Promise<number> {
  if (order.payWay !== PAY_WAY.wechatPc) return 0;
  return (await paidCodeOf(db, order.id))?.cashAmount ?? 0;
}

/**
 * Queues a WeChat refund of part of an order's payment, in the caller's transaction. The same
 * out_refund_no again is the same refund (nothing new queued).
 */
export async function queueWechatRefund(
  tx: Db,
  input: { orderId: number; outRefundNo: string; amount: number; reason: string },
): Promise<void> {
  const code = await paidCodeOf(tx, input.orderId);
  if (!code) throw new Error(`order ${input.orderId} has no paid WeChat code`);
  await tx
    .insert(payRefund)
    .values({
      siteId: code.siteId,
      codeId: code.id,
      outRefundNo: input.outRefundNo,
      amount: input.amount,
      reason: input.reason,
      status: 'requested',
    })
    .onConflictDoNothing();
}

/** The WeChat refunds among `outRefundNos` that WeChat has completed. */
export async function succeededRefunds(db: Db, outRefundNos: readonly string[]): Promise<Set<string>> {
  if (outRefundNos.length === 0) return new Set();
  const rows = await db
    .select({ no: payRefund.outRefundNo })
    .from(payRefund)
    .where(and(inArray(payRefund.outRefundNo, [...outRefundNos]), eq(payRefund.status, 'SUCCESS')));
  return new Set(rows.map((r) => r.no));
}

/** WeChat's status of each refund among `outRefundNos` (requested, PROCESSING, SUCCESS, ...). */
export async function refundStatuses(db: Db, outRefundNos: readonly string[]): Promise<Map<string, string>> {
  if (outRefundNos.length === 0) return new Map();
  const rows = await db
    .select({ no: payRefund.outRefundNo, status: payRefund.status })
    .from(payRefund)
    .where(inArray(payRefund.outRefundNo, [...outRefundNos]));
  return new Map(rows.map((r) => [r.no, r.status]));
}
