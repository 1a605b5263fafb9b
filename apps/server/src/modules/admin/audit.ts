import { ADMIN_MSG, type AuditRow, PAGE_SIZE } from '@sitemall/contract';
import { and, count, desc, eq, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { chinaDay } from '../../lib/china-time';
import { badRequest } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { type OperatorCtx, sitesToRead } from './admin.service';
import { auditLog, operator } from './admin.tables';

export interface AuditEntry {
  siteId: number | null;
  action: string;
  entity: string;
  entityId: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string;
}

export type RecordAudit = (entry: AuditEntry) => Promise<void>;

/** A reason for a sensitive action (refund, points issue, role change, pay-way change). */
export function requireReason(reason: string | undefined): string {
  const text = (reason ?? '').trim();
  if (!text) throw badRequest(ADMIN_MSG.reasonRequired);
  return text;
}

/**
 * Runs a console write in one transaction with its audit rows: the change and its record
 * commit together or not at all.
 */
export function audited<T>(ctx: OperatorCtx, write: (tx: Db, record: RecordAudit) => Promise<T>): Promise<T> {
  return transaction(ctx, async ({ db: tx }) =>
    write(tx, async (entry) => {
      await tx.insert(auditLog).values({
        operatorId: ctx.operator.id,
        siteId: entry.siteId,
        action: entry.action,
        entity: entry.entity,
        entityId: String(entry.entityId),
        before: entry.before ?? null,
        after: entry.after ?? null,
        reason: entry.reason ?? '',
        ip: ctx.ip,
        requestId: ctx.requestId,
      });
    }),
  );
}

export interface AuditQuery {
  siteId?: number;
  action?: string;
  operator?: string;
  from?: string;
  to?: string;
  pageNum?: number;
}

/** The audit log within the caller's audit scope; rows of no site only for an all-sites scope. */
export async function searchAudit(ctx: OperatorCtx, query: AuditQuery) {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, 'audit:view', query.siteId);
  const empty = { list: [] as AuditRow[], total: 0, pageNum, pageSize: PAGE_SIZE };
  if (scope !== 'all' && scope.length === 0) return empty;
  const where = and(
    scope === 'all' ? undefined : and(isNotNull(auditLog.siteId), inArray(auditLog.siteId, scope)),
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.operator ? eq(operator.username, query.operator) : undefined,
    query.from ? gte(auditLog.at, chinaDay(query.from).start) : undefined,
    query.to ? lt(auditLog.at, chinaDay(query.to).end) : undefined,
  );
  return listPage({
    pageNum,
    rows: ctx.db
      .select({ row: auditLog, operatorName: operator.name })
      .from(auditLog)
      .innerJoin(operator, eq(operator.id, auditLog.operatorId))
      .where(where)
      .orderBy(desc(auditLog.id)),
    total: ctx.db
      .select({ n: count() })
      .from(auditLog)
      .innerJoin(operator, eq(operator.id, auditLog.operatorId))
      .where(where),
    present: (rows) =>
      rows.map(({ row, operatorName }): AuditRow => ({ ...row, at: row.at.toISOString(), operatorName })),
  });
}

/** Whether the operator has already recorded this action on this entity (e.g. the first approval level). */
export async function didBefore(
  ctx: OperatorCtx,
  entry: { action: string; entity: string; entityId: string },
): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.operatorId, ctx.operator.id),
        eq(auditLog.action, entry.action),
        eq(auditLog.entity, entry.entity),
        eq(auditLog.entityId, entry.entityId),
      ),
    )
    .limit(1);
  return row !== undefined;
}
