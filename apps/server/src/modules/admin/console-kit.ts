import { ADMIN_MSG } from '@sitemall/contract';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { chinaDay } from '../../lib/china-time';
import { failure } from '../../lib/errors';
import { emptyPage, type ListPage } from '../../lib/paging';
import { memberById, memberByPhone } from '../identity/members';
import { type OperatorCtx, type SiteScope, sitesToRead } from './admin.service';
import { audited } from './audit';

/** Pieces every family's console services share (lists within a scope, members by what operators type). */

export const noSites = (scope: SiteScope) => scope !== 'all' && scope.length === 0;

/** The filter of a site column to a scope (undefined: every site). */
export const inSites = (column: PgColumn, scope: SiteScope): SQL | undefined =>
  scope === 'all' ? undefined : inArray(column, scope);

/**
 * A list within the sites the operator may read for `permission` (one site when the query names
 * it): `list` gets the filter of `siteColumn` to them; no site at all is an empty page.
 */
export async function listInScope<T>(
  ctx: OperatorCtx,
  permission: string,
  query: { siteId?: number; pageNum?: number },
  siteColumn: PgColumn,
  list: (inScope: SQL | undefined, pageNum: number) => Promise<ListPage<T>>,
): Promise<ListPage<T>> {
  const pageNum = query.pageNum ?? 1;
  const scope = sitesToRead(ctx, permission, query.siteId);
  if (noSites(scope)) return emptyPage(pageNum);
  return list(inSites(siteColumn, scope), pageNum);
}

/** A table whose rows belong to one site each. */
type SiteTable = PgTable & { id: PgColumn; siteId: PgColumn };

/** The row `id` of the site's `table`; another site's row or none answers ADMIN_MSG.notFound. */
export async function rowOnSite<T extends SiteTable>(
  db: Db,
  table: T,
  siteId: number,
  id: number,
): Promise<T['$inferSelect']> {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.siteId, siteId), eq(table.id, id)));
  if (!row) throw failure(ADMIN_MSG.notFound);
  return row as T['$inferSelect'];
}

/** What a console write says in its audit row besides the row itself. */
interface AuditOf {
  action: string;
  entity: string;
  reason: string;
}

/** A new row of a site's `table`, audited (`after`) in the same transaction; its id. */
export function createAudited<T extends SiteTable>(
  ctx: OperatorCtx,
  table: T,
  values: T['$inferInsert'],
  audit: AuditOf & { after: unknown },
): Promise<number> {
  return audited(ctx, async (tx, record) => {
    const [row] = (await tx
      .insert(table as PgTable)
      .values(values as PgInsertValue<PgTable>)
      .returning()) as { id: number; siteId: number }[];
    if (!row) throw new Error(`${audit.entity} not created`);
    await record({ ...audit, siteId: row.siteId, entityId: row.id });
    return row.id;
  });
}

/**
 * Sets `change` on the row `id` of the site's `table` (another site's row or none answers
 * ADMIN_MSG.notFound), audited with the changed fields before and after in one transaction.
 * A change may compute a field in SQL from the row as it is then (a quota moved by a difference,
 * not overwritten with what the operator last saw), under a `guard`: a row that no longer meets
 * it changes nothing and answers `guard.refused`. The audit's `after` holds the stored values.
 */
export async function editAudited<T extends SiteTable>(
  ctx: OperatorCtx,
  table: T,
  target: { siteId: number; id: number },
  change: { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | SQL },
  audit: AuditOf & { guard?: { where: SQL; refused: string } },
): Promise<void> {
  const before: Record<string, unknown> = await rowOnSite(ctx.db, table, target.siteId, target.id);
  const { guard, ...entry } = audit;
  await audited(ctx, async (tx, record) => {
    const [after] = (await tx
      .update(table as PgTable)
      .set(change as PgUpdateSetSource<PgTable>)
      .where(and(eq(table.id, target.id), guard?.where))
      .returning()) as Record<string, unknown>[];
    if (!after) throw failure(guard?.refused ?? ADMIN_MSG.notFound);
    const keys = Object.keys(change);
    await record({
      ...entry,
      siteId: target.siteId,
      entityId: target.id,
      before: Object.fromEntries(keys.map((k) => [k, before[k]])),
      after: Object.fromEntries(keys.map((k) => [k, after[k]])),
    });
  });
}

const PHONE = /^1\d{10}$/;

/** A member of the site by what an operator typed: a phone (11 digits from 1) or a member id. */
export async function memberOfAccount(db: Db, siteId: number, account: string) {
  const text = account.trim();
  if (PHONE.test(text)) return memberByPhone(db, siteId, text);
  if (/^\d{1,9}$/.test(text)) return memberById({ db }, siteId, Number(text));
  return undefined;
}

/** A day typed in the console as the instant it starts (China time) ... */
export const dayStart = (day: string | undefined) => (day ? chinaDay(day).start : null);
/** ... and as the instant after it ends: a "to" day is included whole. */
export const dayEnd = (day: string | undefined) => (day ? chinaDay(day).end : null);

export const isoOrNull = (date: Date | null | undefined) => date?.toISOString() ?? null;
