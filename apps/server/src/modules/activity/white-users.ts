import {
  ACTIVITY_ADMIN_MSG,
  type AdminWhiteUser,
  MAX_WHITE_IMPORT_ROWS,
  WHITE_CODE_PATTERN,
  WHITE_PHONE_PATTERN,
  type WhiteImportReport,
  type WhiteImportRow,
} from '@sitemall/contract';
import { and, count, desc, eq, or } from 'drizzle-orm';
import { parseCsv } from '../../lib/csv';
import { badRequest, failure } from '../../lib/errors';
import { containsText } from '../../lib/like';
import { listPage } from '../../lib/paging';
import type { OperatorCtx } from '../admin/admin.service';
import { audited } from '../admin/audit';
import { mktWhiteUser } from './activity.tables';
import { activityFor } from './lottery-console';
import { consoleTime } from './seckill-console';

/**
 * Invited users (white users) of an activity in the console: the list, one added by hand, one
 * removed, and a CSV file ("white code[, phone]" per line) loaded with a result per line:
 * imported, already there (a re-import changes nothing: the unique key (activity, white code)
 * decides, not a prior read), or an error saying what is wrong with it. Writes are audited in
 * their transaction.
 */

const HEADER = /邀请码|white/i;
const CHUNK = 1000;

export const WHITE_ROW_MSG = {
  code: '邀请码只能包含字母、数字、_ 和 -，最多 64 位',
  phone: '手机号须为 11 位数字，以 1 开头',
  duplicate: (line: number) => `与第 ${line} 行的邀请码重复`,
  tooMany: `一次最多导入 ${MAX_WHITE_IMPORT_ROWS} 行`,
} as const;

type WhiteUserRow = typeof mktWhiteUser.$inferSelect;

const whiteUserOf = (r: WhiteUserRow): AdminWhiteUser => ({
  id: r.id,
  whiteCode: r.whiteCode,
  phone: r.phone ?? '',
  memberId: r.memberId,
  createdAt: consoleTime(r.createdAt),
});

/** What is wrong with a white code and phone (empty phone allowed), or '' when nothing is. */
function whiteProblem(whiteCode: string, phone: string): string {
  if (!WHITE_CODE_PATTERN.test(whiteCode)) return WHITE_ROW_MSG.code;
  if (phone && !WHITE_PHONE_PATTERN.test(phone)) return WHITE_ROW_MSG.phone;
  return '';
}

/** Reads the file: each non-empty line checked on its own; a first line naming the columns is skipped. */
export function readWhiteRows(text: string): WhiteImportRow[] {
  const lines = parseCsv(text);
  const rows: WhiteImportRow[] = [];
  const seen = new Map<string, number>();
  lines.forEach((cells, index) => {
    const line = index + 1;
    const whiteCode = (cells[0] ?? '').trim();
    const phone = (cells[1] ?? '').trim();
    if (!whiteCode && !phone) return;
    if (line === 1 && HEADER.test(whiteCode)) return;
    const problem =
      whiteProblem(whiteCode, phone) ||
      (seen.has(whiteCode) ? WHITE_ROW_MSG.duplicate(seen.get(whiteCode) as number) : '');
    if (!problem) seen.set(whiteCode, line);
    rows.push({ line, whiteCode, phone, result: problem ? 'error' : 'created', detail: problem });
  });
  if (rows.length > MAX_WHITE_IMPORT_ROWS) throw badRequest(WHITE_ROW_MSG.tooMany);
  return rows;
}

