import { randomInt } from 'node:crypto';
import {
  AFTER_SALE_KIND_LABEL,
  AFTER_SALE_MSG,
  AFTER_SALE_STATUS_LABEL,
  type AfterSaleComment,
  type AfterSaleDetail,
  type AfterSaleKind,
  type AfterSaleSummary,
  EXCHANGE_WINDOW_DAYS,
  isCaseOpen,
  type LineEligibility,
  MAX_AFTER_SALE_PICS,
  ORDER_STATUS,
  RETURN_SHIP_DAYS,
  RETURN_WINDOW_DAYS,
  type SevenDayCheck,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { transaction } from '../../context';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { chinaTime } from '../../lib/china-time';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import type { MemberCtx } from '../cart/cart.service';
import {
  lockChildOrder,
  type OrderFacts,
  type OrderLineRow,
  orderFacts,
  orderLinesById,
} from '../order/lines';
import { moveOrders } from '../order/order.service';
import { cashPaidFor } from '../payment/refunds';
import { afterSale, afterSaleComment, afterSaleLine, afterSaleLog, type Parcel } from './aftersale.tables';
import { type CaseRow, findCase, moveCase } from './machine';
import { lineShares } from './split';

const DAY_MS = 86_400_000;
const OPEN_SQL = sql`${afterSale.status} not in ('refunded', 'completed', 'cancelled', 'rejected', 'return_refused')`;
/** Pictures are what the after-sales upload answered, nothing else. */
export const PIC_URL = /^\/uploads\/aftersale\/[0-9a-f-]{36}\.(png|jpg|webp)$/;
const TRACKING_NO = /^[A-Za-z0-9-]{6,40}$/;

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** AS + time to the second (China time) + 6 random digits. */
const newCaseNo = (now = new Date()) =>
  `AS${chinaTime(now, 'YYYYMMDDHHmmss')}${pad(randomInt(0, 1_000_000), 6)}`;

const memberOf = (ctx: MemberCtx) => ({ siteId: ctx.site.row.id, memberId: ctx.member.id });

// ---------------------------------------------------------------- eligibility

/**
 * What a member may apply for on one line now. Only received goods (the child order completed,
 * or already in after-sales for another line) of a physical child order; returns and refunds
 * within RETURN_WINDOW_DAYS of receipt, exchanges within EXCHANGE_WINDOW_DAYS.
 */
function eligibility(
  facts: OrderFacts,
  line: OrderLineRow,
  account: { qty: number; refundedQty: number } | undefined,
  openCaseNo: string | null,
  now: Date,
): LineEligibility {
  const child = facts.children.find((c) => c.id === line.childOrderId);
  const received = facts.receivedAt;
  const deadline = (days: number) => (received ? new Date(received.getTime() + days * DAY_MS) : null);
  const returnBy = deadline(RETURN_WINDOW_DAYS);
  const exchangeBy = deadline(EXCHANGE_WINDOW_DAYS);
  const availableQty = line.num - (account?.refundedQty ?? 0);
  const kinds: AfterSaleKind[] = [];
  let msg = '';
  if (!child?.hasAddress) msg = AFTER_SALE_MSG.virtual;
  else if (
    !received ||
    facts.order.status !== ORDER_STATUS.completed ||
    (child.status !== ORDER_STATUS.completed && child.status !== ORDER_STATUS.afterSales)
  )
    msg = AFTER_SALE_MSG.notReceived;
  else if (openCaseNo) msg = AFTER_SALE_MSG.open;
  else if (availableQty <= 0) msg = AFTER_SALE_MSG.badQty;
  else {
    if (returnBy && now < returnBy) kinds.push('refund_only', 'return_refund');
    if (exchangeBy && now < exchangeBy) kinds.push('exchange');
    if (kinds.length === 0) msg = AFTER_SALE_MSG.exchangeWindow;
  }
  return {
    lineId: line.id,
    childOrderNo: child?.childOrderNo ?? '',
    name: line.name,
    image: line.image,
    specificationValue: line.specificationValue,
    price: line.price,
    num: line.num,
    availableQty: Math.max(availableQty, 0),
    kinds,
    returnDeadline: child?.hasAddress ? (returnBy?.toISOString() ?? null) : null,
    exchangeDeadline: child?.hasAddress ? (exchangeBy?.toISOString() ?? null) : null,
    openAfterSaleNo: openCaseNo,
    msg,
  };
}

async function lineStates(db: Db, lineIds: number[]) {
  if (lineIds.length === 0) return { accounts: new Map(), open: new Map<number, string>() };
  const [accounts, open] = await Promise.all([
    db.select().from(afterSaleLine).where(inArray(afterSaleLine.orderLineId, lineIds)),
    db
      .select({ lineId: afterSale.orderLineId, no: afterSale.afterSaleNo })
      .from(afterSale)
      .where(and(inArray(afterSale.orderLineId, lineIds), OPEN_SQL)),
  ]);
  return {
    accounts: new Map(accounts.map((a) => [a.orderLineId, a])),
    open: new Map(open.map((o) => [o.lineId, o.no])),
  };
}

/** The seven-day return check: per line of one of the member's orders, what may be applied for. */
export async function sevenDayCheck(
  ctx: MemberCtx,
  orderNo: string,
  now = new Date(),
): Promise<SevenDayCheck> {
  const facts = await orderFacts(ctx, orderNo);
  const { accounts, open } = await lineStates(
    ctx.db,
    facts.lines.map((l) => l.id),
  );
  return {
    orderNo,
    receivedTime: facts.receivedAt?.toISOString() ?? null,
    lines: facts.lines.map((l) => eligibility(facts, l, accounts.get(l.id), open.get(l.id) ?? null, now)),
  };
}

// ---------------------------------------------------------------- apply

export interface ApplyInput {
  orderNo: string;
  lineId: number;
  kind: AfterSaleKind;
  qty: number;
  reason: string;
  description?: string;
  pics?: string[] | string;
}

function picsOf(pics: ApplyInput['pics']): string[] {
  const list = typeof pics === 'string' ? pics.split(',').filter((p) => p.trim() !== '') : (pics ?? []);
  const trimmed = list.map((p) => p.trim());
  if (trimmed.length > MAX_AFTER_SALE_PICS || trimmed.some((p) => !PIC_URL.test(p)))
    throw failure(AFTER_SALE_MSG.badPics);
  return trimmed;
}

/** The line's refund account, made from the order's payment split when first needed. */
async function lineAccount(tx: Db, facts: OrderFacts, line: OrderLineRow) {
  const shares = lineShares(
    {
      payAmount: facts.order.payAmount,
      cash: await cashPaidFor(tx, facts.order),
      freightAmount: facts.order.freightAmount,
    },
    facts.lines.map((l) => l.amount),
  );
  const share = shares[facts.lines.indexOf(line)];
  if (!share) throw new Error('line not in its order');
  await tx
    .insert(afterSaleLine)
    .values({
      orderLineId: line.id,
      siteId: facts.order.siteId,
      orderNo: facts.order.orderNo,
      qty: line.num,
      ...share,
    })
    .onConflictDoNothing();
  const [account] = await tx
    .select()
    .from(afterSaleLine)
    .where(eq(afterSaleLine.orderLineId, line.id))
    .for('update');
  if (!account) throw new Error('line account missing');
  return account;
}

/**
 * Opens a case on some pieces of a line. The child order is locked first, so applications on
 * one child order queue; one open case per line is the unique partial index (a parallel
 * second application is refused with a clear message, nothing written). The child order shows
 * 31 (after-sales) while any of its cases is open.
 */
export async function applyCase(
  ctx: MemberCtx,
  input: ApplyInput,
  now = new Date(),
): Promise<AfterSaleDetail> {
  const reason = input.reason.trim();
  if (!reason || reason.length > 100) throw failure(AFTER_SALE_MSG.badReason);
  const pics = picsOf(input.pics);
  const facts = await orderFacts(ctx, input.orderNo);
  const line = facts.lines.find((l) => l.id === input.lineId);
  if (!line) throw failure(AFTER_SALE_MSG.lineNotFound);
  const child = facts.children.find((c) => c.id === line.childOrderId);
  if (!child) throw failure(AFTER_SALE_MSG.lineNotFound);
  let row: CaseRow;
  try {
    row = await transaction(ctx, async ({ db: tx }) => {
      const locked = await lockChildOrder(tx, child.id);
      const account = await lineAccount(tx, facts, line);
      const { open } = await lineStates(tx, [line.id]);
      const check = eligibility(
        { ...facts, children: facts.children.map((c) => (c.id === locked.id ? locked : c)) },
        line,
        account,
        open.get(line.id) ?? null,
        now,
      );
      if (!check.kinds.includes(input.kind)) {
        if (check.msg) throw failure(check.msg);
        throw failure(
          input.kind === 'exchange' ? AFTER_SALE_MSG.exchangeWindow : AFTER_SALE_MSG.returnWindow,
        );
      }
      if (input.qty > check.availableQty) throw failure(AFTER_SALE_MSG.badQty);
      const [created] = await tx
        .insert(afterSale)
        .values({
          afterSaleNo: newCaseNo(now),
          ...memberOf(ctx),
          orderId: facts.order.id,
          orderNo: facts.order.orderNo,
          childOrderId: child.id,
          childOrderNo: child.childOrderNo,
          orderLineId: line.id,
          kind: input.kind,
          status: 'applied',
          qty: input.qty,
          reason,
          description: (input.description ?? '').trim(),
          pics,
        })
        .returning();
      if (!created) throw new Error('case not created');
      await tx.insert(afterSaleLog).values({
        afterSaleId: created.id,
        toStatus: 'applied',
        actor: 'member',
        note: `申请${AFTER_SALE_KIND_LABEL[input.kind]} ${input.qty} 件：${reason}`,
      });
      if (locked.status === ORDER_STATUS.completed)
        await moveOrders(tx, [child.id], {
          childOrders: true,
          from: ORDER_STATUS.completed,
          to: ORDER_STATUS.afterSales,
        });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw failure(AFTER_SALE_MSG.open);
    throw error;
  }
  return caseDetail(ctx.db, row);
}

// ---------------------------------------------------------------- member actions

const ownCase = (ctx: MemberCtx, afterSaleNo: string, db: Db = ctx.db) =>
  findCase(db, { ...memberOf(ctx), afterSaleNo });

/** The member withdraws a case not yet refunded or received; the child order comes back. */
export async function cancelCase(ctx: MemberCtx, afterSaleNo: string): Promise<AfterSaleDetail> {
  const row = await ownCase(ctx, afterSaleNo);
  // Once the return parcel is on its way the merchant must receive or refuse it.
  if (!['applied', 'approved', 'awaiting_return'].includes(row.status) || row.returnParcel)
    throw failure(AFTER_SALE_MSG.notCancellable);
  const moved = await transaction(ctx, ({ db: tx }) =>
    moveCase(tx, row, { event: 'cancel', actor: 'member', note: '会员撤销申请' }),
  );
  return caseDetail(ctx.db, moved);
}

/** The member's return parcel; once given it stays (the parcel is on its way). */
export async function shipReturn(
  ctx: MemberCtx,
  input: { afterSaleNo: string; company: string; trackingNo: string },
  now = new Date(),
): Promise<AfterSaleDetail> {
  const company = input.company.trim();
  const trackingNo = input.trackingNo.trim();
  if (!company || company.length > 40) throw failure(AFTER_SALE_MSG.badCompany);
  if (!TRACKING_NO.test(trackingNo)) throw failure(AFTER_SALE_MSG.badTracking);
  const row = await ownCase(ctx, input.afterSaleNo);
  const parcel: Parcel = { company, trackingNo, shipTime: now.toISOString() };
  const updated = await transaction(ctx, async ({ db: tx }) => {
    const [done] = await tx
      .update(afterSale)
      .set({ returnParcel: parcel })
      .where(
        and(
          eq(afterSale.id, row.id),
          eq(afterSale.status, 'awaiting_return'),
          sql`${afterSale.returnParcel} is null`,
        ),
      )
      .returning();
    if (!done) return undefined;
    await tx.insert(afterSaleLog).values({
      afterSaleId: row.id,
      fromStatus: row.status,
      toStatus: row.status,
      actor: 'member',
      note: `会员已寄回商品：${company} ${trackingNo}`,
    });
    return done;
  });
  if (!updated) {
    const now2 = await ownCase(ctx, input.afterSaleNo);
    if (now2.returnParcel?.trackingNo === trackingNo) return caseDetail(ctx.db, now2);
    throw failure(now2.returnParcel ? '退货物流已提交，不能修改' : AFTER_SALE_MSG.notAwaitingReturn);
  }
  return caseDetail(ctx.db, updated);
}

export async function comments(db: Db, caseId: number): Promise<AfterSaleComment[]> {
  const rows = await db
    .select()
    .from(afterSaleComment)
    .where(eq(afterSaleComment.afterSaleId, caseId))
    .orderBy(asc(afterSaleComment.id));
  return rows.map((r) => ({
    id: r.id,
    author: r.author,
    content: r.content,
    createTime: r.createdAt.toISOString(),
  }));
}

/** Adds a message to a case's thread (member or operator) and answers the thread. */
export async function addComment(
  db: Db,
  row: CaseRow,
  author: 'member' | 'operator',
  text: string,
): Promise<AfterSaleComment[]> {
  const content = text.trim();
  if (!content || content.length > 500) throw failure(AFTER_SALE_MSG.badComment);
  await db.insert(afterSaleComment).values({ afterSaleId: row.id, author, content });
  return comments(db, row.id);
}

export const memberComments = async (ctx: MemberCtx, afterSaleNo: string) =>
  comments(ctx.db, (await ownCase(ctx, afterSaleNo)).id);
export const memberComment = async (ctx: MemberCtx, afterSaleNo: string, content: string) =>
  addComment(ctx.db, await ownCase(ctx, afterSaleNo), 'member', content);

// ---------------------------------------------------------------- reading

async function summaries(db: Db, rows: CaseRow[]): Promise<AfterSaleSummary[]> {
  const lineIds = rows.map((r) => r.orderLineId);
  const lines = await orderLinesById(db, lineIds);
  return rows.map((r) => {
    const l = lines.get(r.orderLineId);
    return {
      afterSaleNo: r.afterSaleNo,
      orderNo: r.orderNo,
      childOrderNo: r.childOrderNo,
      lineId: r.orderLineId,
      kind: r.kind,
      kindName: AFTER_SALE_KIND_LABEL[r.kind],
      status: r.status,
      statusName: AFTER_SALE_STATUS_LABEL[r.status],
      isOpen: isCaseOpen(r.status),
      name: l?.name ?? '',
      image: l?.image ?? '',
      specificationValue: l?.specificationValue ?? '',
      price: l?.price ?? 0,
      qty: r.qty,
      reason: r.reason,
      refundCash: r.refundCash,
      refundPoints: r.refundPoints,
      createTime: r.createdAt.toISOString(),
    };
  });
}

export async function caseDetail(db: Db, row: CaseRow): Promise<AfterSaleDetail> {
  const [[summary], steps] = await Promise.all([
    summaries(db, [row]),
    db.select().from(afterSaleLog).where(eq(afterSaleLog.afterSaleId, row.id)).orderBy(asc(afterSaleLog.id)),
  ]);
  return {
    ...(summary as AfterSaleSummary),
    description: row.description,
    pics: row.pics,
    auditNote: row.auditNote,
    returnParcel: row.returnParcel ?? null,
    reshipParcel: row.reshipParcel ?? null,
    returnDeadline:
      row.status === 'awaiting_return' && !row.returnParcel
        ? new Date(row.statusAt.getTime() + RETURN_SHIP_DAYS * DAY_MS).toISOString()
        : null,
    steps: steps.map((s) => ({
      status: s.toStatus,
      statusName: AFTER_SALE_STATUS_LABEL[s.toStatus],
      actor: s.actor,
      note: s.note,
      createTime: s.createdAt.toISOString(),
    })),
  };
}

export const memberCase = async (ctx: MemberCtx, afterSaleNo: string) =>
  caseDetail(ctx.db, await ownCase(ctx, afterSaleNo));

export async function caseLogistics(ctx: MemberCtx, afterSaleNo: string) {
  const row = await ownCase(ctx, afterSaleNo);
  return {
    afterSaleNo: row.afterSaleNo,
    returnParcel: row.returnParcel ?? null,
    reshipParcel: row.reshipParcel ?? null,
  };
}

/** The member's cases, newest first, 10 a page; isOpen filters open or closed ones. */
export async function myCases(ctx: MemberCtx, query: { isOpen?: boolean; pageNum?: number }) {
  const where = and(
    eq(afterSale.siteId, ctx.site.row.id),
    eq(afterSale.memberId, ctx.member.id),
    query.isOpen === undefined ? undefined : query.isOpen ? OPEN_SQL : sql`not (${OPEN_SQL})`,
  );
  return listPage({
    pageNum: query.pageNum,
    rows: ctx.db.select().from(afterSale).where(where).orderBy(desc(afterSale.id)),
    total: ctx.db.select({ n: count() }).from(afterSale).where(where),
    present: (rows) => summaries(ctx.db, rows),
  });
}
