import {
  type Available,
  type CenterTemplate,
  type ClaimMode,
  fenToYuan,
  idOf,
  listFrom,
  type MemberVoucher,
  movableFrom,
  VOUCHER_MSG,
  VOUCHER_STATUS,
  VOUCHER_TABS,
  VOUCHER_TRANSITIONS,
  type VoucherCount,
  type VoucherEvent,
  type VoucherKind,
  type VoucherPage,
  type VoucherRules,
  type VoucherStatus,
} from '@sitemall/contract';
import { and, asc, count, desc, eq, gt, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { failure } from '../../lib/errors';
import { listPage } from '../../lib/paging';
import { rowsOf } from '../../lib/rows';
import { cartLinesOf, type MemberCtx, parseCartLines, parseIdList } from '../cart/cart.service';
import { productsInScope, specificationsOnSite } from '../catalog/products';
import { memberPricing } from '../vip/vip.service';
import { applyVouchers, bestCombination, type PricingLine, type VoucherRule } from './pricing';
import { voucher, voucherClaimCounter, voucherEvent, voucherTemplate } from './voucher.tables';

/**
 * Member vouchers (issue 13; design promotions.md section 1): claim under total, per-member and
 * budget limits; the checkout's choice; lock at submission, use at payment, release at cancel
 * or expiry. Every status change is a conditional UPDATE on the status it leaves, so parallel
 * requests cannot both move one voucher; each move writes a voucher_event row.
 */

type TemplateRow = typeof voucherTemplate.$inferSelect;
type VoucherRow = typeof voucher.$inferSelect;

const STATUS_NAME: Record<string, string> = {
  pending_review: '待审核',
  unused: '未使用',
  locked: '使用中',
  used: '已使用',
  expired: '已过期',
  void: '已作废',
};

const yuan = (fen: number) => fenToYuan(fen).replace(/\.00$/, '');

/** The rule in words, as the voucher face shows it. */
export function titleOf(t: Pick<TemplateRow, 'kind' | 'value' | 'cap' | 'threshold'>): string {
  const over = t.threshold > 0 ? `满${yuan(t.threshold)}` : '';
  if (t.kind === 'percent') {
    const rate = String((100 - t.value) / 10);
    return `${over}${rate}折${t.cap !== null ? `，最多减${yuan(t.cap)}` : ''}`;
  }
  if (t.kind === 'points') return `${over}抵${yuan(t.value)}积分`;
  return over ? `${over}减${yuan(t.value)}` : `立减${yuan(t.value)}`;
}

const SCOPE_TEXT = {
  all: '全场通用',
  categories: '指定分类可用',
  products: '指定商品可用',
  sources: '指定供应渠道可用',
} as const;

/** What a template makes a voucher take off an order (pricing.ts applies it). */
const pricingOf = (t: TemplateRow): Omit<VoucherRule, 'id'> => ({
  kind: t.kind as VoucherKind,
  value: t.value,
  cap: t.cap,
  threshold: t.threshold,
  scope: t.scope,
  stackGroup: t.stackGroup,
});

const rulesOf = (t: TemplateRow): VoucherRules => ({
  templateId: t.id,
  name: t.name,
  ...pricingOf(t),
  title: titleOf(t),
  scopeText: SCOPE_TEXT[t.scope.type],
});

const ruleOf = (v: VoucherRow, t: TemplateRow): VoucherRule => ({ id: v.id, ...pricingOf(t) });

/** An unused voucher past its end shows as expired before the job has moved it. */
const shownStatus = (v: VoucherRow, now: Date) =>
  v.status === VOUCHER_STATUS.unused && v.validTo <= now ? VOUCHER_STATUS.expired : v.status;

const memberVoucherOf = (v: VoucherRow, t: TemplateRow, now = new Date()): MemberVoucher => {
  const status = shownStatus(v, now);
  return {
    ...rulesOf(t),
    id: v.id,
    status,
    statusName: STATUS_NAME[status] ?? status,
    validFrom: v.validFrom.toISOString(),
    validTo: v.validTo.toISOString(),
    orderNo: v.orderNo,
    claimTime: v.createdAt.toISOString(),
    usedTime: v.usedAt?.toISOString() ?? null,
  };
};

const mine = (ctx: MemberCtx) =>
  and(eq(voucher.siteId, ctx.site.row.id), eq(voucher.memberId, ctx.member.id));

/** The filter of a tab: what the member sees as that status (unused past its end is expired). */
function tabFilter(status: string, now: Date): SQL | undefined {
  if (status === VOUCHER_STATUS.unused)
    return and(eq(voucher.status, VOUCHER_STATUS.unused), gt(voucher.validTo, now));
  if (status === VOUCHER_STATUS.expired)
    return or(
      eq(voucher.status, VOUCHER_STATUS.expired),
      and(eq(voucher.status, VOUCHER_STATUS.unused), lte(voucher.validTo, now)),
    );
  return eq(voucher.status, status);
}

async function pageOf(ctx: MemberCtx, where: SQL | undefined, pageNum = 1): Promise<VoucherPage> {
  const now = new Date();
  const all = and(mine(ctx), where);
  return listPage({
    pageNum,
    rows: ctx.db
      .select()
      .from(voucher)
      .innerJoin(voucherTemplate, eq(voucherTemplate.id, voucher.templateId))
      .where(all)
      .orderBy(desc(voucher.createdAt), desc(voucher.id)),
    total: ctx.db.select({ n: count() }).from(voucher).where(all),
    present: (rows) => rows.map((r) => memberVoucherOf(r.voucher, r.voucher_template, now)),
  });
}

/** 我的优惠券: one tab (status) or all, newest first, 10 a page. */
export const findVouchers = (ctx: MemberCtx, input: { status?: string; pageNum?: number }) =>
  pageOf(ctx, input.status ? tabFilter(input.status, new Date()) : undefined, input.pageNum);

/** Claims waiting for an operator's review. */
export const pendingReview = (ctx: MemberCtx, pageNum?: number) =>
  pageOf(ctx, eq(voucher.status, VOUCHER_STATUS.pendingReview), pageNum);

/** How many vouchers the member has per tab. */
export async function countVouchers(ctx: MemberCtx): Promise<VoucherCount> {
  const now = new Date();
  const byStatus = await Promise.all(
    VOUCHER_TABS.map(async (t) => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(voucher)
        .where(and(mine(ctx), tabFilter(t.status, now)));
      return { status: t.status, name: t.name, count: row?.n ?? 0 };
    }),
  );
  return { total: byStatus.reduce((s, b) => s + b.count, 0), byStatus };
}

