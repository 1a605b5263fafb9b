import { createHmac } from 'node:crypto';
import {
  canMoveProvider,
  ECODE_SOURCES,
  maskCode,
  maskPhone,
  PROVIDER_STATUS,
  PROVIDER_STATUS_LABEL,
  type ProviderGoods,
  type ProviderKind,
  type ProviderStatus,
} from '@sitemall/contract';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { openText, sealText } from '../../lib/aes';
import { chinaTime } from '../../lib/china-time';
import type { ProviderGoodsHooks } from '../order/provider-goods';
import type { CinemaAdapter, StatementSource, TopupAdapter } from './adapters';
import { providerOrder } from './provider.tables';

/**
 * The provider module's core: the provider order's state machine (the contract's
 * PROVIDER_TRANSITIONS, enforced by moveProviderOrder), the codes sealed at rest, and the
 * hooks the order module calls (paid → outbox row; order detail → masked codes).
 */

export type ProviderOrderRow = typeof providerOrder.$inferSelect;

export interface ProviderDeps {
  cinema: CinemaAdapter;
  topup: TopupAdapter;
  /** The provider's daily statement (reconciliation). */
  statement: StatementSource;
  /** AES-256-GCM key of ticket and e-codes at rest (derived from the master key). */
  codesKey: Buffer;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** The key of ticket and e-codes at rest, derived from the master key (no second secret to keep). */
export const providerCodesKey = (masterKey: Buffer) =>
  createHmac('sha256', masterKey).update('provider-codes').digest();
/** The secret our requests to the (simulated) provider are signed with. */
export const providerApiSecret = (masterKey: Buffer) =>
  createHmac('sha256', masterKey).update('provider-api').digest();

export const sealCodes = (key: Buffer, codes: readonly string[]) => sealText(key, JSON.stringify(codes));
export const openCodes = (key: Buffer, sealed: string | null): string[] =>
  sealed ? (JSON.parse(openText(key, sealed)) as string[]) : [];

/**
 * The only writer of provider_order.status: refuses a move not in PROVIDER_TRANSITIONS and
 * moves the row only if it is still in `from` (parallel workers cannot both settle it).
 */
export async function moveProviderOrder(
  tx: Db,
  id: number,
  from: ProviderStatus,
  to: ProviderStatus,
  set: Partial<typeof providerOrder.$inferInsert> = {},
): Promise<ProviderOrderRow | undefined> {
  if (!canMoveProvider(from, to)) throw new Error(`provider order cannot move from ${from} to ${to}`);
  const [row] = await tx
    .update(providerOrder)
    .set({ ...set, status: to, updatedAt: sql`now()` })
    .where(and(eq(providerOrder.id, id), eq(providerOrder.status, from)))
    .returning();
  return row;
}

/** In the payment's transaction: held seats and top-ups become paid; e-code lines get their row. */
async function whenPaid(tx: Db, order: Parameters<ProviderGoodsHooks['paid']>[1]): Promise<void> {
  const rows = await tx.select().from(providerOrder).where(eq(providerOrder.orderId, order.id));
  for (const row of rows)
    if (row.status === PROVIDER_STATUS.locked || row.status === PROVIDER_STATUS.pending)
      await moveProviderOrder(tx, row.id, row.status, PROVIDER_STATUS.paid, {
        nextRetryAt: sql`now()` as never,
      });
  for (const child of order.children) {
    if (!ECODE_SOURCES.includes(child.source) || rows.some((r) => r.childOrderNo === child.childOrderNo))
      continue;
    for (const [i, line] of child.lines.entries())
      await tx.insert(providerOrder).values({
        siteId: order.siteId,
        memberId: order.memberId,
        orderId: order.id,
        orderNo: order.orderNo,
        childOrderNo: child.childOrderNo,
        kind: 'code',
        provider: 'stock',
        providerReqId: `C${child.childOrderNo}-${i}`,
        status: PROVIDER_STATUS.paid,
        payload: { specificationId: line.specificationId, num: line.num, name: line.name },
      });
  }
}

const TITLE: Record<ProviderKind, (row: ProviderOrderRow) => string> = {
  movie: (r) => `电影票：${r.payload.filmName ?? ''}`,
  topup: (r) => `话费直充 ${r.payload.faceValue ?? ''} 元`,
  code: (r) => r.payload.name ?? '电子码',
};
const DETAIL: Record<ProviderKind, (row: ProviderOrderRow) => string> = {
  movie: (r) =>
    [
      r.payload.cinemaName,
      r.payload.hall,
      r.payload.startTime ? chinaTime(new Date(r.payload.startTime), 'M月D日 HH:mm') : '',
      (r.payload.seatNames ?? []).join('、'),
    ]
      .filter(Boolean)
      .join(' '),
  topup: (r) => `充值号码 ${maskPhone(r.payload.phone ?? '')}`,
  code: (r) => `共 ${r.payload.num ?? 1} 张，发放后可在此查看`,
};

export function goodsView(key: Buffer, row: ProviderOrderRow): ProviderGoods {
  const kind = row.kind as ProviderKind;
  const status = row.status as ProviderStatus;
  return {
    kind,
    title: TITLE[kind](row),
    detail: DETAIL[kind](row),
    status,
    statusName: PROVIDER_STATUS_LABEL[status],
    maskedCodes: openCodes(key, row.codes).map(maskCode),
  };
}

export function providerGoodsHooks(codesKey: Buffer): ProviderGoodsHooks {
  return {
    paid: whenPaid,
    async goodsOf(db, orderId) {
      const rows = await db
        .select()
        .from(providerOrder)
        .where(eq(providerOrder.orderId, orderId))
        .orderBy(asc(providerOrder.id));
      return rows.map((r) => goodsView(codesKey, r));
    },
  };
}

export async function providerOrdersOf(ctx: RequestContext, orderId: number): Promise<ProviderOrderRow[]> {
  const { db } = ctx;
  return db
    .select()
    .from(providerOrder)
    .where(eq(providerOrder.orderId, orderId))
    .orderBy(asc(providerOrder.id));
}

/** Rows waiting for payment (held seats, top-ups), oldest first: what the sweeper checks. */
export async function waitingForPayment(db: Db, limit: number): Promise<ProviderOrderRow[]> {
  return db
    .select()
    .from(providerOrder)
    .where(inArray(providerOrder.status, [PROVIDER_STATUS.locked, PROVIDER_STATUS.pending]))
    .orderBy(asc(providerOrder.id))
    .limit(limit);
}

/**
 * Claims outbox rows that are due, each by one worker of one process: FOR UPDATE SKIP LOCKED,
 * then a lease (next_retry_at pushed out) so a worker that dies mid-call leaves the row for a
 * later retry with the same request id. Paid rows become issuing; attempts count the sends.
 */
export async function claimDue(
  db: Db,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<ProviderOrderRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: providerOrder.id, status: providerOrder.status })
      .from(providerOrder)
      .where(
        and(
          inArray(providerOrder.status, [PROVIDER_STATUS.paid, PROVIDER_STATUS.issuing]),
          lte(providerOrder.nextRetryAt, now),
        ),
      )
      .orderBy(asc(providerOrder.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    const claimed: ProviderOrderRow[] = [];
    const lease: Partial<typeof providerOrder.$inferInsert> = {
      attempts: sql`${providerOrder.attempts} + 1` as never,
      nextRetryAt: new Date(now.getTime() + leaseMs),
    };
    for (const row of due) {
      const moved =
        row.status === PROVIDER_STATUS.paid
          ? await moveProviderOrder(tx, row.id, PROVIDER_STATUS.paid, PROVIDER_STATUS.issuing, lease)
          : (
              await tx
                .update(providerOrder)
                .set({ ...lease, updatedAt: sql`now()` })
                .where(eq(providerOrder.id, row.id))
                .returning()
            )[0];
      if (moved) claimed.push(moved);
    }
    return claimed;
  });
}
