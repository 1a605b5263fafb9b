import { sql } from 'drizzle-orm';
import type { BooksRule } from '../../lib/books';

/** The points ledger's books: balances are the sums of their entries; no order got more points back than it paid. */
export const POINTS_BOOKS: BooksRule[] = [
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
];
