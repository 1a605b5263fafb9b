import type { BooksCheck, BooksReport } from '@sitemall/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { SiteScope } from '../modules/admin/admin.service';
import { rowsOf } from './rows';

/**
 * 账务核对, the runner: each module declares the checks of the books it keeps (points,
 * cards, WeChat money); each check is one statement that counts what it looked at and one
 * that returns what does not add up. The CHECK constraints keep every balance ≥ 0; these catch a
 * write that moved a balance without its ledger entry, or a refund applied twice.
 */
export interface BooksRule {
  key: string;
  label: string;
  /** Rows looked at; `sites` filters `a.site_id` (every check names its main table `a`). */
  checked: (sites: SQL) => SQL;
  /** site_id, subject, expected, actual of each row that does not add up. */
  problems: (sites: SQL) => SQL;
}

/** The most problems one check lists (the count of what it checked is always whole). */
const PROBLEMS_SHOWN = 20;

/** `a.site_id` within the scope. */
const sitesOf = (scope: SiteScope): SQL =>
  scope === 'all'
    ? sql`true`
    : scope.length === 0
      ? sql`false`
      : sql`a.site_id in (${sql.join(
          scope.map((id) => sql`${id}`),
          sql`, `,
        )})`;

/** Runs the rules within the sites of the scope. */
export async function runBooks(db: Db, scope: SiteScope, rules: BooksRule[]): Promise<BooksReport> {
  const sites = sitesOf(scope);
  const checks: BooksCheck[] = [];
  // One after the other: a console request should not take several pooled connections.
  for (const rule of rules) {
    const [counted] = rowsOf<{ n: number | string }>(await db.execute(rule.checked(sites)));
    const found = rowsOf<{
      site_id: number;
      subject: string;
      expected: number | string;
      actual: number | string;
    }>(await db.execute(sql`${rule.problems(sites)} order by 1, 2 limit ${PROBLEMS_SHOWN}`));
    checks.push({
      key: rule.key,
      label: rule.label,
      checked: Number(counted?.n ?? 0),
      problems: found.map((p) => ({
        siteId: Number(p.site_id),
        subject: p.subject,
        expected: Number(p.expected),
        actual: Number(p.actual),
      })),
    });
  }
  return { checkedAt: new Date().toISOString(), checks };
}
