import {
  ORDER_MSG,
  WECHAT_CODE_STATE,
  type WechatCode,
  type WechatCodeState,
  wechatNotifyPath,
} from '@sitemall/contract';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import { prepared } from '../../lib/prepared';
import type { MemberCtx } from '../cart/cart.service';
import { getBalance, postEntry } from '../points/points.service';
import type { Merchant, Merchants } from './merchants';
import { type Payee, payJournal, payRefund, wechatCode } from './payment.tables';
import { type Refund, type RefundStatus, type Transaction, WechatpayApiError } from './wechatpay/client';
import { beijingTime } from './wechatpay/protocol';

export type CodeRow = typeof wechatCode.$inferSelect;
type RefundRow = typeof payRefund.$inferSelect;

/** What the payment needs of an order (the order module's row has it all) or of a pack purchase. */
export interface PayableOrder {
  /** What the code pays for; a mall order when not said. */
  payee?: Payee;
  id: number;
  orderNo: string;
  siteId: number;
  memberId: number;
  payAmount: number;
  expireAt: Date;
}

/**
 * A code was paid while its order still waited: the order module moves the order to paid in
 * the code's transaction and answers false when it no longer waits (the money then goes back).
 * Payment never reads or moves orders itself: the order module provides this (order/pay.ts,
 * wired in app.ts), so order depends on payment and not the other way round.
 */
export type OrderPaidByWechat = (
  tx: Db,
  payment: { orderId: number; orderNo: string; pointsAmount: number; cashAmount: number; paidAt: Date },
) => Promise<boolean>;

/**
 * SQL: the order (of `payee`) whose id is `orderId` has an open WeChat code. For the expiry
 * jobs, which leave such an order to the reconciliation (its WeChat order is closed first).
 */
export const openCodeExists = (orderId: SQL, payee: Payee = 'order') =>
  sql`exists (select 1 from ${wechatCode} c where c.payee = ${payee} and c.order_id = ${orderId} and c.state = 'open')`;

