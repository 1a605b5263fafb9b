import { randomUUID } from 'node:crypto';
import {
  ADMIN_MSG,
  ISSUE_TRANSITIONS,
  type IssueBatch,
  type IssueRow,
  type IssueStatus,
  PAGE_SIZE,
} from '@sitemall/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { issueLines, issuePoints, readIssueRow } from '../points/issue';
import { type OperatorCtx, requireSiteAccess, sitesToRead } from './admin.service';
import { pointsIssueBatch } from './admin.tables';
import { audited, requireReason } from './audit';
import { inSites } from './console-kit';
import { decidersOf, fourEyes } from './four-eyes';
import { thresholdsOf } from './site-policy';

/**
 * Points issues from the console, maker-checker (issue 12): a batch (one member or a CSV file)
 * is drafted, submitted, and above the site's threshold approved by a second operator with the
 * finance permission before it executes. The moves are ISSUE_TRANSITIONS through the shared
 * four-eyes steps (`four-eyes.ts`): guarded UPDATEs on the status, so two approvals racing
 * execute the batch once; each row also carries its ledger request key.
 */

const MAX_ROWS = 5_000;

type BatchRow = typeof pointsIssueBatch.$inferSelect;

async function present(db: Db, rows: BatchRow[]): Promise<IssueBatch[]> {
  const deciders = await decidersOf(db, rows);
  return rows.map((r) => ({
    id: r.id,
    siteId: r.siteId,
    status: r.status,
    makerId: r.makerId,
    ...deciders(r),
    approverId: r.approverId,
    fileName: r.fileName,
    reason: r.reason,
    totalAmount: r.totalAmount,
    rowCount: r.rows.length,
    needsApproval: r.needsApproval,
    refused: r.refused,
    rows: r.rows,
    createdAt: r.createdAt.toISOString(),
    executedAt: r.executedAt?.toISOString() ?? null,
  }));
}

async function presentOne(db: Db, row: BatchRow): Promise<IssueBatch> {
  const [batch] = await present(db, [row]);
  return batch as IssueBatch;
}

async function draft(
  ctx: OperatorCtx,
  input: {
    siteId: number;
    fileName: string;
    reason: string;
    rows: IssueRow[];
    refused: IssueBatch['refused'];
  },
): Promise<IssueBatch> {
  requireSiteAccess(ctx, 'points:manage', input.siteId);
  const reason = requireReason(input.reason);
  if (input.rows.length === 0) throw failure('没有可发放的行');
  if (input.rows.length > MAX_ROWS) throw failure(`一次最多发放 ${MAX_ROWS} 行`);
  const totalAmount = input.rows.reduce((sum, r) => sum + r.amount, 0);
  if (totalAmount > 2_000_000_000) throw failure('发放总额过大，请拆分文件');
  const needsApproval = totalAmount > (await thresholdsOf(ctx.db, input.siteId)).pointsIssueThreshold;
  const row = await audited(ctx, async (tx, record) => {
    const [created] = await tx
      .insert(pointsIssueBatch)
      .values({
        siteId: input.siteId,
        makerId: ctx.operator.id,
        fileName: input.fileName,
        reason,
        totalAmount,
        needsApproval,
        rows: input.rows,
        refused: input.refused,
      })
      .returning();
    if (!created) throw new Error('batch not created');
    await record({
      siteId: input.siteId,
      action: 'points.issue.draft',
      entity: 'points_issue_batch',
      entityId: created.id,
      after: { totalAmount, rows: input.rows.length, needsApproval },
      reason,
    });
    return created;
  });
  return presentOne(ctx.db, row);
}

/** A draft issuing points to one member (amount in fen). */
export function draftSingle(
  ctx: OperatorCtx,
  input: { siteId: number; account: string; amount: number; note?: string; reason: string },
) {
  const row: IssueRow = {
    line: 1,
    account: input.account.trim(),
    amount: input.amount,
    note: (input.note ?? '').trim(),
    requestKey: `issue:console:${randomUUID()}`,
  };
  return draft(ctx, { siteId: input.siteId, fileName: '', reason: input.reason, rows: [row], refused: [] });
}

