import { MOVIE_MSG, ORDER_STATUS, PROVIDER_STATUS } from '@sitemall/contract';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { openText } from '../../lib/aes';
import { completeIssuedOrder, failAndRefundOrder, orderStatusesOf } from '../order/provider-goods';
import { type Issuer, type IssueState, ProviderRefusal, ProviderUnavailable } from './adapters';
import {
  claimDue,
  moveProviderOrder,
  type ProviderDeps,
  type ProviderOrderRow,
  sealCodes,
  waitingForPayment,
} from './provider.service';
import { providerAttempt, providerCode, providerOrder } from './provider.tables';

/**
 * The issue worker (promotions.md section 8). A paid provider order is an outbox row; the
 * worker sends it with its provider_req_id, which the provider issues at most once:
 * - issued → the codes are sealed on the row and the order completes (24 → 23);
 * - refused → the order fails and is refunded (24 → 51) and the seats go back;
 * - no answer (timeout, 5xx) → sent again later with the same id (backoff); after
 *   MAX_ISSUE_SENDS sends the worker cancels the id at the provider instead, which answers
 *   either "cancelled" (it will never issue: fail and refund) or the tickets it did issue after
 *   our timeout (taken). Nothing is refunded until the provider has said it will not issue, so
 *   a member is never charged without a ticket nor given two.
 */

export const MAX_ISSUE_SENDS = 3;
/** Delay before the next send after an unanswered one (by sends made so far). */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 300_000];
/** How long a claimed row is left to its worker before another may send it again. */
export const LEASE_MS = 60_000;
const BATCH = 20;

/** Order statuses in which an unpaid order will never be paid. */
const ENDED: readonly number[] = [ORDER_STATUS.withdrawn, ORDER_STATUS.expired, ORDER_STATUS.notApproved];

export interface WorkResult {
  issued: number;
  failed: number;
  retried: number;
  released: number;
}

/** One pass: seats of ended orders back to the provider, then every due issue. */
export async function runProviderWork(db: Db, deps: ProviderDeps, now = new Date()): Promise<WorkResult> {
  const result: WorkResult = { issued: 0, failed: 0, retried: 0, released: 0 };
  result.released = await releaseEnded(db, deps);
  for (const row of await claimDue(db, now, LEASE_MS, BATCH)) {
    const outcome = await sendIssue({ db }, deps, row, now);
    result[outcome] += 1;
  }
  return result;
}

/** Held seats and top-ups of orders that ended unpaid (cancelled, expired): released. */
export async function releaseEnded(db: Db, deps: ProviderDeps): Promise<number> {
  const waiting = await waitingForPayment(db, 200);
  const statuses = await orderStatusesOf(
    db,
    waiting.map((r) => r.orderId),
  );
  let released = 0;
  for (const row of waiting) {
    if (!ENDED.includes(statuses.get(row.orderId) ?? -1)) continue;
    const moved = await moveProviderOrder(
      db,
      row.id,
      row.status as 'locked' | 'pending',
      PROVIDER_STATUS.expired,
    );
    if (!moved) continue;
    released += 1;
    await releaseSeats(deps, row);
  }
  return released;
}

/** Gives the seats back to the provider; its lock expires on its own if this call is lost. */
export async function releaseSeats(deps: ProviderDeps, row: ProviderOrderRow): Promise<void> {
  if (row.kind !== 'movie' || !row.lockId) return;
  try {
    await deps.cinema.release(row.lockId);
  } catch (error) {
    deps.log?.warn(
      { providerOrderId: row.id, err: (error as Error).message },
      'seat release failed; the lock will expire',
    );
  }
}

export const issuerOf = (deps: ProviderDeps, row: ProviderOrderRow): Issuer =>
  row.kind === 'movie' ? deps.cinema : deps.topup;

export type SendAction = 'issue' | 'cancel' | 'stock' | 'retry';

/**
 * Sends a claimed row (its lease taken, attempts counted) and logs the attempt: the worker's
 * pass, or an operator's retry (`by`), which always sends the issue request again.
 */
export async function sendIssue(
  ctx: RequestContext,
  deps: ProviderDeps,
  row: ProviderOrderRow,
  now: Date,
  by?: { operatorId: number; note: string },
) {
  const { db } = ctx;
  const action: SendAction = by
    ? 'retry'
    : row.kind === 'code'
      ? 'stock'
      : row.attempts > MAX_ISSUE_SENDS
        ? 'cancel'
        : 'issue';
  const outcome = await issueRow(db, deps, row, now, action === 'cancel' ? 'cancel' : 'issue');
  const [after] = await db
    .select({ lastError: providerOrder.lastError })
    .from(providerOrder)
    .where(eq(providerOrder.id, row.id));
  await db.insert(providerAttempt).values({
    providerOrderId: row.id,
    action,
    outcome,
    note: [by?.note, outcome === 'issued' ? '' : after?.lastError].filter(Boolean).join('；').slice(0, 300),
    operatorId: by?.operatorId ?? null,
  });
  return outcome;
}

