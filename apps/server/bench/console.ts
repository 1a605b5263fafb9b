/**
 * Issue 12's console reads with one connection: the order search of site 1000 holding 100,000
 * orders, and the dashboard. The orders are written with one INSERT … SELECT before the server
 * starts (once per database: a second run on the same PostgreSQL finds them).
 */
import { ADMIN_API_PREFIX, adminApi, adminDashboardApi } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { memberByPhone } from '../src/modules/identity/members';
import type { Scenario } from './scenarios';

const SITE = 1000;
const ORDERS = 100_000;
const DEMO_MEMBER_PHONE = '13800001000';

async function seedConsoleOrders(options: { databaseUrl?: string; dataDir: string }) {
  const database = await openDatabase(options);
  try {
    const { db } = database;
    const member = await memberByPhone(db, SITE, DEMO_MEMBER_PHONE);
    if (!member) throw new Error('the demo member of site 1000 is missing');
    // Settled statuses of a living mall (confirming, completed, withdrawn, expired, not
    // approved) spread over the last 180 days, newest last, so the first page and today's
    // figures are real work; none that a job moves on (unpaid, waiting for approval, awaiting
    // receipt), so the jobs do not work through them during the run.
    await db.execute(sql`
      insert into mall_order (order_no, site_id, member_id, status, goods_amount, freight_amount,
        pay_amount, is_virtual, pay_way, paid_at, expire_at, created_at, updated_at)
      select 'BENCH' || lpad(i::text, 9, '0'), ${SITE}, ${member.id},
        (array[24, 23, 23, 4, 41, 21])[1 + i % 6], 1000 + i % 9000, 0, 1000 + i % 9000, false, 'ye',
        now() - make_interval(secs => (${ORDERS} - i) * 155),
        now() - make_interval(secs => (${ORDERS} - i) * 155) + interval '30 minutes',
        now() - make_interval(secs => (${ORDERS} - i) * 155),
        now() - make_interval(secs => (${ORDERS} - i) * 155)
      from generate_series(1, ${ORDERS}) as i
      on conflict (order_no) do nothing`);
    await db.execute(sql`analyze mall_order`);
  } finally {
    await database.close();
  }
}

const admin = (e: { path: string }, query = '') => `${ADMIN_API_PREFIX}${e.path}${query}`;

let seeded = false;
let token = '';
/** One operator's latency on a console read (the platform admin: every site in scope). */
const consoleRead = (name: string, path: string): Scenario => {
  const scenario: Scenario = {
    name,
    method: 'GET',
    path,
    connections: 1,
    async beforeServer(database) {
      if (!seeded) await seedConsoleOrders(database);
      seeded = true;
    },
    async prepare(base) {
      if (!token) {
        const res = await fetch(base + admin(adminApi.login), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'Admin#2026' }),
        });
        const login = (await res.json()) as { code: number; msg: string; data: { token: string } };
        if (login.code !== 200 || !login.data.token) throw new Error(`bench operator login: ${login.msg}`);
        token = login.data.token;
      }
      scenario.headers = { token };
    },
  };
  return scenario;
};

export const CONSOLE_SCENARIOS: Scenario[] = [
  consoleRead(
    `GET console orders, page 1 (1000 with ${ORDERS.toLocaleString('en')} orders, 1 conn)`,
    admin(adminApi.orders, `?siteId=${SITE}&pageNum=1`),
  ),
  consoleRead(
    'GET console orders, status 23, page 20 (1000, 1 conn)',
    admin(adminApi.orders, `?siteId=${SITE}&status=23&pageNum=20`),
  ),
  consoleRead('GET console dashboard (all sites, 1 conn)', admin(adminDashboardApi.dashboard)),
  consoleRead('GET console dashboard (1000, 1 conn)', admin(adminDashboardApi.dashboard, `?siteId=${SITE}`)),
];