/** The status of one of the member's vouchers. Only orders change it; asking changes nothing. */
export async function useStatus(ctx: MemberCtx, id: number) {
  const [row] = await ctx.db
    .select()
    .from(voucher)
    .where(and(mine(ctx), eq(voucher.id, id)));
  if (!row) throw failure(VOUCHER_MSG.notFound);
  const status = shownStatus(row, new Date());
  return { id: row.id, status, statusName: STATUS_NAME[status] ?? status };
}

// ---- claim ----------------------------------------------------------------------------------

const claimOpen = (t: TemplateRow, now: Date) =>
  t.status === 'active' && (!t.claimFrom || t.claimFrom <= now) && (!t.claimTo || t.claimTo > now);

/** Where a voucher claimed now is valid. */
function validityOf(t: TemplateRow, now: Date): { validFrom: Date; validTo: Date } {
  if (t.validMode === 'days')
    return { validFrom: now, validTo: new Date(now.getTime() + (t.validDays ?? 0) * 86_400_000) };
  return { validFrom: t.validFrom ?? now, validTo: t.validTo ?? now };
}

/**
 * Gives a member one voucher of a template (design section 1, "Claim"), in one transaction of
 * guarded writes, any of which refusing rolls back all: the member's counter row (an upsert
 * that only adds below the per-member limit), the template's issued count (only below the
 * total limit, in the claim window), the budget (only within its limit), then the voucher,
 * unique per claim number. Templates claimed by review start as pending review.
 */
