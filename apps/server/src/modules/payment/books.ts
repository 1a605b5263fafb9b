import { sql } from 'drizzle-orm';
import type { BooksRule } from '../../lib/books';

/** WeChat money's books: no order got more refunded than WeChat took for it (the money journal). */
export const WECHAT_BOOKS: BooksRule[] = [
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
