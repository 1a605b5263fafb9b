import {
  ACTIVITY_ADMIN_MSG,
  MAX_WHITE_IMPORT_ROWS,
  type WhiteImportReport,
  type WhiteImportRow,
} from '@sitemall/contract';
import { parseCsv } from '../../lib/csv';
import { badRequest, failure } from '../../lib/errors';
import { type OperatorCtx, requireSiteAccess } from '../admin/admin.service';
import { audited } from '../admin/audit';
import { mktWhiteUser } from './activity.tables';
import { lotteryOfSite } from './lottery-console';

/**
 * Invited users of an activity loaded from a CSV file ("white code[, phone]" per line). Each line
 * gets its own result: imported, already there (a re-import changes nothing: the unique key
 * (activity, white code) decides, not a prior read), or an error saying what is wrong with it.
 */

const CODE = /^[A-Za-z0-9_-]{1,64}$/;
const PHONE = /^1\d{10}$/;
const HEADER = /邀请码|white/i;
const CHUNK = 1000;

export const WHITE_ROW_MSG = {
  code: '邀请码只能包含字母、数字、_ 和 -，最多 64 位',
  phone: '手机号须为 11 位数字，以 1 开头',
  duplicate: (line: number) => `与第 ${line} 行的邀请码重复`,
  tooMany: `一次最多导入 ${MAX_WHITE_IMPORT_ROWS} 行`,
} as const;

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
    const problem = !CODE.test(whiteCode)
      ? WHITE_ROW_MSG.code
      : phone && !PHONE.test(phone)
        ? WHITE_ROW_MSG.phone
        : seen.has(whiteCode)
          ? WHITE_ROW_MSG.duplicate(seen.get(whiteCode) as number)
          : '';
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
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const a = await lotteryOfSite(ctx.db, input.siteId, input.activityId);
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
