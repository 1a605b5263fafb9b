import { AFTER_SALE_MSG, type AfterSaleDetail, fenToYuan, RETURN_SHIP_DAYS } from '@sitemall/contract';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { releaseGroup } from '../activity/group';
import { releaseSeckill } from '../activity/seckill';
import { returnStock } from '../catalog/inventory';
import { orderLineNums, orderLinesById } from '../order/lines';
import { refundToCards } from '../packs/packs.service';
import { queueWechatRefund, succeededRefunds } from '../payment/refunds';
import { postEntry } from '../points/points.service';
import { refundOrderVouchers } from '../voucher/voucher.service';
import { addComment, caseDetail } from './aftersale.service';
import { afterSale, afterSaleLine, afterSaleRefund, type Parcel } from './aftersale.tables';
import { type CaseRow, findCase, moveCase } from './machine';
import { refundFor } from './split';

/**
 * What operators do to after-sales cases. The console calls these (its screens come later);
 * the tests and the ops CLI call them now. Every status change is moveCase's.
 */

export interface CaseRef {
  siteId: number;
  afterSaleNo: string;
}

const TRACKING_NO = /^[A-Za-z0-9-]{6,40}$/;
const needReason = (reason: string | undefined) => {
  const text = (reason ?? '').trim();
  if (!text || text.length > 200) throw failure('请填写原因（最多 200 字）');
  return text;
};

async function act(db: Db, ref: CaseRef, run: (tx: Db, row: CaseRow) => Promise<CaseRow>) {
  const row = await findCase(db, ref);
  const moved = await db.transaction((tx) => run(tx, row));
  return caseDetail(db, moved);
}

/** Approves a case; a return or exchange then waits for the member's parcel. */
export const approveCase = (db: Db, ref: CaseRef & { note?: string }): Promise<AfterSaleDetail> =>
  act(db, ref, async (tx, row) => {
    const note = (ref.note ?? '').trim().slice(0, 200);
    const approved = await moveCase(tx, row, {
      event: 'approve',
      actor: 'operator',
      note: note || '审核通过',
      set: { auditNote: note },
    });
    if (approved.kind === 'refund_only') return approved;
    return moveCase(tx, approved, {
      event: 'askReturn',
      actor: 'operator',
      note: `请在 ${RETURN_SHIP_DAYS} 天内寄回商品并填写退货物流`,
    });
  });

export const rejectCase = (db: Db, ref: CaseRef & { reason: string }) =>
  act(db, ref, (tx, row) => {
    const reason = needReason(ref.reason);
    return moveCase(tx, row, {
      event: 'reject',
      actor: 'operator',
      note: reason,
      set: { auditNote: reason },
    });
  });

export const receiveReturn = (db: Db, ref: CaseRef) =>
  act(db, ref, (tx, row) =>
    moveCase(tx, row, { event: 'receive', actor: 'operator', note: '商家已收到退回商品' }),
  );

export const refuseReturn = (db: Db, ref: CaseRef & { reason: string }) =>
  act(db, ref, (tx, row) =>
    moveCase(tx, row, { event: 'refuseReturn', actor: 'operator', note: needReason(ref.reason) }),
  );

/** Sends the exchange's replacement parcel. */
export const reshipCase = (db: Db, ref: CaseRef & { company: string; trackingNo: string }) =>
  act(db, ref, (tx, row) => {
    const company = ref.company.trim();
    if (!company || company.length > 40) throw failure(AFTER_SALE_MSG.badCompany);
    if (!TRACKING_NO.test(ref.trackingNo)) throw failure(AFTER_SALE_MSG.badTracking);
    const parcel: Parcel = { company, trackingNo: ref.trackingNo, shipTime: new Date().toISOString() };
    return moveCase(tx, row, {
      event: 'reship',
      actor: 'operator',
      note: `换货已发出：${company} ${ref.trackingNo}`,
      set: { reshipParcel: parcel },
    });
  });