async function issueRow(
  db: Db,
  deps: ProviderDeps,
  row: ProviderOrderRow,
  now: Date,
  send: 'issue' | 'cancel',
) {
  if (row.kind === 'code') return issueFromStock(db, deps, row);
  const issuer = issuerOf(deps, row);
  let answer: IssueState;
  try {
    answer =
      send === 'cancel'
        ? await issuer.cancel(row.providerReqId)
        : await issuer.issue({
            reqId: row.providerReqId,
            ...(row.lockId ? { lockId: row.lockId } : {}),
            ...(row.payload.phone ? { phone: row.payload.phone, faceValue: row.payload.faceValue } : {}),
          });
  } catch (error) {
    if (error instanceof ProviderRefusal) return settleFailed(db, deps, row, error.message);
    if (!(error instanceof ProviderUnavailable)) throw error;
    await retryLater(db, deps, row, now, error.message);
    return 'retried' as const;
  }
  if (answer.state === 'issued')
    return settleIssued({ db }, deps, row, answer.codes ?? [], answer.providerOrderId);
  if (answer.state === 'cancelled') return settleFailed(db, deps, row, '服务商未能出票');
  await retryLater(db, deps, row, now, 'not issued yet');
  return 'retried' as const;
}

async function retryLater(
  db: Db,
  deps: ProviderDeps,
  row: ProviderOrderRow,
  now: Date,
  why: string,
): Promise<void> {
  const delay = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length) - 1] ?? LEASE_MS;
  await db
    .update(providerOrder)
    .set({
      nextRetryAt: new Date(now.getTime() + delay),
      lastError: why.slice(0, 200),
      updatedAt: sql`now()`,
    })
    .where(and(eq(providerOrder.id, row.id), eq(providerOrder.status, PROVIDER_STATUS.issuing)));
  // Ids and the reason only: never a code or a phone number in the log.
  deps.log?.warn(
    { providerOrderId: row.id, attempts: row.attempts, why },
    'provider issue unanswered, retrying',
  );
}

const ISSUED_NOTE: Record<string, string> = { movie: '影院已出票', topup: '充值成功', code: '电子码已发放' };

export async function settleIssued(
  ctx: RequestContext,
  deps: ProviderDeps,
  row: ProviderOrderRow,
  codes: string[],
  providerOrderId?: string,
) {
  const { db } = ctx;
  await db.transaction(async (tx) => {
    const moved = await moveProviderOrder(tx, row.id, PROVIDER_STATUS.issuing, PROVIDER_STATUS.issued, {
      codes: sealCodes(deps.codesKey, codes),
      providerOrderId: providerOrderId ?? null,
      lastError: '',
    });
    if (moved) await completeWhenAllIssued(tx, row);
  });
  deps.log?.info({ providerOrderId: row.id, orderNo: row.orderNo, kind: row.kind }, 'provider goods issued');
  return 'issued' as const;
}

async function settleFailed(db: Db, deps: ProviderDeps, row: ProviderOrderRow, reason: string) {
  const failed = await db.transaction(async (tx) => {
    const moved = await moveProviderOrder(tx, row.id, PROVIDER_STATUS.issuing, PROVIDER_STATUS.failed, {
      lastError: reason.slice(0, 200),
    });
    if (moved) await failAndRefundOrder(tx, row.orderId, reason);
    return moved;
  });
  if (failed) await releaseSeats(deps, row);
  deps.log?.warn(
    { providerOrderId: row.id, orderNo: row.orderNo, kind: row.kind, reason },
    'provider issue failed, refunded',
  );
  return 'failed' as const;
}

class ShortOfCodes extends Error {}

/**
 * E-codes from the pre-loaded stock: the row's codes are taken with FOR UPDATE SKIP LOCKED in
 * one transaction with the row's settlement, so parallel workers never take one code twice and
 * a short stock takes none (the order is refunded instead).
 */
async function issueFromStock(db: Db, deps: ProviderDeps, row: ProviderOrderRow) {
  const num = row.payload.num ?? 1;
  try {
    await db.transaction(async (tx) => {
      const picked = await tx
        .select({ id: providerCode.id, codeSealed: providerCode.codeSealed })
        .from(providerCode)
        .where(
          and(
            eq(providerCode.siteId, row.siteId),
            eq(providerCode.specificationId, row.payload.specificationId ?? 0),
            isNull(providerCode.providerOrderId),
          ),
        )
        .orderBy(asc(providerCode.id))
        .limit(num)
        .for('update', { skipLocked: true });
      if (picked.length < num) throw new ShortOfCodes();
      for (const code of picked)
        await tx
          .update(providerCode)
          .set({ providerOrderId: row.id, assignedAt: sql`now()` })
          .where(and(eq(providerCode.id, code.id), isNull(providerCode.providerOrderId)));
      const codes = picked.map((c) => openText(deps.codesKey, c.codeSealed));
      const moved = await moveProviderOrder(tx, row.id, PROVIDER_STATUS.issuing, PROVIDER_STATUS.issued, {
        codes: sealCodes(deps.codesKey, codes),
        lastError: '',
      });
      // Settled by another worker meanwhile: roll the codes back.
      if (!moved) throw new AlreadySettled();
      await completeWhenAllIssued(tx, row);
    });
  } catch (error) {
    if (error instanceof ShortOfCodes) return settleFailed(db, deps, row, MOVIE_MSG.codesSoldOut);
    if (error instanceof AlreadySettled) return 'retried' as const;
    throw error;
  }
  return 'issued' as const;
}

class AlreadySettled extends Error {}

/** A child order completes when every provider row of it is issued (several e-code lines). */
async function completeWhenAllIssued(tx: Db, row: ProviderOrderRow): Promise<void> {
  const open = await tx
    .select({ id: providerOrder.id })
    .from(providerOrder)
    .where(
      and(eq(providerOrder.childOrderNo, row.childOrderNo), ne(providerOrder.status, PROVIDER_STATUS.issued)),
    );
  if (open.length === 0)
    await completeIssuedOrder(tx, row.orderId, row.childOrderNo, ISSUED_NOTE[row.kind] ?? '已发放');
}
