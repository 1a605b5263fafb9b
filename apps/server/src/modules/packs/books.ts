import { sql } from 'drizzle-orm';
import type { BooksRule } from '../../lib/books';

/** The cards' books: balances are the sums of their ledger; no order got more back onto cards than it paid from them. */
export const CARD_BOOKS: BooksRule[] = [
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
];