export async function importWhiteUsers(
  ctx: OperatorCtx,
  input: { siteId: number; activityId: number; fileName: string; text: string },
): Promise<WhiteImportReport> {
  const a = await activityFor(ctx, 'promotions:manage', input.siteId, input.activityId);
  const rows = readWhiteRows(input.text);
  const valid = rows.filter((r) => r.result !== 'error');
  if (rows.length === 0) throw failure(ACTIVITY_ADMIN_MSG.emptyImport);
  const created = new Set<string>();
  await audited(ctx, async (tx, record) => {
    for (let i = 0; i < valid.length; i += CHUNK) {
      const chunk = valid.slice(i, i + CHUNK);
      const inserted = await tx
        .insert(mktWhiteUser)
        .values(
          chunk.map((r) => ({
            siteId: a.siteId,
            activityId: a.id,
            whiteCode: r.whiteCode,
            phone: r.phone || null,
          })),
        )
        .onConflictDoNothing()
        .returning({ whiteCode: mktWhiteUser.whiteCode });
      for (const r of inserted) created.add(r.whiteCode);
    }
    await record({
      siteId: a.siteId,
      action: 'lottery.white.import',
      entity: 'mkt_activity',
      entityId: a.id,
      after: {
        fileName: input.fileName,
        created: created.size,
        existing: valid.length - created.size,
        errors: rows.length - valid.length,
      },
    });
  });
  for (const r of valid) {
    if (created.has(r.whiteCode)) r.detail = '已导入';
    else Object.assign(r, { result: 'exists', detail: '已存在，未改动' });
  }
  return {
    created: created.size,
    existing: valid.length - created.size,
    errors: rows.length - valid.length,
    rows,
  };
}

/** An activity's invited users, newest first; a keyword finds part of a white code or a phone. */
export async function listWhiteUsers(
  ctx: OperatorCtx,
  query: { siteId: number; activityId: number; keyword?: string; pageNum?: number },
) {
  const a = await activityFor(ctx, 'promotions:view', query.siteId, query.activityId);
  const keyword = query.keyword?.trim();
  const where = and(
    eq(mktWhiteUser.activityId, a.id),
    keyword
      ? or(containsText(mktWhiteUser.whiteCode, keyword), containsText(mktWhiteUser.phone, keyword))
      : undefined,
  );
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db.select().from(mktWhiteUser).where(where).orderBy(desc(mktWhiteUser.id)),
    total: ctx.db.select({ n: count() }).from(mktWhiteUser).where(where),
    present: (rows) => rows.map(whiteUserOf),
  });
}

/**
 * Adds one invited user. A white code the activity already has is refused by the unique key in
 * the insert itself (never by a prior count), so two tabs adding the same code create one row.
 */
export async function addWhiteUser(
  ctx: OperatorCtx,
  input: { siteId: number; activityId: number; whiteCode: string; phone?: string },
): Promise<AdminWhiteUser> {
  const a = await activityFor(ctx, 'promotions:manage', input.siteId, input.activityId);
  const whiteCode = input.whiteCode.trim();
  const phone = input.phone?.trim() ?? '';
  const problem = whiteProblem(whiteCode, phone);
  if (problem) throw badRequest(problem);
  return audited(ctx, async (tx, record) => {
    const [row] = await tx
      .insert(mktWhiteUser)
      .values({ siteId: a.siteId, activityId: a.id, whiteCode, phone: phone || null })
      .onConflictDoNothing()
      .returning();
    if (!row) throw failure(ACTIVITY_ADMIN_MSG.whiteCodeTaken);
    const added = whiteUserOf(row);
    await record({
      siteId: a.siteId,
      action: 'lottery.white.add',
      entity: 'mkt_white_user',
      entityId: row.id,
      after: { activityId: a.id, whiteCode, phone },
    });
    return added;
  });
}

/** Removes an invited user of the activity: the member loses the invitation, prizes won stay. */
export async function removeWhiteUser(
  ctx: OperatorCtx,
  input: { siteId: number; activityId: number; id: number },
): Promise<void> {
  const a = await activityFor(ctx, 'promotions:manage', input.siteId, input.activityId);
  await audited(ctx, async (tx, record) => {
    const [row] = await tx
      .delete(mktWhiteUser)
      .where(and(eq(mktWhiteUser.id, input.id), eq(mktWhiteUser.activityId, a.id)))
      .returning();
    if (!row) throw failure(ACTIVITY_ADMIN_MSG.whiteNotFound);
    await record({
      siteId: a.siteId,
      action: 'lottery.white.remove',
      entity: 'mkt_white_user',
      entityId: row.id,
      before: { activityId: a.id, ...whiteUserOf(row) },
    });
  });
}
