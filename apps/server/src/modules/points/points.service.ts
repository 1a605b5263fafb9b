import type { PointsEntryType } from '@sitemall/contract';
import { and, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { preparedSql } from '../../lib/prepared';
import { rowsOf } from '../../lib/rows';
import { inSites } from '../admin/console-kit';
import { pointsAccount, pointsEntry } from './points.tables';

export interface MemberRef {
  siteId: number;
  memberId: number;
}

export interface PostEntry extends MemberRef {
  amount: number;
  type: PointsEntryType;
  orderNo?: string;
  note?: string;
  requestKey?: string;
}

export type PointsEntry = typeof pointsEntry.$inferSelect;

export const insufficientPoints = () => failure('积分余额不足');

type Executor = Pick<Db, 'execute'>;

/**
 * Moves a balance and appends its ledger entry in one statement: the conditional UPDATE takes
 * the row lock, so parallel debits queue and none can take the balance below zero, and the
 * entry cannot exist without the move or the move without the entry. A request key seen
 * before makes the statement fail on the unique index, which undoes the move too; the earlier
 * entry is answered instead. (Inside a transaction that failure aborts it: callers that retry
 * within one check the key first.)
 */
export async function postEntry(db: Db, entry: PostEntry): Promise<PointsEntry> {
  if (!Number.isSafeInteger(entry.amount) || entry.amount === 0) throw failure('积分数额不正确');
  const { siteId, memberId, amount } = entry;
  if (amount > 0) {
    await db.execute(
      sql`insert into points_account (site_id, member_id, balance) values (${siteId}, ${memberId}, 0) on conflict do nothing`,
    );
  }
  let rows: Record<string, unknown>[];
  try {
    // The entry comes back from the insert itself: no second round trip to read it.
    const ph = sql.placeholder;
    ({ rows } = await preparedSql(
      db,
      'points_post_entry',
      () => sql`
        with moved as (
          update points_account set balance = balance + ${ph('amount')}::int, updated_at = now()
          where site_id = ${ph('siteId')}::int and member_id = ${ph('memberId')}::int
            and balance + ${ph('amount')}::int >= 0
          returning balance
        )
        insert into points_entry (site_id, member_id, amount, balance_after, type, order_no, note, request_key)
        select ${ph('siteId')}::int, ${ph('memberId')}::int, ${ph('amount')}::int, moved.balance,
          ${ph('type')}::text, ${ph('orderNo')}::text, ${ph('note')}::text, ${ph('requestKey')}::text
        from moved
        returning id, site_id, member_id, amount, balance_after, type, order_no, note, request_key,
          created_at`,
    ).execute({
      siteId,
      memberId,
      amount,
      type: entry.type,
      orderNo: entry.orderNo ?? null,
      note: entry.note ?? '',
      requestKey: entry.requestKey ?? null,
    }));
  } catch (error) {
    const earlier = isUniqueViolation(error) ? await entryByRequestKey(db, entry) : undefined;
    if (earlier) return earlier;
    throw error;
  }
  const [row] = rows;
  if (!row) throw insufficientPoints();
  return toEntry(row);
}

/** A payment's debit, made by the statement that moves its order (`paymentDebit`). */
export interface PaymentDebit extends MemberRef {
  /** Fen taken, more than 0. */
  amount: number;
  orderNo: string;
  note: string;
}

/**
 * A payment's debit as parts of the statement that moves its order (order.service's
 * moveOrders), so that paying with points is one round trip without `begin` and `commit`:
 * - `covers`, for the move's condition: locks the member's account row and compares its
 *   balance as last committed (FOR UPDATE waits for a parallel debit, then reads the row it
 *   left), so of parallel payments from one balance only those it covers move. The account is
 *   locked before the order row: a payment's lock order.
 * - `ctes`: take the amount and append its ledger entry (request key pay:<orderNo>) for the
 *   order the statement's CTE `moved` answered, and only then. The account's CHECK stays the
 *   last guard: a balance below zero fails the whole statement.
 * - `balanceAfter`: the balance the entry left, for the statement's answer.
 * Its placeholders are named debit_*; `paymentDebitParams` gives their values.
 */
export function paymentDebit(moved: SQL) {
  const ph = (name: string) => sql.placeholder(`debit_${name}`);
  const member = sql`site_id = ${ph('siteId')}::int and member_id = ${ph('memberId')}::int`;
  return {
    covers: sql`coalesce((select balance from points_account where ${member} for update), 0) >= ${ph('amount')}::int`,
    ctes: {
      debit_moved: sql`update points_account set balance = balance - ${ph('amount')}::int, updated_at = now()
        where ${member} and exists (select 1 from ${moved}) returning balance`,
      debit_entry: sql`insert into points_entry (site_id, member_id, amount, balance_after, type, order_no, note, request_key)
        select ${ph('siteId')}::int, ${ph('memberId')}::int, -${ph('amount')}::int, balance, 'pay',
          ${ph('orderNo')}::text, ${ph('note')}::text, 'pay:' || ${ph('orderNo')}::text
        from debit_moved returning balance_after`,
    },
    balanceAfter: sql<number>`(select balance_after from debit_entry)`.mapWith(Number),
  };
}

/** The values of paymentDebit's placeholders. */
export const paymentDebitParams = (debit: PaymentDebit) => ({
  debit_siteId: debit.siteId,
  debit_memberId: debit.memberId,
  debit_amount: debit.amount,
  debit_orderNo: debit.orderNo,
  debit_note: debit.note,
});

/** The entry a request key made, if any (to answer a retried credit or debit). */
export async function entryByRequestKey(
  db: Executor,
  key: MemberRef & { requestKey?: string },
): Promise<PointsEntry | undefined> {
  const result = await db.execute(
    sql`select * from points_entry where site_id = ${key.siteId} and member_id = ${key.memberId} and request_key = ${key.requestKey ?? null}`,
  );
  const row = rowsOf<Record<string, unknown>>(result)[0];
  return row ? toEntry(row) : undefined;
}

function toEntry(row: Record<string, unknown>): PointsEntry {
  return {
    id: Number(row.id),
    siteId: Number(row.site_id),
    memberId: Number(row.member_id),
    amount: Number(row.amount),
    balanceAfter: Number(row.balance_after),
    type: String(row.type),
    orderNo: (row.order_no as string | null) ?? null,
    note: String(row.note ?? ''),
    requestKey: (row.request_key as string | null) ?? null,
    createdAt: new Date(row.created_at as string),
  };
}

export async function getBalance(ctx: RequestContext, { siteId, memberId }: MemberRef): Promise<number> {
  const { db } = ctx;
  const [row] = await db
    .select({ balance: pointsAccount.balance })
    .from(pointsAccount)
    .where(and(eq(pointsAccount.siteId, siteId), eq(pointsAccount.memberId, memberId)));
  return row?.balance ?? 0;
}

export interface BillQuery extends MemberRef {
  type?: PointsEntryType;
  from?: Date;
  to?: Date;
  pageNum: number;
}

/** The member's ledger, newest first, page size 10 (spec section 9). */
export async function listBills(ctx: RequestContext, query: BillQuery) {
  const { db } = ctx;
  const where = and(
    eq(pointsEntry.siteId, query.siteId),
    eq(pointsEntry.memberId, query.memberId),
    query.type ? eq(pointsEntry.type, query.type) : undefined,
    query.from ? gte(pointsEntry.createdAt, query.from) : undefined,
    query.to ? lt(pointsEntry.createdAt, query.to) : undefined,
  );
  return listPage({
    pageNum: query.pageNum,
    rows: db
      .select()
      .from(pointsEntry)
      .where(where)
      .orderBy(desc(pointsEntry.createdAt), desc(pointsEntry.id)),
    total: db.select({ n: count() }).from(pointsEntry).where(where),
  });
}

/**
 * Net points each member of a site spent on orders: payments and mixed-payment holds less
 * refunds and released holds (the VIP rule levels, modules/vip). Members who spent none are
 * left out.
 */
export async function pointsSpentPerMember(
  db: Pick<Db, 'select'>,
  siteId: number,
): Promise<{ memberId: number; spent: number }[]> {
  const spent = sql<number>`(-sum(${pointsEntry.amount}))::bigint`;
  const rows = await db
    .select({ memberId: pointsEntry.memberId, spent })
    .from(pointsEntry)
    .where(
      and(eq(pointsEntry.siteId, siteId), sql`${pointsEntry.type} in ('pay', 'hold', 'release', 'refund')`),
    )
    .groupBy(pointsEntry.memberId)
    .having(sql`-sum(${pointsEntry.amount}) > 0`);
  return rows.map((r) => ({ memberId: r.memberId, spent: Number(r.spent) }));
}

/**
 * Points issued (credits of issues) and spent (debits paying orders, as a positive figure) on
 * the sites in a span of time: the console's landing page.
 */
export async function pointsFigures(db: Db, scope: 'all' | number[], span: { start: Date; end: Date }) {
  const [row] = await db
    .select({
      issued: sql<string | null>`sum(${pointsEntry.amount}) filter (where ${pointsEntry.type} = 'issue')`,
      spent: sql<string | null>`-sum(${pointsEntry.amount}) filter (where ${pointsEntry.type} = 'pay')`,
    })
    .from(pointsEntry)
    .where(
      and(
        inSites(pointsEntry.siteId, scope),
        gte(pointsEntry.createdAt, span.start),
        lt(pointsEntry.createdAt, span.end),
      ),
    );
  return { issued: Number(row?.issued ?? 0), spent: Number(row?.spent ?? 0) };
}