export interface WechatPayDeps {
  merchants: Merchants;
  /** The mall orders' payee; others register theirs with `registerPayee`. */
  orderPaid: OrderPaidByWechat;
  /** Our API root as WeChat reaches it (notify_url is built on it), e.g. https://mall.example.com/front-mall-api. */
  notifyBase: string;
  /** Demo mode: the simulator page where a person "scans" a code_url. */
  scanUrlOf?: (codeUrl: string) => string;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** What became of a transaction WeChat reported (by notify or by our query). */
export type ApplyOutcome = 'applied' | 'duplicate' | 'refunding' | 'unknown' | 'mismatch' | 'not-paid';

/** Poll and job pace: WeChat is asked about one code at most this often. */
const QUERY_EVERY_MS = 3_000;
const RECONCILE_AFTER_MS = 20_000;
/** A code WeChat cannot be reached to close is closed locally this long after its expiry. */
const GIVE_UP_CLOSE_MS = 5 * 60_000;
const BATCH = 100;

const { open, paid, closed, failed, refunding, refunded } = WECHAT_CODE_STATE;

/**
 * WeChat Pay Native for orders: one code (out_trade_no) per attempt, at most one open per
 * order. A payment is applied exactly once, under the code's row lock, whether it arrives by
 * notify, by the pay page's polling or by the reconciliation job; money that arrives for an
 * order that has ended goes back automatically.
 */
export function createWechatPay(deps: WechatPayDeps) {
  /** Who learns of a paid code, by payee: the order module's, and what others registered. */
  const payees = new Map<Payee, OrderPaidByWechat>([['order', deps.orderPaid]]);

  const view = (code: CodeRow): WechatCode => ({
    outTradeNo: code.outTradeNo,
    codeUrl: code.codeUrl,
    state: code.state,
    cashAmount: code.cashAmount,
    pointsAmount: code.pointsAmount,
    expireTime: code.expireAt.toISOString(),
    ...(deps.scanUrlOf && code.codeUrl ? { scanUrl: deps.scanUrlOf(code.codeUrl) } : {}),
  });

  async function merchantOf(siteId: number): Promise<Merchant> {
    const merchant = await deps.merchants.forSite(siteId);
    if (!merchant) throw failure(ORDER_MSG.wechatOff);
    return merchant;
  }

  const ofOrder = (orderId: number, payee: Payee) =>
    and(eq(wechatCode.payee, payee), eq(wechatCode.orderId, orderId));

  const latestCode = async (db: Db, orderId: number, payee: Payee = 'order') =>
    (
      await db.select().from(wechatCode).where(ofOrder(orderId, payee)).orderBy(desc(wechatCode.id)).limit(1)
    )[0];

  const openCode = async (db: Db, orderId: number, payee: Payee = 'order') =>
    (
      await prepared(db, 'wechat_open_code', (name) =>
        db
          .select()
          .from(wechatCode)
          .where(
            and(
              eq(wechatCode.payee, sql.placeholder('payee')),
              eq(wechatCode.orderId, sql.placeholder('orderId')),
              eq(wechatCode.state, open),
            ),
          )
          .prepare(name),
      ).execute({ payee, orderId })
    )[0];

  /** Ends an open code locally and gives its held points back, once. */
  async function endCode(db: Db, code: CodeRow, to: WechatCodeState, why: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [ended] = await tx
        .update(wechatCode)
        .set({ state: to })
        .where(and(eq(wechatCode.id, code.id), eq(wechatCode.state, open)))
        .returning({ id: wechatCode.id });
      if (!ended) return false;
      if (code.pointsAmount > 0) await releasePoints(tx, code, why);
      return true;
    });
  }

  const releasePoints = (tx: Db, code: CodeRow, why: string) =>
    postEntry(tx, {
      siteId: code.siteId,
      memberId: code.memberId,
      amount: code.pointsAmount,
      type: 'release',
      orderNo: code.orderNo,
      note: `组合支付积分返还（${why}）`,
      requestKey: `release:${code.outTradeNo}`,
    });

  /**
   * Closes a code at WeChat first, then here. WeChat answering "already paid" means the
   * payment is real: it is applied instead (the caller then sees the order paid).
   */
  async function closeCode(
    db: Db,
    merchant: Merchant,
    code: CodeRow,
    why: string,
    options: { closeLocallyIfUnreachable: boolean } = { closeLocallyIfUnreachable: true },
  ): Promise<void> {
    try {
      await merchant.client.close(code.outTradeNo);
    } catch (error) {
      if (error instanceof WechatpayApiError && error.code === 'ORDERPAID') {
        await refreshCode(db, merchant, code);
        return;
      }
      deps.log.warn({ err: error, outTradeNo: code.outTradeNo }, 'WeChat close failed');
      // Unreachable WeChat must not keep an order open forever; a late payment is refunded.
      if (!options.closeLocallyIfUnreachable) return;
    }
    await endCode(db, code, closed, why);
  }

  /** Asks WeChat about a code and applies what it says. */
  async function refreshCode(db: Db, merchant: Merchant, code: CodeRow): Promise<void> {
    let trade: Transaction;
    try {
      trade = await merchant.client.queryByOutTradeNo(code.outTradeNo);
    } catch (error) {
      if (error instanceof WechatpayApiError && error.code === 'ORDER_NOT_EXIST' && code.codeUrl === '') {
        await endCode(db, code, failed, '下单未成功');
        return;
      }
      deps.log.warn({ err: error, outTradeNo: code.outTradeNo }, 'WeChat query failed');
      return;
    }
    switch (trade.trade_state) {
      case 'SUCCESS':
        await applyTransaction(db, merchant, trade);
        return;
      case 'CLOSED':
      case 'REVOKED':
        await endCode(db, code, closed, '微信订单已关闭');
        return;
      case 'PAYERROR':
        await endCode(db, code, failed, '微信支付失败');
        return;
      default:
    }
  }

  /** Claims the right to ask WeChat about a code now (one asker per QUERY_EVERY_MS). */
  async function claimQuery(db: Db, code: CodeRow, everyMs: number): Promise<boolean> {
    const [claimed] = await db
      .update(wechatCode)
      .set({ checkedAt: sql`now()` })
      .where(
        and(
          eq(wechatCode.id, code.id),
          eq(wechatCode.state, open),
          sql`(${wechatCode.checkedAt} is null or ${wechatCode.checkedAt} < now() - make_interval(secs => ${everyMs / 1000}))`,
        ),
      )
      .returning({ id: wechatCode.id });
    return Boolean(claimed);
  }

  /**
   * Applies a transaction WeChat reported as paid, exactly once: the code's row lock orders
   * parallel copies, the journal's unique key refuses a second entry. Paid while its order
   * still waited: the order is paid. Otherwise (the order ended, or this code was replaced)
   * the money is refunded.
   */
  async function applyTransaction(db: Db, merchant: Merchant, trade: Transaction): Promise<ApplyOutcome> {
    if (trade.mchid !== merchant.config.mchid || trade.appid !== merchant.config.appid) return 'mismatch';
    if (trade.trade_state !== 'SUCCESS') return 'not-paid';
    if (!trade.transaction_id) return 'mismatch';
    const transactionId = trade.transaction_id;
    const outcome = await db.transaction(async (tx): Promise<ApplyOutcome | RefundRow> => {
      const [code] = await tx
        .select()
        .from(wechatCode)
        .where(and(eq(wechatCode.outTradeNo, trade.out_trade_no), eq(wechatCode.siteId, merchant.siteId)))
        .for('update');
      if (!code) return 'unknown';
      if (trade.amount?.total !== code.cashAmount) return 'mismatch';
      if (code.state === paid || code.state === refunding || code.state === refunded) return 'duplicate';
      const journaled = await tx
        .insert(payJournal)
        .values({
          siteId: code.siteId,
          orderNo: code.orderNo,
          codeId: code.id,
          kind: 'wechat_pay',
          amount: code.cashAmount,
          entryKey: `pay:${transactionId}`,
        })
        .onConflictDoNothing()
        .returning({ id: payJournal.id });
      if (journaled.length === 0) return 'duplicate';
      const paidAt = new Date();
      const payment = {
        orderId: code.orderId,
        orderNo: code.orderNo,
        pointsAmount: code.pointsAmount,
        cashAmount: code.cashAmount,
        paidAt,
      };
      const paidTo = payees.get(code.payee);
      if (!paidTo) throw new Error(`no payee ${code.payee} registered for ${code.outTradeNo}`);
      if (code.state === open && (await paidTo(tx, payment))) {
        await tx
          .update(wechatCode)
          .set({ state: paid, transactionId, paidAt })
          .where(eq(wechatCode.id, code.id));
        return 'applied';
      }
      await tx
        .update(wechatCode)
        .set({ state: refunding, transactionId, paidAt })
        .where(eq(wechatCode.id, code.id));
      if (code.state === open && code.pointsAmount > 0) await releasePoints(tx, code, '订单已结束');
      const [refund] = await tx
        .insert(payRefund)
        .values({
          siteId: code.siteId,
          codeId: code.id,
          outRefundNo: `R${code.outTradeNo}`,
          amount: code.cashAmount,
          reason: '订单已关闭，支付款原路退回',
          status: 'requested',
        })
        .returning();
      return refund as RefundRow;
    });
    if (typeof outcome === 'string') return outcome;
    deps.log.info({ outTradeNo: trade.out_trade_no, transactionId }, 'payment for an ended order: refunding');
    await requestRefund(db, merchant, outcome);
    return 'refunding';
  }

  async function requestRefund(db: Db, merchant: Merchant, refund: RefundRow): Promise<void> {
    const [code] = await db.select().from(wechatCode).where(eq(wechatCode.id, refund.codeId));
    if (!code) return;
    let answer: Refund;
    try {
      answer = await merchant.client.refund({
        out_trade_no: code.outTradeNo,
        out_refund_no: refund.outRefundNo,
        reason: refund.reason,
        notify_url: `${deps.notifyBase}${wechatNotifyPath('refund', code.siteId)}`,
        amount: { refund: refund.amount, total: code.cashAmount, currency: 'CNY' },
      });
    } catch (error) {
      deps.log.warn(
        { err: error, outRefundNo: refund.outRefundNo },
        'WeChat refund request failed; will retry',
      );
      return;
    }
    await settleRefund(db, refund, answer.status ?? 'PROCESSING', answer.refund_id);
  }

  /** Records a refund's state; SUCCESS writes the journal's refund entry, once. */
  async function settleRefund(
    db: Db,
    refund: RefundRow,
    status: RefundStatus,
    refundId?: string,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(payRefund)
        .set({ status, refundId: refundId ?? refund.refundId, updatedAt: sql`now()` })
        .where(and(eq(payRefund.id, refund.id), sql`${payRefund.status} <> 'SUCCESS'`))
        .returning();
      if (!moved || status !== 'SUCCESS') return;
      await tx.insert(payJournal).values({
        siteId: refund.siteId,
        orderNo: (
          await tx.select({ no: wechatCode.orderNo }).from(wechatCode).where(eq(wechatCode.id, refund.codeId))
        )[0]?.no as string,
        codeId: refund.codeId,
        kind: 'wechat_refund',
        amount: -refund.amount,
        entryKey: `refund:${refund.outRefundNo}`,
      });
      await tx.update(wechatCode).set({ state: refunded }).where(eq(wechatCode.id, refund.codeId));
    });
  }

  /** Waits briefly for a parallel request's code to get its code_url. */
  async function waitForCode(db: Db, orderId: number, payee: Payee): Promise<CodeRow> {
    for (let i = 0; i < 30; i++) {
      const code = await openCode(db, orderId, payee);
      if (code?.codeUrl) return code;
      if (!code) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw failure(ORDER_MSG.wechatFailed);
  }

  return {
    view,
    latestCode,
    applyTransaction,
    settleRefund,

    /**
     * Another module's purchases become payable (codes with this payee): `paid` runs in the
     * paid code's transaction, exactly once per code, and answers false when the purchase no
     * longer waits (the money then goes back). The caller depends on payment, not the reverse.
     */
    registerPayee(payee: Exclude<Payee, 'order'>, paid: OrderPaidByWechat): void {
      payees.set(payee, paid);
    },

    /**
     * The code a member scans to pay an order (wx_pc): the open one when it still fits, else a
     * new one; with pointsAmount (mixed payment) those points are held until the code ends.
     */
    async startCode(ctx: MemberCtx, order: PayableOrder, pointsAmount = 0): Promise<CodeRow> {
      const merchant = await merchantOf(ctx.site.row.id);
      if (pointsAmount > 0 && ctx.site.row.configJson.mixedPay !== 'Y') throw failure(ORDER_MSG.mixedOff);
      const payee = order.payee ?? 'order';
      if (!payees.has(payee)) throw new Error(`no payee ${payee} registered`);
      const cashAmount = order.payAmount - pointsAmount;
      if (cashAmount < 1) throw failure(ORDER_MSG.pointsPartInvalid);
      const current = await openCode(ctx.db, order.id, payee);
      // A parallel request is still asking WeChat for this code: answer the same one.
      if (current && !current.codeUrl) return waitForCode(ctx.db, order.id, payee);
      if (current?.pointsAmount === pointsAmount) return current;
      // Checked before the open code is given up; the hold below is what really guards it.
      if (pointsAmount > (await getBalance(ctx, { siteId: order.siteId, memberId: order.memberId }))) {
        throw failure(ORDER_MSG.pointsShort);
      }
      if (current) await closeCode(ctx.db, merchant, current, '更换支付方式');
      const attempts = await ctx.db.$count(wechatCode, ofOrder(order.id, payee));
      const outTradeNo = `${order.orderNo}W${attempts + 1}`;
      let code: CodeRow;
      try {
        code = await transaction(ctx, async ({ db: tx }) => {
          const [row] = await tx
            .insert(wechatCode)
            .values({
              siteId: order.siteId,
              memberId: order.memberId,
              payee,
              orderId: order.id,
              orderNo: order.orderNo,
              outTradeNo,
              codeUrl: '',
              state: open,
              cashAmount,
              pointsAmount,
              expireAt: order.expireAt,
            })
            .returning();
          if (pointsAmount > 0) {
            await postEntry(tx, {
              siteId: order.siteId,
              memberId: order.memberId,
              amount: -pointsAmount,
              type: 'hold',
              orderNo: order.orderNo,
              note: `组合支付积分冻结 ${order.orderNo}`,
              requestKey: `hold:${outTradeNo}`,
            });
          }
          return row as CodeRow;
        });
      } catch (error) {
        // Another request of the member opened a code at the same moment: answer that one.
        if (isUniqueViolation(error)) return waitForCode(ctx.db, order.id, payee);
        throw error;
      }
      try {
        const { code_url } = await merchant.client.nativePrepay({
          description:
            `${ctx.site.row.siteName} ${payee === 'pack' ? '卡包' : '订单'} ${order.orderNo}`.slice(0, 127),
          out_trade_no: outTradeNo,
          time_expire: beijingTime(order.expireAt),
          notify_url: `${deps.notifyBase}${wechatNotifyPath('transaction', order.siteId)}`,
          amount: { total: cashAmount },
        });
        const [ready] = await ctx.db
          .update(wechatCode)
          .set({ codeUrl: code_url })
          .where(eq(wechatCode.id, code.id))
          .returning();
        return ready as CodeRow;
      } catch (error) {
        deps.log.warn({ err: error, outTradeNo }, 'WeChat Native prepay failed');
        await endCode(ctx.db, code, failed, '下单未成功');
        throw failure(ORDER_MSG.wechatFailed);
      }
    },

    /**
     * Before an order is paid otherwise or cancelled: its open code is closed (or found paid).
     * False when it had none, so nothing about the order changed.
     */
    async closeOpenCode(
      db: Db,
      order: Pick<PayableOrder, 'id' | 'siteId' | 'payee'>,
      why: string,
    ): Promise<boolean> {
      const code = await openCode(db, order.id, order.payee ?? 'order');
      if (!code) return false;
      const merchant = await deps.merchants.forSite(order.siteId);
      if (merchant) await closeCode(db, merchant, code, why);
      else await endCode(db, code, closed, why);
      return true;
    },

    /** The pay page's poll: asks WeChat when no notify came yet (at most every few seconds); true when it asked. */
    async refreshIfDue(db: Db, code: CodeRow | undefined): Promise<boolean> {
      if (!code || code.state !== open || !code.codeUrl) return false;
      if (!(await claimQuery(db, code, QUERY_EVERY_MS))) return false;
      const merchant = await deps.merchants.forSite(code.siteId);
      if (!merchant) return false;
      await refreshCode(db, merchant, code);
      return true;
    },

    /**
     * Sends one queued refund now (the console's retry), with its one out_refund_no: a refund
     * WeChat has not accepted yet is asked again, an accepted one is queried. Answers WeChat's
     * status as recorded afterwards (undefined: no such refund).
     */
    async retryRefund(db: Db, outRefundNo: string): Promise<string | undefined> {
      const [refund] = await db.select().from(payRefund).where(eq(payRefund.outRefundNo, outRefundNo));
      if (!refund) return undefined;
      const merchant = await deps.merchants.forSite(refund.siteId);
      if (merchant && refund.status === 'requested') await requestRefund(db, merchant, refund);
      else if (merchant && refund.status === 'PROCESSING') {
        const answer = await merchant.client.queryRefund(outRefundNo).catch(() => undefined);
        if (answer?.status && answer.status !== 'PROCESSING')
          await settleRefund(db, refund, answer.status, answer.refund_id);
      }
      const [after] = await db
        .select({ status: payRefund.status })
        .from(payRefund)
        .where(eq(payRefund.outRefundNo, outRefundNo));
      return after?.status;
    },

    /**
     * The reconciliation job, one round: codes past their time are closed at WeChat (an
     * expired order's WeChat order is closed before the order expires); open codes no notify
     * settled are queried; refunds not yet accepted are asked again, pending ones queried.
     */
    async reconcile(db: Db, now = new Date()): Promise<void> {
      const due = await db
        .select()
        .from(wechatCode)
        .where(
          and(eq(wechatCode.state, open), sql`${wechatCode.expireAt} <= ${now.toISOString()}::timestamptz`),
        )
        .limit(BATCH);
      for (const code of due) {
        const merchant = await deps.merchants.forSite(code.siteId);
        if (!merchant) {
          await endCode(db, code, closed, '订单已过期');
          continue;
        }
        // Paid at WeChat after all: close answers ORDERPAID and the payment is applied instead.
        await closeCode(db, merchant, code, '订单已过期', {
          closeLocallyIfUnreachable: now.getTime() - code.expireAt.getTime() > GIVE_UP_CLOSE_MS,
        });
      }

      const quiet = await db
        .select()
        .from(wechatCode)
        .where(
          and(
            eq(wechatCode.state, open),
            sql`${wechatCode.codeUrl} <> '' and ${wechatCode.createdAt} < ${new Date(now.getTime() - RECONCILE_AFTER_MS).toISOString()}::timestamptz`,
          ),
        )
        .limit(BATCH);
      for (const code of quiet) {
        if (!(await claimQuery(db, code, RECONCILE_AFTER_MS))) continue;
        const merchant = await deps.merchants.forSite(code.siteId);
        if (merchant) await refreshCode(db, merchant, code);
      }

      const refunds = await db
        .select()
        .from(payRefund)
        .where(sql`${payRefund.status} in ('requested', 'PROCESSING')`)
        .limit(BATCH);
      for (const refund of refunds) {
        const merchant = await deps.merchants.forSite(refund.siteId);
        if (!merchant) continue;
        if (refund.status === 'requested') {
          await requestRefund(db, merchant, refund);
          continue;
        }
        try {
          const answer = await merchant.client.queryRefund(refund.outRefundNo);
          if (answer.status && answer.status !== 'PROCESSING')
            await settleRefund(db, refund, answer.status, answer.refund_id);
        } catch (error) {
          deps.log.warn({ err: error, outRefundNo: refund.outRefundNo }, 'WeChat refund query failed');
        }
      }
    },
  };
}

export type WechatPay = ReturnType<typeof createWechatPay>;
