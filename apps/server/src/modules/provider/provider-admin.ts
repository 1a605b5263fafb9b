import { createHash } from 'node:crypto';
import { PAGE_SIZE, PROVIDER_STATUS, type ProviderStatus } from '@sitemall/contract';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sealText } from '../../lib/aes';
import { failure } from '../../lib/errors';
import { MAX_ISSUE_SENDS } from './issue';
import { goodsView, type ProviderOrderRow } from './provider.service';
import { providerCode, providerOrder } from './provider.tables';

/**
 * What the operator console will call for provider goods (its screens are another issue):
 * provider orders by state, a retry now, giving up (cancel at the provider, then refund),
 * the e-code stock import, and the reconciliation against the provider's statement. Callers
 * check the operator's permission and site scope and write the audit row in the transaction.
 */

export async function listProviderOrders(
  db: Db,
  query: { siteIds: 'all' | number[]; status?: ProviderStatus; pageNum?: number },
  codesKey: Buffer,
) {
  const where = and(
    query.siteIds === 'all' ? undefined : inArray(providerOrder.siteId, query.siteIds),
    query.status ? eq(providerOrder.status, query.status) : undefined,
  );
  const pageNum = query.pageNum ?? 1;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(providerOrder)
      .where(where)
      .orderBy(desc(providerOrder.id))
      .limit(PAGE_SIZE)
      .offset((pageNum - 1) * PAGE_SIZE),
    db.select({ n: count() }).from(providerOrder).where(where),
  ]);
  return {
    total: total?.n ?? 0,
    list: rows.map((r) => ({
      id: r.id,
      siteId: r.siteId,
      orderNo: r.orderNo,
      providerReqId: r.providerReqId,
      attempts: r.attempts,
      lastError: r.lastError,
      createTime: r.createdAt.toISOString(),
      ...goodsView(codesKey, r),
    })),
  };
}

async function issuingRow(db: Db, siteId: number, id: number): Promise<ProviderOrderRow> {
  const [row] = await db
    .select()
    .from(providerOrder)
    .where(and(eq(providerOrder.id, id), eq(providerOrder.siteId, siteId)));
  if (!row) throw failure('服务商订单不存在');
  if (row.status !== PROVIDER_STATUS.issuing) throw failure('只有出票中的订单可以重试或退款');
  return row;
}

/** Sends an unsettled issue again now (same request id). The worker's next pass does it. */
export async function retryProviderOrder(db: Db, input: { siteId: number; id: number }): Promise<void> {
  await issuingRow(db, input.siteId, input.id);
  await db
    .update(providerOrder)
    .set({ nextRetryAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(providerOrder.id, input.id), eq(providerOrder.status, PROVIDER_STATUS.issuing)));
}

/**
 * Gives up on an unsettled issue: the worker's next pass cancels the request id at the
 * provider and refunds the order once the provider confirms it will not issue (or takes the
 * tickets if it already had). Never a refund on our word alone.
 */
export async function refundProviderOrder(db: Db, input: { siteId: number; id: number }): Promise<void> {
  await issuingRow(db, input.siteId, input.id);
  await db
    .update(providerOrder)
    .set({ attempts: MAX_ISSUE_SENDS, nextRetryAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(providerOrder.id, input.id), eq(providerOrder.status, PROVIDER_STATUS.issuing)));
}

const codeHash = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Loads e-codes for a specification, sealed; a code already loaded for it is skipped (its
 * hash is unique), so importing one file twice adds nothing. Answers how many were added.
 */
export async function importCodes(
  db: Db,
  codesKey: Buffer,
  input: { siteId: number; specificationId: number; codes: readonly string[]; batch?: string },
): Promise<{ added: number; skipped: number }> {
  const codes = [...new Set(input.codes.map((c) => c.trim()).filter(Boolean))];
  if (codes.some((c) => c.length > 128)) throw failure('电子码不能超过 128 个字符');
  if (codes.length === 0) return { added: 0, skipped: 0 };
  const added = await db
    .insert(providerCode)
    .values(
      codes.map((code) => ({
        siteId: input.siteId,
        specificationId: input.specificationId,
        codeSealed: sealText(codesKey, code),
        codeHash: codeHash(code),
        batch: input.batch ?? '',
      })),
    )
    .onConflictDoNothing()
    .returning({ id: providerCode.id });
  return { added: added.length, skipped: codes.length - added.length };
}

/** Codes of a specification not handed out yet. */
export async function codesInStock(db: Db, siteId: number, specificationId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(providerCode)
    .where(
      and(
        eq(providerCode.siteId, siteId),
        eq(providerCode.specificationId, specificationId),
        sql`${providerCode.providerOrderId} is null`,
      ),
    );
  return row?.n ?? 0;
}

/**
 * Our issued provider orders against the provider's statement: request ids it issued that we
 * do not hold as issued (to look at: charged by the provider, maybe refunded by us), and ours
 * it does not list.
 */
export async function reconcileStatement(db: Db, statement: readonly { reqId: string }[]) {
  const theirs = new Set(statement.map((s) => s.reqId));
  const ours = await db
    .select({ reqId: providerOrder.providerReqId, status: providerOrder.status })
    .from(providerOrder)
    .where(inArray(providerOrder.kind, ['movie', 'topup']));
  const issued = new Set(ours.filter((o) => o.status === PROVIDER_STATUS.issued).map((o) => o.reqId));
  return {
    onlyAtProvider: [...theirs].filter((id) => !issued.has(id)),
    onlyOurs: [...issued].filter((id) => !theirs.has(id)),
  };
}
