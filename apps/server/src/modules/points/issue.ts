import { createHash } from 'node:crypto';
import { fenToYuan, isMobile } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parseCsv } from '../../lib/csv';
import { AppError, failure } from '../../lib/errors';
import { memberByPhone, memberByUsername } from '../identity/members';
import { type PointsEntry, postEntry } from './points.service';
import { pointsEntry } from './points.tables';

/** Operators issue points (ops CLI): one member, or a CSV file of members, each row once. */

/** The most one row may issue: 1,000,000.00 yuan; a balance is a 32-bit integer of fen. */
export const MAX_ISSUE_FEN = 100_000_000;

/** "100", "100.5", "100.50" yuan to fen; anything else (3 decimals, signs, words, 0) is undefined. */
export function yuanToFen(text: string): number | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const fen = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return fen > 0 && fen <= MAX_ISSUE_FEN ? fen : undefined;
}

export interface IssueInput {
  siteId: number;
  /** A mobile number or a username of the site's member. */
  account: string;
  amount: number;
  note?: string;
  /** Makes the issue apply once: the same key for the same member never issues twice. */
  requestKey?: string;
}

export interface IssueResult {
  memberId: number;
  entry: PointsEntry;
  /** False when the request key had issued already (a re-run): nothing changed. */
  isNew: boolean;
}

async function memberOf(db: Db, siteId: number, account: string) {
  const found = isMobile(account)
    ? await memberByPhone(db, siteId, account)
    : await memberByUsername(db, siteId, account);
  if (!found) throw failure(`站点 ${siteId} 没有会员 ${account}`);
  if (found.status !== 1) throw failure(`会员 ${account} 已停用`);
  return found;
}

/** Credits one member (ledger type issue). A known request key answers its earlier entry. */
export async function issuePoints(db: Db, input: IssueInput): Promise<IssueResult> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0 || input.amount > MAX_ISSUE_FEN)
    throw failure(`发放金额须为 0.01 至 ${fenToYuan(MAX_ISSUE_FEN)}`);
  const note = (input.note ?? '').trim() || '积分发放';
  if (note.length > 200) throw failure('备注不能超过 200 字');
  const found = await memberOf(db, input.siteId, input.account.trim());
  if (input.requestKey) {
    const [earlier] = await db
      .select()
      .from(pointsEntry)
      .where(
        and(
          eq(pointsEntry.siteId, input.siteId),
          eq(pointsEntry.memberId, found.id),
          eq(pointsEntry.requestKey, input.requestKey),
        ),
      );
    if (earlier) return { memberId: found.id, entry: checkSame(earlier, input), isNew: false };
  }
  const entry = await postEntry(db, {
    siteId: input.siteId,
    memberId: found.id,
    amount: input.amount,
    type: 'issue',
    note,
    requestKey: input.requestKey,
  });
  // A parallel run with the same key that won meanwhile makes postEntry answer its entry: the
  // ledger still holds one, though both runs then say "issued".
  return { memberId: found.id, entry: checkSame(entry, input), isNew: true };
}

/** The same key with another amount is an operator mistake, not a re-run: refuse it. */
function checkSame(entry: PointsEntry, input: IssueInput): PointsEntry {
  if (entry.type !== 'issue' || entry.amount !== input.amount)
    throw failure(`请求号已用于另一笔发放（${fenToYuan(entry.amount)}）`);
  return entry;
}

// ---- CSV files ------------------------------------------------------------------------------

const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
export const toCsv = (rows: (string | number)[][]) =>
  `${rows.map((r) => r.map(csvCell).join(',')).join('\n')}\n`;

export interface IssueRowReport {
  /** The line of the file, 1-based (the header counts). */
  line: number;
  account: string;
  amount: string;
  note: string;
  requestId: string;
  result: 'ok' | 'error';
  /** issued, already issued (a re-run), or why the row was refused. */
  detail: string;
  entryId?: number;
  balanceAfter?: number;
}

const HEADER = /^(phone|username|account|手机号|用户名|账号)$/i;

/** The file's non-empty lines with their 1-based line numbers, the header left out. */
export function issueLines(text: string): { cells: string[]; line: number }[] {
  const all = parseCsv(text).map((cells, i) => ({ cells, line: i + 1 }));
  return all.filter(
    (r, i) => r.cells.some((c) => c.trim() !== '') && !(i === 0 && HEADER.test(r.cells[0]?.trim() ?? '')),
  );
}

export interface IssueRowInput {
  account: string;
  amount: number;
  note: string;
  requestKey: string;
}

/**
 * One line of an issue file checked and read (AppError with the reason otherwise). Its request
 * key is its requestId, or a hash of the file name, line number and content, so re-running
 * the same file issues nothing twice.
 */
export function readIssueRow(fileName: string, cells: string[], line: number): IssueRowInput {
  const [account = '', amountText = '', note = '', requestId = ''] = cells.map((c) => c.trim());
  const amount = yuanToFen(amountText);
  if (!account) throw failure('缺少手机号或用户名');
  if (cells.length > 4) throw failure('列数过多（手机号或用户名,金额,备注[,请求号]）');
  if (amount === undefined)
    throw failure(`金额不正确：须为 0.01 至 ${fenToYuan(MAX_ISSUE_FEN)} 元，最多两位小数`);
  if (requestId && !/^[\w.:-]{1,64}$/.test(requestId)) throw failure('请求号只能含字母、数字和 _ . : -');
  const requestKey = requestId
    ? `issue:${requestId}`
    : `issue:csv:${createHash('sha256')
        .update(`${fileName}\n${line}\n${cells.join(',')}`)
        .digest('hex')
        .slice(0, 40)}`;
  return { account, amount, note, requestKey };
}

/**
 * Issues every row of a file (phone or username, amount in yuan, note[, requestId]). Rows are
 * independent: a bad row is reported and skipped, the others still apply. Each row's request
 * key is its requestId, or a hash of the file name, line number and content, so re-running
 * the same file issues nothing twice.
 */
export async function issueFromCsv(
  db: Db,
  input: {
    siteId: number;
    fileName: string;
    text: string;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<IssueRowReport[]> {
  const rows = issueLines(input.text);
  const reports: IssueRowReport[] = [];
  for (const [i, { cells, line }] of rows.entries()) {
    const [account = '', amountText = '', note = '', requestId = ''] = cells.map((c) => c.trim());
    const report: IssueRowReport = {
      line,
      account,
      amount: amountText,
      note,
      requestId,
      result: 'error',
      detail: '',
    };
    reports.push(report);
    try {
      const { amount, requestKey } = readIssueRow(input.fileName, cells, line);
      const issued = await issuePoints(db, { siteId: input.siteId, account, amount, note, requestKey });
      Object.assign(report, {
        result: 'ok',
        detail: issued.isNew ? '已发放' : '此前已发放，未重复发放',
        entryId: issued.entry.id,
        balanceAfter: issued.entry.balanceAfter,
      });
    } catch (error) {
      report.detail = error instanceof AppError ? error.msg : `发放失败：${(error as Error).message}`;
    }
    input.onProgress?.(i + 1, rows.length);
  }
  return reports;
}

export const reportCsv = (reports: IssueRowReport[]) =>
  toCsv([
    ['line', 'account', 'amount', 'note', 'requestId', 'result', 'detail', 'entryId', 'balanceAfter'],
    ...reports.map((r) => [
      r.line,
      r.account,
      r.amount,
      r.note,
      r.requestId,
      r.result,
      r.detail,
      r.entryId ?? '',
      r.balanceAfter === undefined ? '' : fenToYuan(r.balanceAfter),
    ]),
  ]);