/** A draft from a CSV file (the ops CLI's format); unreadable lines are listed and never issued. */
export function draftCsv(
  ctx: OperatorCtx,
  input: { siteId: number; fileName: string; text: string; reason: string },
) {
  const rows: IssueRow[] = [];
  const refused: IssueBatch['refused'] = [];
  for (const { cells, line } of issueLines(input.text)) {
    try {
      rows.push({ line, ...readIssueRow(input.fileName, cells, line) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refused.push({ line, detail: error.msg });
    }
  }
  return draft(ctx, { ...input, rows, refused });
}

const batches = fourEyes(pointsIssueBatch, {
  entity: 'points_issue_batch',
  transitions: ISSUE_TRANSITIONS,
  msg: { own: ADMIN_MSG.ownBatch, state: ADMIN_MSG.batchState },
});

/** Issues every row through the ledger (each in its savepoint), then marks the batch executed. */
async function execute(tx: Db, batch: BatchRow, from: IssueStatus): Promise<BatchRow> {
  const claimed = await batches.move(tx, {
    id: batch.id,
    from,
    to: 'executed',
    set: { executedAt: new Date() },
  });
  const done: IssueRow[] = [];
  for (const row of claimed.rows) {
    try {
      const issued = await tx.transaction((sp) =>
        issuePoints(sp, {
          siteId: claimed.siteId,
          account: row.account,
          amount: row.amount,
          note: row.note,
          requestKey: row.requestKey,
        }),
      );
      done.push({ ...row, result: 'ok', detail: issued.isNew ? '已发放' : '此前已发放，未重复发放' });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      done.push({ ...row, result: 'error', detail: error.msg });
    }
  }
  const [row] = await tx
    .update(pointsIssueBatch)
    .set({ rows: done })
    .where(eq(pointsIssueBatch.id, batch.id))
    .returning();
  return row as BatchRow;
}

const summary = (row: BatchRow) => ({
  status: row.status,
  totalAmount: row.totalAmount,
  ok: row.rows.filter((r) => r.result === 'ok').length,
  failed: row.rows.filter((r) => r.result === 'error').length,
});

/** The maker submits: at or below the threshold it executes at once, above it waits for approval. */
export async function submitBatch(ctx: OperatorCtx, batchId: number): Promise<IssueBatch> {
  const batch = await batches.load(ctx, batchId, 'points:manage');
  const action = batch.needsApproval ? 'points.issue.submit' : 'points.issue.execute';
  const row = await batches.step(ctx, batch, { action, after: summary }, (tx) =>
    batch.needsApproval
      ? batches.move(tx, { id: batch.id, from: 'draft', to: 'submitted' })
      : execute(tx, batch, 'draft'),
  );
  return presentOne(ctx.db, row);
}

/** A second operator approves; the batch executes in the same transaction, exactly once. */
export async function approveBatch(ctx: OperatorCtx, batchId: number): Promise<IssueBatch> {
  const batch = await batches.load(ctx, batchId, 'finance:manage');
  const row = await batches.step(
    ctx,
    batch,
    { action: 'points.issue.approve', checker: true, after: summary },
    async (tx) => {
      const approved = await batches.move(tx, {
        id: batch.id,
        from: 'submitted',
        to: 'approved',
        checker: ctx.operator.id,
      });
      return execute(tx, approved, 'approved');
    },
  );
  return presentOne(ctx.db, row);
}

/** A second operator rejects, with a reason; nothing is issued. */
export async function rejectBatch(ctx: OperatorCtx, batchId: number, reason: string): Promise<IssueBatch> {
  const batch = await batches.load(ctx, batchId, 'finance:manage');
  const why = requireReason(reason);
  const row = await batches.step(
    ctx,
    batch,
    { action: 'points.issue.reject', reason: why, checker: true, after: (r) => ({ status: r.status }) },
    (tx) => batches.move(tx, { id: batch.id, from: 'submitted', to: 'rejected', checker: ctx.operator.id }),
  );
  return presentOne(ctx.db, row);
}

export async function listBatches(
  ctx: OperatorCtx,
  query: { siteId?: number; status?: IssueStatus; pageNum?: number },
) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'points:view', query.siteId);
  if (scope !== 'all' && scope.length === 0) return { list: [], total: 0, pageNum, pageSize: PAGE_SIZE };
  const where = and(
    inSites(pointsIssueBatch.siteId, scope),
    query.status ? eq(pointsIssueBatch.status, query.status) : undefined,
  );
  return listPage({
    pageNum,
    rows: ctx.db.select().from(pointsIssueBatch).where(where).orderBy(desc(pointsIssueBatch.id)),
    total: ctx.db.select({ n: count() }).from(pointsIssueBatch).where(where),
    present: (rows) => present(ctx.db, rows),
  });
}