export async function claimTemplate(
  db: Db,
  input: { siteId: number; memberId: number; templateId: number; modes: readonly ClaimMode[] },
  now = new Date(),
): Promise<MemberVoucher> {
  const [t] = await db
    .select()
    .from(voucherTemplate)
    .where(and(eq(voucherTemplate.siteId, input.siteId), eq(voucherTemplate.id, input.templateId)));
  if (!t || !input.modes.includes(t.claimMode as ClaimMode) || !claimOpen(t, now))
    throw failure(VOUCHER_MSG.notClaimable);
  return db.transaction(async (tx) => {
    const limit = t.perMemberLimit;
    const [counter] = rowsOf<{ claimed: number }>(
      await tx.execute(sql`
        insert into voucher_claim_counter (template_id, member_id, claimed)
        values (${t.id}, ${input.memberId}, 1)
        on conflict (template_id, member_id) do update
          set claimed = voucher_claim_counter.claimed + 1
          where ${limit === null ? sql`true` : sql`voucher_claim_counter.claimed < ${limit}`}
        returning claimed`),
    );
    if (!counter || (limit !== null && counter.claimed > limit)) throw failure(VOUCHER_MSG.perMemberLimit);
    const [issued] = rowsOf<{ id: number }>(
      await tx.execute(sql`
        update voucher_template set issued = issued + 1
        where id = ${t.id} and status = 'active'
          and (claim_from is null or claim_from <= ${now.toISOString()}::timestamptz)
          and (claim_to is null or claim_to > ${now.toISOString()}::timestamptz)
          and (total_limit is null or issued + 1 <= total_limit)
        returning id`),
    );
    if (!issued) throw failure(VOUCHER_MSG.soldOut);
    if (t.budgetId !== null) {
      // The most a voucher can give away: its value, or a percent voucher's cap.
      const face = t.kind === 'percent' ? (t.cap ?? 0) : t.value;
      const [reserved] = rowsOf<{ id: number }>(
        await tx.execute(sql`
          update promotion_budget set used = used + ${face}
          where id = ${t.budgetId} and used + ${face} <= limit_amount
          returning id`),
      );
      if (!reserved) throw failure(VOUCHER_MSG.budgetOut);
    }
    const status = t.claimMode === 'review' ? VOUCHER_STATUS.pendingReview : VOUCHER_STATUS.unused;
    const [row] = await tx
      .insert(voucher)
      .values({
        siteId: t.siteId,
        templateId: t.id,
        memberId: input.memberId,
        status,
        ...validityOf(t, now),
        source: t.claimMode,
        claimNo: Number(counter.claimed),
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('voucher not created');
    await tx
      .insert(voucherEvent)
      .values({ voucherId: row.id, siteId: t.siteId, toStatus: status, note: `领取（${t.claimMode}）` });
    return memberVoucherOf(row, t, now);
  });
}

/** Claim in the voucher centre: self-claim, or a claim an operator then reviews. */
export const claimVoucher = (ctx: MemberCtx, templateId: number) =>
  claimTemplate(ctx.db, {
    siteId: ctx.site.row.id,
    memberId: ctx.member.id,
    templateId,
    modes: ['self', 'review'],
  });

/** A code typed by the member: the template of that code on this site (codes ignore case). */
export async function bindCode(ctx: MemberCtx, code: string): Promise<MemberVoucher> {
  const [t] = await ctx.db
    .select({ id: voucherTemplate.id })
    .from(voucherTemplate)
    .where(
      and(
        eq(voucherTemplate.siteId, ctx.site.row.id),
        eq(voucherTemplate.code, code.trim().toUpperCase()),
        eq(voucherTemplate.claimMode, 'code'),
      ),
    );
  if (!t) throw failure(VOUCHER_MSG.badCode);
  return claimTemplate(ctx.db, {
    siteId: ctx.site.row.id,
    memberId: ctx.member.id,
    templateId: t.id,
    modes: ['code'],
  });
}

/** 领券中心: the templates members may claim now, with what is left and what this member holds. */
export async function voucherCenter(
  ctx: RequestContext,
  siteId: number,
  memberId: number | undefined,
  now = new Date(),
): Promise<CenterTemplate[]> {
  const { db } = ctx;
  const rows = await db
    .select()
    .from(voucherTemplate)
    .where(
      and(
        eq(voucherTemplate.siteId, siteId),
        eq(voucherTemplate.status, 'active'),
        inArray(voucherTemplate.claimMode, ['self', 'review']),
      ),
    )
    .orderBy(asc(voucherTemplate.id));
  const open = rows.filter((t) => claimOpen(t, now));
  const claimed = new Map<number, number>();
  if (memberId !== undefined && open.length > 0) {
    const counters = await db
      .select()
      .from(voucherClaimCounter)
      .where(
        and(
          eq(voucherClaimCounter.memberId, memberId),
          inArray(
            voucherClaimCounter.templateId,
            open.map((t) => t.id),
          ),
        ),
      );
    for (const c of counters) claimed.set(c.templateId, c.claimed);
  }
  return open.map((t) => {
    const remaining = t.totalLimit === null ? null : t.totalLimit - t.issued;
    const mineCount = claimed.get(t.id) ?? 0;
    const validText =
      t.validMode === 'days'
        ? `领取后 ${t.validDays} 天内有效`
        : `${t.validFrom?.toISOString().slice(0, 10)} 至 ${t.validTo?.toISOString().slice(0, 10)}`;
    return {
      ...rulesOf(t),
      claimMode: t.claimMode,
      remaining,
      perMemberLimit: t.perMemberLimit,
      claimed: mineCount,
      canClaim: remaining !== 0 && (t.perMemberLimit === null || mineCount < t.perMemberLimit),
      validText,
    };
  });
}

/** The products a template's vouchers apply to, 10 a page. */
export async function voucherProducts(ctx: RequestContext, siteId: number, templateId: number, pageNum = 1) {
  const { db } = ctx;
  const [t] = await db
    .select()
    .from(voucherTemplate)
    .where(and(eq(voucherTemplate.siteId, siteId), eq(voucherTemplate.id, templateId)));
  if (!t) throw failure(VOUCHER_MSG.notFound);
  return productsInScope(db, siteId, t.scope, pageNum);
}

// ---- checkout -------------------------------------------------------------------------------

/** The voucher ids a checkout names: a list, "1,2", or its JSON text; anything else is refused. */
export function parseVoucherIds(value: unknown): number[] {
  if (value === undefined || value === null) return [];
  const list = listFrom(value);
  if (list === null) return [];
  if (!Array.isArray(list)) throw failure(VOUCHER_MSG.unavailable);
  const named = list.filter((v) => String(v).trim() !== '');
  const ids = named.map(idOf);
  if (ids.some((id) => id === undefined)) throw failure(VOUCHER_MSG.unavailable);
  const unique = [...new Set(ids as number[])];
  if (unique.length !== ids.length) throw failure(VOUCHER_MSG.unavailable);
  return unique;
}

/** The member's vouchers usable now (unused, within their dates), with their templates. */
async function usableVouchers(ctx: MemberCtx, now: Date, ids?: readonly number[]) {
  const rows = await ctx.db
    .select()
    .from(voucher)
    .innerJoin(voucherTemplate, eq(voucherTemplate.id, voucher.templateId))
    .where(
      and(
        mine(ctx),
        eq(voucher.status, VOUCHER_STATUS.unused),
        gt(voucher.validTo, now),
        ids ? inArray(voucher.id, [...ids]) : undefined,
      ),
    )
    .orderBy(asc(voucher.validTo), asc(voucher.id));
  return rows.map((r) => ({ row: r.voucher, template: r.voucher_template }));
}

/** Checkout lines priced on this site, as vouchers see them: selected cart lines or bought now. */
export async function pricingLinesOf(
  ctx: MemberCtx,
  input: { cartIds?: number[] | string; productInfos?: unknown },
): Promise<PricingLine[]> {
  const lines =
    input.cartIds !== undefined && input.cartIds !== ''
      ? await cartLinesOf(ctx, parseIdList(input.cartIds))
      : input.productInfos !== undefined && input.productInfos !== ''
        ? parseCartLines(input.productInfos)
        : [];
  const specs = await specificationsOnSite(
    ctx,
    ctx.site.row.id,
    lines.map((l) => l.specificationId),
  );
  const { priceOf: memberPrice } = await memberPricing(ctx);
  const merged = new Map<number, PricingLine>();
  for (const l of lines) {
    const spec = specs.get(l.specificationId);
    if (!spec || spec.productId !== l.productId) continue;
    const earlier = merged.get(l.specificationId);
    merged.set(l.specificationId, {
      specificationId: spec.specificationId,
      productId: spec.productId,
      categoryId: spec.categoryId,
      source: spec.source,
      amount: (earlier?.amount ?? 0) + memberPrice(spec.price) * l.num,
    });
  }
  return [...merged.values()];
}

/**
 * The checkout's vouchers for these lines: each of the member's vouchers with whether it applies
 * and what it alone saves; the best combination; and the chosen ones (given, or the best) split
 * over the lines.
 */
export async function availableVouchers(
  ctx: MemberCtx,
  lines: readonly PricingLine[],
  chosen?: readonly number[],
): Promise<Available> {
  const now = new Date();
  const held = await usableVouchers(ctx, now);
  const list = held.map(({ row, template }) => {
    const alone = applyVouchers(lines, [ruleOf(row, template)]);
    const reason =
      row.validFrom > now
        ? VOUCHER_MSG.notYetValid
        : (alone.refused?.reason ?? (alone.total > 0 ? '' : VOUCHER_MSG.outOfScope));
    return { ...memberVoucherOf(row, template, now), usable: reason === '', saving: alone.total, reason };
  });
  const rules = held.filter((_, i) => list[i]?.usable).map(({ row, template }) => ruleOf(row, template));
  const best = bestCombination(lines, rules);
  const use = chosen ?? best;
  const picked = use.map((id) => {
    const rule = rules.find((r) => r.id === id);
    if (!rule) throw failure(VOUCHER_MSG.unavailable);
    return rule;
  });
  const applied = applyVouchers(lines, picked);
  if (applied.refused) throw failure(applied.refused.reason);
  return {
    list,
    best,
    chosen: [...use],
    saving: applied.total,
    lines: lines.map((l, i) => ({
      specificationId: l.specificationId,
      amount: l.amount,
      saving: applied.savings[i] ?? 0,
    })),
  };
}

/**
 * What the named vouchers take off an order's lines, checked for this member now: each must be
 * the member's, unused, within its dates, apply to these lines, one per stacking group.
 * Answers the saving per line in the order given. Locking is lockVouchers, in the order's
 * transaction; this read only decides the amounts.
 */
export async function voucherSavings(
  ctx: MemberCtx,
  ids: readonly number[],
  lines: readonly PricingLine[],
): Promise<{ savings: number[]; total: number }> {
  if (ids.length === 0) return { savings: lines.map(() => 0), total: 0 };
  const now = new Date();
  const held = await usableVouchers(ctx, now, ids);
  if (held.length !== ids.length || held.some((h) => h.row.validFrom > now))
    throw failure(VOUCHER_MSG.unavailable);
  const byId = new Map(held.map((h) => [h.row.id, h]));
  const applied = applyVouchers(
    lines,
    ids.map((id) => {
      const h = byId.get(id) as (typeof held)[number];
      return ruleOf(h.row, h.template);
    }),
  );
  if (applied.refused) {
    const name = byId.get(applied.refused.id)?.template.name;
    throw failure(`${name}：${applied.refused.reason}`);
  }
  if (ids.some((id) => (applied.byVoucher.get(id) ?? 0) <= 0)) throw failure(VOUCHER_MSG.unavailable);
  return { savings: applied.savings, total: applied.total };
}

/**
 * The one writer of voucher statuses (after the claim inserts them): moves the vouchers that
 * match `where` by `event` to `to`, from the status VOUCHER_TRANSITIONS names for that move,
 * as a conditional UPDATE on it (of parallel moves of one voucher, one wins), with an event row
 * per voucher moved. A move not in the table throws before anything is written.
 */
export async function moveVouchers(
  tx: Db,
  move: {
    event: VoucherEvent;
    to: VoucherStatus;
    where: SQL | undefined;
    set?: Partial<Pick<VoucherRow, 'orderNo' | 'lockedAt' | 'usedAt'>>;
    orderNo: string | null;
    note: string;
  },
): Promise<{ id: number; siteId: number }[]> {
  const from = movableFrom(VOUCHER_TRANSITIONS, move.event, move.to)[0];
  if (!from) throw new Error(`voucher move ${move.event} to ${move.to} is not in VOUCHER_TRANSITIONS`);
  const moved = await tx
    .update(voucher)
    .set({ ...move.set, status: move.to })
    .where(and(eq(voucher.status, from), move.where))
    .returning({ id: voucher.id, siteId: voucher.siteId });
  if (moved.length > 0)
    await tx.insert(voucherEvent).values(
      moved.map((m) => ({
        voucherId: m.id,
        siteId: m.siteId,
        fromStatus: from,
        toStatus: move.to,
        orderNo: move.orderNo,
        note: move.note,
      })),
    );
  return moved;
}

/**
 * Locks the named vouchers for an order (design section 1, update 2), in the order's
 * transaction: only the member's unused vouchers within their dates move, and all of them or
 * the order fails (of two orders submitted in parallel with one voucher, one wins).
 */
export async function lockVouchers(tx: Db, ctx: MemberCtx, ids: readonly number[], orderNo: string) {
  if (ids.length === 0) return;
  const now = new Date();
  const moved = await moveVouchers(tx, {
    event: 'lock',
    to: VOUCHER_STATUS.locked,
    where: and(
      mine(ctx),
      inArray(voucher.id, [...ids]),
      lte(voucher.validFrom, now),
      gt(voucher.validTo, now),
    ),
    set: { orderNo, lockedAt: now },
    orderNo,
    note: '下单锁定',
  });
  if (moved.length !== ids.length) throw failure(VOUCHER_MSG.unavailable);
}

/**
 * The order was paid: its locked vouchers are used (in the payment's transaction). An order
 * whose vouchers took nothing off has none (every voucher of an order saves something).
 */
export async function useOrderVouchers(tx: Db, order: { orderNo: string; voucherAmount: number }) {
  if (order.voucherAmount === 0) return;
  const { orderNo } = order;
  await moveVouchers(tx, {
    event: 'use',
    to: VOUCHER_STATUS.used,
    where: eq(voucher.orderNo, orderNo),
    set: { usedAt: new Date() },
    orderNo,
    note: '订单支付',
  });
}

/** Vouchers of an order leaving it: unused again, or expired when past their end. */
async function backFromOrder(
  tx: Db,
  event: 'release' | 'refundBack',
  where: SQL,
  orderNo: string,
  note: string,
) {
  const now = new Date();
  const cleared = { orderNo: null, lockedAt: null, usedAt: null };
  for (const [to, within] of [
    [VOUCHER_STATUS.unused, gt(voucher.validTo, now)],
    [VOUCHER_STATUS.expired, lte(voucher.validTo, now)],
  ] as const)
    await moveVouchers(tx, { event, to, where: and(where, within), set: cleared, orderNo, note });
}

/**
 * The orders ended unpaid (cancelled or expired): their locked vouchers come back, or expire
 * when past their end. Only locked vouchers of those orders move, so a second call moves none.
 */
export async function releaseOrderVouchers(tx: Db, orderNos: readonly string[], note: string) {
  for (const orderNo of orderNos)
    await backFromOrder(tx, 'release', eq(voucher.orderNo, orderNo), orderNo, note);
}

/**
 * The order was refunded in full: its used vouchers whose template says so (refundReturns)
 * are unused again, or expired when past their end. They leave the order (order number
 * cleared), so a second call moves none: once.
 */
export async function refundOrderVouchers(tx: Db, orderNo: string) {
  const returning = tx
    .select({ id: voucherTemplate.id })
    .from(voucherTemplate)
    .where(eq(voucherTemplate.refundReturns, true));
  await backFromOrder(
    tx,
    'refundBack',
    and(eq(voucher.orderNo, orderNo), inArray(voucher.templateId, returning)) as SQL,
    orderNo,
    '订单全额退款，退回优惠券',
  );
}

/** Unused vouchers past their end become expired (the job; reads already show them so). */
export async function expireVouchers(db: Db, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const moved = await moveVouchers(tx, {
      event: 'expire',
      to: VOUCHER_STATUS.expired,
      where: lte(voucher.validTo, now),
      orderNo: null,
      note: '到期失效',
    });
    return moved.length;
  });
}