export const completeExchange = (db: Db, ref: CaseRef) =>
  act(db, ref, (tx, row) => moveCase(tx, row, { event: 'complete', actor: 'operator', note: '换货完成' }));

export const operatorComment = async (db: Db, ref: CaseRef & { content: string }) =>
  addComment(db, await findCase(db, ref), 'operator', ref.content);

/** What refunding a case would give back per channel (the console's refund preview). */
export async function refundPreview(db: Db, ref: CaseRef) {
  const row = await findCase(db, ref);
  const [account] = await db
    .select()
    .from(afterSaleLine)
    .where(eq(afterSaleLine.orderLineId, row.orderLineId));
  if (!account) throw new Error('line account missing');
  return refundFor(account, row.qty);
}

/**
 * Refunds a case: the case moves to refunding (a status CAS: of two operators refunding one
 * case, one wins, the other is told it changed), the line's refunded amounts grow by a guarded
 * UPDATE (never past what was paid for it; the CHECK is the backstop), the points go back
 * through the ledger and the WeChat part is queued for the payment outbox with the case's one
 * refund number, all in one transaction. Returned goods go back into stock. Without a WeChat
 * part the case is refunded at once; otherwise when WeChat confirms (settleRefunds).
 *
 * `amount` overrides the pro-rata refund (a deduction agreed with the member); the split
 * stays the pro-rata one of what is refunded.
 */
export const refundCase = (db: Db, ref: CaseRef & { cash?: number; points?: number }) =>
  act(db, ref, async (tx, row) => {
    const refunding = await moveCase(tx, row, { event: 'refund', actor: 'operator', note: '商家同意退款' });
    const [account] = await tx
      .select()
      .from(afterSaleLine)
      .where(eq(afterSaleLine.orderLineId, row.orderLineId));
    if (!account) throw new Error('line account missing');
    const share = refundFor(account, row.qty);
    const cash = ref.cash ?? share.cash;
    const points = ref.points ?? share.points;
    if (!Number.isSafeInteger(cash) || !Number.isSafeInteger(points) || cash < 0 || points < 0)
      throw failure('退款金额不正确');
    const [charged] = await tx
      .update(afterSaleLine)
      .set({
        refundedCash: sql`${afterSaleLine.refundedCash} + ${cash}`,
        refundedPoints: sql`${afterSaleLine.refundedPoints} + ${points}`,
        refundedQty: sql`${afterSaleLine.refundedQty} + ${row.qty}`,
      })
      .where(
        and(
          eq(afterSaleLine.orderLineId, row.orderLineId),
          lte(sql`${afterSaleLine.refundedCash} + ${cash}`, afterSaleLine.paidCash),
          lte(sql`${afterSaleLine.refundedPoints} + ${points}`, afterSaleLine.paidPoints),
          lte(sql`${afterSaleLine.refundedQty} + ${row.qty}`, afterSaleLine.qty),
        ),
      )
      .returning();
    if (!charged) throw failure(AFTER_SALE_MSG.overRefund);
    const what = `售后退款 ${row.afterSaleNo}`;
    if (points > 0) await refundPointsPart(tx, row, points, what);
    if (cash > 0) {
      const outRefundNo = `R${row.afterSaleNo}`;
      await queueWechatRefund(tx, { orderId: row.orderId, outRefundNo, amount: cash, reason: what });
      await tx.insert(afterSaleRefund).values({
        siteId: row.siteId,
        afterSaleId: row.id,
        channel: 'wechat',
        amount: cash,
        outRefundNo,
        status: 'pending',
      });
    }
    await giveBackWhenAllRefunded(tx, row);
    if (row.kind === 'return_refund') {
      const line = (await orderLinesById(tx, [row.orderLineId])).get(row.orderLineId);
      if (line) await returnStock(tx, [{ specificationId: line.specificationId, num: row.qty }]);
    }
    const [withAmounts] = await tx
      .update(afterSale)
      .set({ refundCash: cash, refundPoints: points })
      .where(eq(afterSale.id, refunding.id))
      .returning();
    const current = withAmounts as CaseRow;
    if (cash > 0) return current;
    return moveCase(tx, current, {
      event: 'settle',
      actor: 'system',
      note: `退款成功：退回积分 ${fenToYuan(points)}`,
    });
  });

