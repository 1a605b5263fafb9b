import { createHash } from 'node:crypto';
import {
  type AdminProviderOrder,
  type CodeStockRow,
  type ImportCodesResult,
  MAX_IMPORT_CODES,
  maskCode,
  PAGE_SIZE,
  PROVIDER_ADMIN_MSG,
  PROVIDER_CONSOLE_LABEL,
  PROVIDER_STATUS,
  type ProviderKind,
  type ProviderStatus,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, gt, gte, inArray, lt, not, or, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { sealText } from '../../lib/aes';
import { chinaDay, chinaTime } from '../../lib/china-time';
import { parseCsv } from '../../lib/csv';
import { badRequest, failure } from '../../lib/errors';
import { emptyPage, type ListPage, listPage, offsetOf } from '../../lib/paging';
import type { SiteScope } from '../admin/admin.service';
import { dayEnd, dayStart, inSites, noSites } from '../admin/console-kit';
import { orderAmountsOf } from '../order/provider-goods';
import type { StatementSource } from './adapters';
import { LEASE_MS, MAX_ISSUE_SENDS } from './issue';
import { goodsView, type ProviderOrderRow } from './provider.service';
import {
  providerAttempt,
  providerCode,
  providerOrder,
  providerReconciliation,
  type ReconItemRow,
} from './provider.tables';

/**
 * What the operator console (provider.console.ts) calls for provider goods: provider orders by
 * state, a retry now, giving up (cancel at the provider, then refund), the e-code stock import,
 * and the reconciliation against the provider's statement. Callers check the operator's
 * permission and site scope and write the audit row in the transaction.
 */

export interface ProviderOrderQuery {
  siteIds: SiteScope;
  status?: ProviderStatus;
  kind?: ProviderKind;
  /** Sent without a settling answer: what an operator retries or refunds. */
  needsAction?: boolean;
  orderNo?: string;
  from?: string;
  to?: string;
  pageNum?: number;
}

/** A row sent to the provider without a settling answer (issuing, sent at least once). */
const needsActionSql = and(eq(providerOrder.status, PROVIDER_STATUS.issuing), gt(providerOrder.attempts, 0));

export function adminProviderView(codesKey: Buffer, r: ProviderOrderRow): AdminProviderOrder {
  const status = r.status as ProviderStatus;
  return {
    id: r.id,
    siteId: r.siteId,
    orderNo: r.orderNo,
    childOrderNo: r.childOrderNo,
    provider: r.provider,
    providerReqId: r.providerReqId,
    providerOrderId: r.providerOrderId,
    ...goodsView(codesKey, r),
    status,
    statusName: PROVIDER_CONSOLE_LABEL[status],
    attempts: r.attempts,
    lastError: r.lastError,
    needsAction: status === PROVIDER_STATUS.issuing && r.attempts > 0,
    nextRetryTime: r.nextRetryAt.toISOString(),
    createTime: r.createdAt.toISOString(),
    updateTime: r.updatedAt.toISOString(),
  };
}

export async function listProviderOrders(ctx: RequestContext, query: ProviderOrderQuery, codesKey: Buffer) {
  const { db } = ctx;
  const pageNum = query.pageNum ?? 1;
  if (noSites(query.siteIds)) return emptyPage<AdminProviderOrder>(pageNum);
  const orderNo = query.orderNo?.trim();
  const from = dayStart(query.from);
  const to = dayEnd(query.to);
  const where = and(
    inSites(providerOrder.siteId, query.siteIds),
    query.status ? eq(providerOrder.status, query.status) : undefined,
    query.kind ? eq(providerOrder.kind, query.kind) : undefined,
    query.needsAction ? needsActionSql : undefined,
    orderNo ? or(eq(providerOrder.orderNo, orderNo), eq(providerOrder.childOrderNo, orderNo)) : undefined,
    from ? gte(providerOrder.createdAt, from) : undefined,
    to ? lt(providerOrder.createdAt, to) : undefined,
  );
  const { list, ...counts } = await listPage({
    pageNum,
    rows: db.select().from(providerOrder).where(where).orderBy(desc(providerOrder.id)),
    total: db.select({ n: count() }).from(providerOrder).where(where),
    present: (rows) => rows.map((r) => adminProviderView(codesKey, r)),
  });
  // This endpoint has always answered the list after its counts.
  return { ...counts, list };
}

/** One provider order of a site, or the console's "not found". */
export async function providerOrderOfSite(
  ctx: RequestContext,
  siteId: number,
  id: number,
): Promise<ProviderOrderRow> {
  const { db } = ctx;
  const [row] = await db
    .select()
    .from(providerOrder)
    .where(and(eq(providerOrder.id, id), eq(providerOrder.siteId, siteId)));
  if (!row) throw failure(PROVIDER_ADMIN_MSG.notFound);
  return row;
}

/** The attempt log of a provider order, oldest first. */
export async function attemptsOf(ctx: RequestContext, providerOrderId: number) {
  const { db } = ctx;
  return db
    .select()
    .from(providerAttempt)
    .where(eq(providerAttempt.providerOrderId, providerOrderId))
    .orderBy(asc(providerAttempt.id));
}

/** An operator's attempt (a refund) in the log, in the caller's transaction. */
export async function logAttempt(
  tx: Db,
  entry: { providerOrderId: number; action: 'refund'; outcome: string; note: string; operatorId: number },
) {
  await tx.insert(providerAttempt).values(entry);
}

/** lastError of a row an operator's retry is sending (under its lease); the send's outcome replaces it. */
export const RETRYING = '运营重试中';

/**
 * Takes an unsettled row for an operator's retry: its attempts and lease move only if nobody
 * (another tab, the worker) took it since it was read, so two retries at once send once.
 */
export async function claimForRetry(tx: Db, row: ProviderOrderRow, now: Date) {
  if (row.status !== PROVIDER_STATUS.issuing) throw failure(PROVIDER_ADMIN_MSG.notIssuing);
  if (row.lastError === RETRYING && row.nextRetryAt > now) throw failure(PROVIDER_ADMIN_MSG.busy);
  const [claimed] = await tx
    .update(providerOrder)
    .set({
      attempts: row.attempts + 1,
      nextRetryAt: new Date(now.getTime() + LEASE_MS),
      lastError: RETRYING,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(providerOrder.id, row.id),
        eq(providerOrder.status, PROVIDER_STATUS.issuing),
        eq(providerOrder.attempts, row.attempts),
        // Another operator's retry holds its lease (its send is under way).
        not(and(eq(providerOrder.lastError, RETRYING), gt(providerOrder.nextRetryAt, now)) as SQL),
      ),
    )
    .returning();
  if (!claimed) throw failure(PROVIDER_ADMIN_MSG.busy);
  return claimed;
}

async function issuingRow(db: Db, siteId: number, id: number): Promise<ProviderOrderRow> {
  const [row] = await db
    .select()
    .from(providerOrder)
    .where(and(eq(providerOrder.id, id), eq(providerOrder.siteId, siteId)));
  if (!row) throw failure(PROVIDER_ADMIN_MSG.notFound);
  if (row.status !== PROVIDER_STATUS.issuing) throw failure(PROVIDER_ADMIN_MSG.notIssuing);
  return row;
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
  if (codes.some((c) => c.length > 128)) throw failure(PROVIDER_ADMIN_MSG.codeTooLong);
  const added = await insertCodes(db, codesKey, { ...input, batch: input.batch ?? '' }, codes);
  return { added: added.size, skipped: codes.length - added.size };
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

const HEADER = /^(code|codes|电子码|券码|卡密)$/i;
const INSERT_CHUNK = 500;

/** Seals and inserts codes of a specification; answers the hashes added (a known hash is skipped). */
async function insertCodes(
  db: Db,
  codesKey: Buffer,
  input: { siteId: number; specificationId: number; batch: string },
  codes: readonly string[],
): Promise<Set<string>> {
  const added = new Set<string>();
  for (let i = 0; i < codes.length; i += INSERT_CHUNK) {
    const rows = await db
      .insert(providerCode)
      .values(
        codes.slice(i, i + INSERT_CHUNK).map((code) => ({
          siteId: input.siteId,
          specificationId: input.specificationId,
          codeSealed: sealText(codesKey, code),
          codeHash: codeHash(code),
          batch: input.batch,
        })),
      )
      .onConflictDoNothing()
      .returning({ codeHash: providerCode.codeHash });
    for (const r of rows) added.add(r.codeHash);
  }
  return added;
}

/**
 * A CSV of e-codes (first column; a header line is skipped) loaded for a specification, sealed,
 * with a report per line: added, already in stock (the unique hash refused it), repeated in the
 * file, or invalid. Nothing of a code is kept in clear, the report shows it masked.
 */
export async function importCodeFile(
  db: Db,
  codesKey: Buffer,
  input: { siteId: number; specificationId: number; text: string; batch: string },
): Promise<ImportCodesResult> {
  const lines = parseCsv(input.text);
  type Row = ImportCodesResult['rows'][number] & { code: string };
  const rows: Row[] = [];
  const seen = new Set<string>();
  for (const [i, cells] of lines.entries()) {
    const code = (cells[0] ?? '').trim();
    if (!code || (i === 0 && HEADER.test(code))) continue;
    const row: Row = { line: i + 1, code, maskedCode: maskCode(code), result: 'added', msg: '' };
    if (code.length > 128) Object.assign(row, { result: 'invalid', msg: PROVIDER_ADMIN_MSG.codeTooLong });
    else if (/[\s\p{Cc}]/u.test(code)) Object.assign(row, { result: 'invalid', msg: '电子码不能含空白字符' });
    else if (seen.has(code)) Object.assign(row, { result: 'repeated', msg: '文件中重复' });
    seen.add(code);
    rows.push(row);
  }
  if (rows.length === 0) throw badRequest(PROVIDER_ADMIN_MSG.noCodes);
  const fresh = rows.filter((r) => r.result === 'added').map((r) => r.code);
  if (fresh.length > MAX_IMPORT_CODES) throw badRequest(PROVIDER_ADMIN_MSG.tooManyCodes);
  const added = await insertCodes(db, codesKey, input, fresh);
  for (const r of rows)
    if (r.result === 'added' && !added.has(codeHash(r.code)))
      Object.assign(r, { result: 'duplicate', msg: '库存中已有该电子码' });
  return {
    batch: input.batch,
    added: added.size,
    duplicates: rows.filter((r) => r.result === 'duplicate' || r.result === 'repeated').length,
    invalid: rows.filter((r) => r.result === 'invalid').length,
    available: await codesInStock(db, input.siteId, input.specificationId),
    rows: rows.map(({ code: _, ...r }) => r),
  };
}

/** The code stock per specification (goods) of the sites in scope. */
export async function codeStock(
  ctx: RequestContext,
  scope: SiteScope,
  pageNum = 1,
): Promise<ListPage<CodeStockRow>> {
  const { db } = ctx;
  if (noSites(scope)) return emptyPage(pageNum);
  const offset = offsetOf(pageNum);
  const groups = await db
    .select({
      siteId: providerCode.siteId,
      specificationId: providerCode.specificationId,
      total: count(),
      available: sql<number>`count(*) filter (where ${providerCode.providerOrderId} is null)`.mapWith(Number),
      lastImport: sql<Date>`max(${providerCode.createdAt})`.mapWith((v) => new Date(v)),
    })
    .from(providerCode)
    .where(inSites(providerCode.siteId, scope))
    .groupBy(providerCode.siteId, providerCode.specificationId)
    .orderBy(asc(providerCode.siteId), asc(providerCode.specificationId));
  return {
    total: groups.length,
    pageNum,
    pageSize: PAGE_SIZE,
    list: groups.slice(offset, offset + PAGE_SIZE).map((g) => ({
      siteId: g.siteId,
      specificationId: g.specificationId,
      total: g.total,
      available: g.available,
      assigned: g.total - g.available,
      lastImportTime: g.lastImport.toISOString(),
    })),
  };
}

/** The providers with a statement, by the name our rows carry (provider_order.provider). */
export const STATEMENT_PROVIDERS = ['cinema', 'topup'] as const;

/**
 * One China day of the provider's statement against our provider orders, per provider: matched
 * (issued on both sides at one amount), missing on our side (the provider issued, we hold no
 * issued row), missing on theirs (we hold it issued, the statement does not list it), amount
 * differs. Our side: rows issued that day, and any row the statement names. The result replaces
 * the day's row (unique per day and provider), so running it again changes nothing else.
 */
export async function reconcileDay(
  db: Db,
  statement: StatementSource,
  day: string,
  operatorId: number | null,
) {
  const lines = await statement(day);
  const { start, end } = chinaDay(day);
  const saved: (typeof providerReconciliation.$inferSelect)[] = [];
  for (const provider of STATEMENT_PROVIDERS) {
    const theirs = new Map(lines.filter((l) => l.kind === provider).map((l) => [l.reqId, l]));
    const ours = await db
      .select()
      .from(providerOrder)
      .where(
        and(
          eq(providerOrder.provider, provider),
          or(
            and(
              eq(providerOrder.status, PROVIDER_STATUS.issued),
              gte(providerOrder.updatedAt, start),
              lt(providerOrder.updatedAt, end),
            ),
            theirs.size > 0 ? inArray(providerOrder.providerReqId, [...theirs.keys()]) : undefined,
          ),
        ),
      );
    const amounts = await orderAmountsOf(
      { db },
      ours.map((o) => o.orderId),
    );
    const items: ReconItemRow[] = [];
    let matched = 0;
    let ourTotal = 0;
    const ourIds = new Set<string>();
    for (const o of ours) {
      ourIds.add(o.providerReqId);
      const line = theirs.get(o.providerReqId);
      const ourAmount = amounts.get(o.orderId)?.payAmount ?? 0;
      const issued = o.status === PROVIDER_STATUS.issued;
      if (issued) ourTotal += ourAmount;
      const item = {
        reqId: o.providerReqId,
        orderNo: o.orderNo,
        siteId: o.siteId,
        ourAmount: issued ? ourAmount : null,
        theirAmount: line?.amount ?? null,
        ourStatus: o.status,
      };
      if (!line) items.push({ kind: 'missingTheirs', ...item });
      else if (!issued) items.push({ kind: 'missingOurs', ...item });
      else if (line.amount !== ourAmount) items.push({ kind: 'amountDiffers', ...item });
      else matched += 1;
    }
    for (const [reqId, line] of theirs)
      if (!ourIds.has(reqId))
        items.push({
          kind: 'missingOurs',
          reqId,
          orderNo: null,
          siteId: null,
          ourAmount: null,
          theirAmount: line.amount,
          ourStatus: null,
        });
    const tally = (kind: ReconItemRow['kind']) => items.filter((i) => i.kind === kind).length;
    const values = {
      day,
      provider,
      matched,
      missingOurs: tally('missingOurs'),
      missingTheirs: tally('missingTheirs'),
      amountDiffers: tally('amountDiffers'),
      theirTotal: [...theirs.values()].reduce((sum, l) => sum + l.amount, 0),
      ourTotal,
      items,
      operatorId,
    };
    const [row] = await db
      .insert(providerReconciliation)
      .values(values)
      .onConflictDoUpdate({
        target: [providerReconciliation.day, providerReconciliation.provider],
        set: { ...values, ranAt: sql`now()` },
      })
      .returning();
    if (row) saved.push(row);
  }
  return saved;
}

/** The daily job: yesterday (China time) once, unless already reconciled. */
export async function reconcileYesterday(db: Db, statement: StatementSource, now = new Date()) {
  const day = chinaTime(new Date(now.getTime() - 86_400_000), 'YYYY-MM-DD');
  const done = await db
    .select({ id: providerReconciliation.id })
    .from(providerReconciliation)
    .where(eq(providerReconciliation.day, day));
  if (done.length >= STATEMENT_PROVIDERS.length) return [];
  return reconcileDay(db, statement, day, null);
}

export async function listReconciliations(ctx: RequestContext, query: { day?: string; pageNum?: number }) {
  const { db } = ctx;
  const where = query.day ? eq(providerReconciliation.day, query.day) : undefined;
  const { list, ...counts } = await listPage({
    pageNum: query.pageNum,
    rows: db
      .select()
      .from(providerReconciliation)
      .where(where)
      .orderBy(desc(providerReconciliation.day), asc(providerReconciliation.provider)),
    total: db.select({ n: count() }).from(providerReconciliation).where(where),
  });
  // `rows`: the route presents them (reconViews) into the answer's `list`.
  return { rows: list, ...counts };
}
