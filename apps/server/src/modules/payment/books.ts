import type { BooksCheck, BooksReport } from '@sitemall/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../lib/rows';
import type { SiteScope } from '../admin/admin.service';

/**
 * 账务核对: whether the books add up, on the database as it is. Each check is one statement
 * that counts what it looked at and returns what does not add up:
 * - a member's points balance is the sum of their ledger entries, and each entry's balance
 *   after is the running sum up to it;
 * - a card's balance is the sum of its ledger entries;
 * - no order got back more than it paid: points (pay, hold, release, refund), cards (pay,
 *   refund) and WeChat (payments and refunds of the money journal), each netted per order.
 * The CHECK constraints keep every balance ≥ 0; these catch a write that moved a balance
 * without its ledger entry, or a refund applied twice.
 */

/** The most problems one check lists (the count of what it checked is always whole). */
const PROBLEMS_SHOWN = 20;

interface Check {
  key: string;
  label: string;
  /** Rows looked at. */
  checked: (sites: SQL) => SQL;
  /** site_id, subject, expected, actual of each row that does not add up. */
  problems: (sites: SQL) => SQL;
}

const CHECKS: Check[] = [
  {
    key: 'points_balance',
    label: '积分账户余额 = 积分流水之和',
    checked: (sites) => sql`select count(*) as n from points_account a where ${sites}`,
    problems: (sites) => sql`
      select a.site_id, 'member ' || a.member_id as subject,
             coalesce(sum(e.amount), 0) as expected, a.balance as actual
      from points_account a
      left join points_entry e on e.site_id = a.site_id and e.member_id = a.member_id
      where ${sites}
      group by a.site_id, a.member_id, a.balance
      having a.balance <> coalesce(sum(e.amount), 0)`,
  },
  {
    key: 'points_running',
    label: '每条积分流水的变动后余额 = 截至该条的流水之和',
    checked: (sites) => sql`select count(*) as n from points_entry a where ${sites}`,
    problems: (sites) => sql`
      select site_id, 'entry ' || id as subject, running as expected, balance_after as actual
      from (
        select a.site_id, a.id, a.balance_after,
               sum(a.amount) over (partition by a.site_id, a.member_id order by a.id) as running
        from points_entry a where ${sites}
      ) e
      where balance_after <> running`,
  },
  {
    key: 'card_balance',
    label: '卡包余额 = 卡流水之和',
    checked: (sites) => sql`select count(*) as n from pack_card a where ${sites}`,
    problems: (sites) => sql`
      select a.site_id, 'card ' || a.id as subject, coalesce(sum(l.delta), 0) as expected, a.balance as actual
      from pack_card a left join pack_ledger l on l.card_id = a.id
      where ${sites}
      group by a.site_id, a.id, a.balance
      having a.balance <> coalesce(sum(l.delta), 0)`,
  },
  {
    key: 'order_points',
    label: '各订单退回的积分不超过付出的积分',
    checked: (sites) => sql`
      select count(distinct (a.site_id, a.order_no)) as n from points_entry a
      where a.order_no is not null and a.type in ('pay', 'hold', 'release', 'refund') and ${sites}`,
    problems: (sites) => sql`
      select a.site_id, 'order ' || a.order_no as subject, 0 as expected, sum(a.amount) as actual
      from points_entry a
      where a.order_no is not null and a.type in ('pay', 'hold', 'release', 'refund') and ${sites}
      group by a.site_id, a.order_no
      having sum(a.amount) > 0`,
  },
  {
    key: 'order_cards',
    label: '各订单退回卡包的金额不超过从卡包付出的金额',
    checked: (sites) => sql`
      select count(distinct (a.site_id, a.order_no)) as n from pack_ledger a
      where a.order_no is not null and a.biz_type in ('pay', 'refund') and ${sites}`,
    problems: (sites) => sql`
      select a.site_id, 'order ' || a.order_no as subject, 0 as expected, sum(a.delta) as actual
      from pack_ledger a
      where a.order_no is not null and a.biz_type in ('pay', 'refund') and ${sites}
      group by a.site_id, a.order_no
      having sum(a.delta) > 0`,
  },
  {
    key: 'order_wechat',
    label: '各订单微信退款不超过微信实收',
    checked: (sites) =>
      sql`select count(distinct (a.site_id, a.order_no)) as n from pay_journal a where ${sites}`,
    problems: (sites) => sql`
      select a.site_id, 'order ' || a.order_no as subject, 0 as expected, sum(a.amount) as actual
      from pay_journal a where ${sites}
      group by a.site_id, a.order_no
      having sum(a.amount) < 0`,
  },
];

/** `a.site_id` within the scope (every check names its main table `a`). */
const sitesOf = (scope: SiteScope): SQL =>
  scope === 'all'
    ? sql`true`
    : scope.length === 0
      ? sql`false`
      : sql`a.site_id in (${sql.join(
          scope.map((id) => sql`${id}`),
          sql`, `,
        )})`;

/** Runs every check within the sites of the scope. */
export async function checkBooks(db: Db, scope: SiteScope): Promise<BooksReport> {
  const sites = sitesOf(scope);
  const checks: BooksCheck[] = [];
  // One after the other: a console request should not take several pooled connections.
  for (const check of CHECKS) {
    const [counted] = rowsOf<{ n: number | string }>(await db.execute(check.checked(sites)));
    const found = rowsOf<{
      site_id: number;
      subject: string;
      expected: number | string;
      actual: number | string;
    }>(await db.execute(sql`${check.problems(sites)} order by 1, 2 limit ${PROBLEMS_SHOWN}`));
    checks.push({
      key: check.key,
      label: check.label,
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