/**
 * The non-WeChat part of a case's refund: what gift cards paid for the order goes back to the
 * same cards first (pay way pack; keyed by the case, so once), the rest to points; one refund
 * row per channel.
 */
async function refundPointsPart(tx: Db, row: CaseRow, amount: number, what: string): Promise<void> {
  const refundId = `aftersale:${row.afterSaleNo}`;
  const byCards = await refundToCards(tx, { orderNo: row.orderNo, amount, refundId, actor: 'operator' });
  const points = amount - byCards;
  if (byCards > 0)
    await tx.insert(afterSaleRefund).values({
      siteId: row.siteId,
      afterSaleId: row.id,
      channel: 'pack',
      amount: byCards,
      outRefundNo: `K${row.afterSaleNo}`,
      status: 'succeeded',
    });
  if (points === 0) return;
  await postEntry(tx, {
    siteId: row.siteId,
    memberId: row.memberId,
    amount: points,
    type: 'refund',
    orderNo: row.orderNo,
    note: what,
    requestKey: refundId,
  });
  await tx.insert(afterSaleRefund).values({
    siteId: row.siteId,
    afterSaleId: row.id,
    channel: 'points',
    amount: points,
    outRefundNo: `P${row.afterSaleNo}`,
    status: 'succeeded',
  });
}

/**
 * Once every piece of every line of the order is refunded, the order's flash-sale stock and
 * the member's flash-sale count come back (once: releaseSeckill marks the order), and so do
 * its vouchers whose template says so (once: they leave the order).
 */
async function giveBackWhenAllRefunded(tx: Db, row: CaseRow): Promise<void> {
  const lines = await orderLineNums(tx, row.orderId);
  const accounts = await tx
    .select({ id: afterSaleLine.orderLineId, refundedQty: afterSaleLine.refundedQty })
    .from(afterSaleLine)
    .where(
      inArray(
        afterSaleLine.orderLineId,
        lines.map((l) => l.id),
      ),
    );
  const refunded = new Map(accounts.map((a) => [a.id, a.refundedQty]));
  if (lines.every((l) => refunded.get(l.id) === l.num)) {
    await releaseSeckill(tx, [row.orderNo]);
    await refundOrderVouchers(tx, row.orderNo);
    await releaseGroup(tx, [row.orderNo]);
  }
}

/**
 * Completes cases whose WeChat refund WeChat has confirmed (the payment module settles the
 * refund by notify or query; this follows it). Answers how many cases completed.
 */
export async function settleRefunds(db: Db): Promise<number> {
  const pending = await db
    .select({ id: afterSaleRefund.afterSaleId, no: afterSaleRefund.outRefundNo })
    .from(afterSaleRefund)
    .where(and(eq(afterSaleRefund.channel, 'wechat'), eq(afterSaleRefund.status, 'pending')))
    .limit(100);
  const done = await succeededRefunds(
    db,
    pending.map((p) => p.no),
  );
  let settled = 0;
  for (const p of pending.filter((x) => done.has(x.no))) {
    const row = (await db.select().from(afterSale).where(eq(afterSale.id, p.id)))[0];
    if (!row || row.status !== 'refunding') continue;
    const moved = await db.transaction(async (tx) => {
      const [won] = await tx
        .update(afterSaleRefund)
        .set({ status: 'succeeded' })
        .where(and(eq(afterSaleRefund.outRefundNo, p.no), eq(afterSaleRefund.status, 'pending')))
        .returning();
      if (!won) return false;
      await moveCase(tx, row, {
        event: 'settle',
        actor: 'system',
        note: `退款成功：微信退回 ${fenToYuan(row.refundCash)} 元${row.refundPoints > 0 ? `，积分 ${fenToYuan(row.refundPoints)}` : ''}`,
      });
      return true;
    });
    if (moved) settled += 1;
  }
  return settled;
}
