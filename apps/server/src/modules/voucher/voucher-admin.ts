import {
  ADMIN_MSG,
  type AdminBudget,
  type AdminVoucherTemplate,
  type CreateTemplateBody,
  type IssueVouchersResult,
  type PendingClaim,
  PROMO_MSG,
  TEMPLATE_TRANSITIONS,
  type TemplateAction,
  type TemplateStatus,
  VOUCHER_STATUS,
} from '@sitemall/contract';
import { and, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { AppError, failure } from '../../lib/errors';
import { type ListPage, listPage } from '../../lib/paging';
import { type OperatorCtx, requireSiteAccess } from '../admin/admin.service';
import { audited, requireReason } from '../admin/audit';
import {
  createAudited,
  dayEnd,
  dayStart,
  isoOrNull,
  listInScope,
  memberOfAccount,
  rowOnSite,
} from '../admin/console-kit';
import { memberLabels } from '../identity/member-admin';
import { claimTemplate, titleOf } from './voucher.service';
import { promotionBudget, voucher, voucherEvent, voucherTemplate } from './voucher.tables';

/**
 * The console's voucher screens (issue 13 item 5): templates with their use so far, creating
 * them, moving them (transitions table TEMPLATE_TRANSITIONS, one guarded UPDATE), issuing to
 * listed members through the same guarded claim as the storefront, reviewing claims, budgets.
 * Every read is within the operator's promotions scope; every write is audited in its
 * transaction.
 */

const countOf = (status: string) =>
  sql<number>`(count(${voucher.id}) filter (where ${voucher.status} = ${status}))::int`;

async function templatesWhere(db: Db, where: SQL | undefined, pageNum: number) {
  const page = await listPage({
    pageNum: pageNum,
    rows: db
      .select({
        t: voucherTemplate,
        budgetName: promotionBudget.name,
        locked: countOf(VOUCHER_STATUS.locked),
        used: countOf(VOUCHER_STATUS.used),
        pending: countOf(VOUCHER_STATUS.pendingReview),
      })
      .from(voucherTemplate)
      .leftJoin(promotionBudget, eq(promotionBudget.id, voucherTemplate.budgetId))
      .leftJoin(voucher, eq(voucher.templateId, voucherTemplate.id))
      .where(where)
      .groupBy(voucherTemplate.id, promotionBudget.name)
      .orderBy(desc(voucherTemplate.id))
      .$dynamic(),
    total: db.select({ n: count() }).from(voucherTemplate).where(where),
  });
  const list: AdminVoucherTemplate[] = page.list.map(({ t, budgetName, locked, used, pending }) => ({
    ...t,
    title: titleOf(t),
    claimFrom: isoOrNull(t.claimFrom),
    claimTo: isoOrNull(t.claimTo),
    validFrom: isoOrNull(t.validFrom),
    validTo: isoOrNull(t.validTo),
    budgetName: budgetName ?? '',
    locked,
    used,
    pending,
    createdAt: t.createdAt.toISOString(),
  }));
  return { ...page, list };
}

export async function listTemplates(
  ctx: OperatorCtx,
  query: { siteId?: number; status?: TemplateStatus; name?: string; pageNum?: number },
): Promise<ListPage<AdminVoucherTemplate>> {
  const name = query.name?.trim().replace(/[\\%_]/g, (c) => `\\${c}`);
  return listInScope(ctx, 'promotions:view', query, voucherTemplate.siteId, (inScope, pageNum) =>
    templatesWhere(
      ctx.db,
      and(
        inScope,
        query.status ? eq(voucherTemplate.status, query.status) : undefined,
        name ? ilike(voucherTemplate.name, `%${name}%`) : undefined,
      ),
      pageNum,
    ),
  );
}

async function templateOf(db: Db, siteId: number, templateId: number): Promise<AdminVoucherTemplate> {
  const { list } = await templatesWhere(
    db,
    and(eq(voucherTemplate.siteId, siteId), eq(voucherTemplate.id, templateId)),
    1,
  );
  const [found] = list;
  if (!found) throw failure(ADMIN_MSG.notFound);
  return found;
}

/** The template's fields from the form, refusing rules that could not be applied. */
function templateValues(input: CreateTemplateBody): typeof voucherTemplate.$inferInsert {
  const bad = (why: string) => failure(`${PROMO_MSG.badTemplate}：${why}`);
  if (input.kind === 'percent' && input.value >= 100) throw bad('折扣须在 1 至 99 之间');
  const scopeIds = input.scopeIds ?? [];
  if (input.scopeType !== 'all' && scopeIds.length === 0) throw bad('请选择适用范围');
  const code = input.code?.toUpperCase();
  if (input.claimMode === 'code' && !code) throw bad('兑换码券须填写兑换码');
  const claimFrom = dayStart(input.claimFrom);
  const claimTo = dayEnd(input.claimTo);
  if (claimFrom && claimTo && claimTo <= claimFrom) throw bad('领取结束日期早于开始日期');
  const validFrom = dayStart(input.validFrom);
  const validTo = dayEnd(input.validTo);
  if (input.validMode === 'fixed' && (!validFrom || !validTo || validTo <= validFrom))
    throw bad('请填写有效的使用期');
  if (input.validMode === 'days' && !input.validDays) throw bad('请填写领取后有效天数');
  return {
    siteId: input.siteId,
    name: input.name.trim(),
    kind: input.kind,
    value: input.value,
    cap: input.kind === 'percent' ? (input.cap ?? null) : null,
    threshold: input.threshold ?? 0,
    scope: { type: input.scopeType, ids: input.scopeType === 'all' ? [] : scopeIds },
    stackGroup: input.stackGroup?.trim() || 'default',
    claimMode: input.claimMode,
    code: input.claimMode === 'code' ? code : null,
    claimFrom,
    claimTo,
    validMode: input.validMode,
    validFrom: input.validMode === 'fixed' ? validFrom : null,
    validTo: input.validMode === 'fixed' ? validTo : null,
    validDays: input.validMode === 'days' ? (input.validDays ?? null) : null,
    totalLimit: input.totalLimit ?? null,
    perMemberLimit: input.perMemberLimit ?? null,
    budgetId: input.budgetId ?? null,
    refundReturns: input.refundReturns ?? false,
    status: input.start === false ? 'draft' : 'active',
  };
}

export async function createTemplate(ctx: OperatorCtx, input: CreateTemplateBody) {
  requireSiteAccess(ctx, 'promotions:manage', input.siteId);
  const values = templateValues(input);
  if (values.budgetId) await rowOnSite(ctx.db, promotionBudget, input.siteId, values.budgetId);
  try {
    const id = await audited(ctx, async (tx, record) => {
      const [row] = await tx.insert(voucherTemplate).values(values).returning();
      if (!row) throw new Error('template not created');
      await record({
        siteId: row.siteId,
        action: 'promotion.voucher.create',
        entity: 'voucher_template',
        entityId: row.id,
        after: { ...values, title: titleOf(row) },
        reason: input.reason?.trim() ?? '',
      });
      return row.id;
    });
    return templateOf(ctx.db, input.siteId, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw failure(PROMO_MSG.codeTaken);
    throw error;
  }
}

/** Where an action leads from a status, by the transitions table; undefined: not allowed. */
export const templateMove = (from: string, action: TemplateAction): TemplateStatus | undefined =>
  TEMPLATE_TRANSITIONS.find(([f, , a]) => f === from && a === action)?.[1];

/** The one writer of a template's status: only a move of the table, only from the status read. */
export async function moveTemplate(
  ctx: OperatorCtx,
  input: { siteId: number; templateId: number; action: TemplateAction; reason: string },
) {
  const reason = requireReason(input.reason);
  const before = await rowOnSite(ctx.db, voucherTemplate, input.siteId, input.templateId);
  const to = templateMove(before.status, input.action);
  if (!to) throw failure(PROMO_MSG.templateState);
  await audited(ctx, async (tx, record) => {
    const [moved] = await tx
      .update(voucherTemplate)
      .set({ status: to })
      .where(and(eq(voucherTemplate.id, before.id), eq(voucherTemplate.status, before.status)))
      .returning({ id: voucherTemplate.id });
    if (!moved) throw failure(PROMO_MSG.templateState);
    await record({
      siteId: before.siteId,
      action: `promotion.voucher.${input.action}`,
      entity: 'voucher_template',
      entityId: before.id,
      before: { status: before.status },
      after: { status: to },
      reason,
    });
  });
  return templateOf(ctx.db, input.siteId, input.templateId);
}

const MAX_ACCOUNTS = 500;

/**
 * Issues one voucher to each listed member (id or phone) through the storefront's guarded claim
 * (per-member, total and budget limits hold), each in its own savepoint so one refusal does
 * not undo the others; one audit row sums up the run.
 */
export async function issueVouchers(
  ctx: OperatorCtx,
  input: { siteId: number; templateId: number; accounts: string; reason: string },
): Promise<IssueVouchersResult> {
  const reason = requireReason(input.reason);
  const t = await rowOnSite(ctx.db, voucherTemplate, input.siteId, input.templateId);
  if (t.claimMode === 'review') throw failure(PROMO_MSG.issueMode);
  const accounts = [...new Set(input.accounts.split(/[\s,，;；]+/).filter(Boolean))];
  if (accounts.length === 0) throw failure(PROMO_MSG.noAccounts);
  if (accounts.length > MAX_ACCOUNTS) throw failure(PROMO_MSG.tooManyAccounts);
  const members = await Promise.all(accounts.map((a) => memberOfAccount(ctx.db, t.siteId, a)));
  return audited(ctx, async (tx, record) => {
    const rows: IssueVouchersResult['rows'] = [];
    for (const [i, account] of accounts.entries()) {
      const found = members[i];
      if (!found) {
        rows.push({ account, memberId: null, ok: false, detail: PROMO_MSG.memberNotFound });
        continue;
      }
      try {
        await claimTemplate(tx, {
          siteId: t.siteId,
          memberId: found.id,
          templateId: t.id,
          modes: ['issue', 'self', 'code'],
        });
        rows.push({ account, memberId: found.id, ok: true, detail: '已发放' });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        rows.push({ account, memberId: found.id, ok: false, detail: error.msg });
      }
    }
    const issued = rows.filter((r) => r.ok).length;
    await record({
      siteId: t.siteId,
      action: 'promotion.voucher.issue',
      entity: 'voucher_template',
      entityId: t.id,
      after: {
        issued,
        failed: rows.length - issued,
        memberIds: rows.filter((r) => r.ok).map((r) => r.memberId),
      },
      reason,
    });
    return { issued, failed: rows.length - issued, rows };
  });
}

// ---- claims waiting for review --------------------------------------------------------------

export async function pendingClaims(
  ctx: OperatorCtx,
  query: { siteId?: number; templateId?: number; pageNum?: number },
): Promise<ListPage<PendingClaim>> {
  return listInScope(ctx, 'promotions:view', query, voucher.siteId, async (inScope, pageNum) => {
    const where = and(
      inScope,
      eq(voucher.status, VOUCHER_STATUS.pendingReview),
      query.templateId ? eq(voucher.templateId, query.templateId) : undefined,
    );
    const page = await listPage({
      pageNum: pageNum,
      rows: ctx.db
        .select({ v: voucher, templateName: voucherTemplate.name })
        .from(voucher)
        .innerJoin(voucherTemplate, eq(voucherTemplate.id, voucher.templateId))
        .where(where)
        .orderBy(voucher.id)
        .$dynamic(),
      total: ctx.db.select({ n: count() }).from(voucher).where(where),
    });
    const labels = await memberLabels(
      ctx.db,
      page.list.map((r) => r.v.memberId),
    );
    return {
      ...page,
      list: page.list.map(({ v, templateName }) => ({
        voucherId: v.id,
        siteId: v.siteId,
        templateId: v.templateId,
        templateName,
        memberId: v.memberId,
        member: labels.get(v.memberId) ?? '',
        claimTime: v.createdAt.toISOString(),
      })),
    };
  });
}

/**
 * Approves (pending review → unused) or rejects (→ void) claims, each a guarded UPDATE on the
 * pending status so a claim is decided once. A rejected claim gives its template's count and
 * its budget reservation back; the member's per-member count stays (they were refused).
 */
export async function reviewClaims(
  ctx: OperatorCtx,
  input: { siteId: number; voucherIds: number[]; approve: boolean; reason?: string },
): Promise<{ done: number }> {
  const reason = input.approve ? (input.reason?.trim() ?? '') : requireReason(input.reason);
  const to = input.approve ? VOUCHER_STATUS.unused : VOUCHER_STATUS.void;
  return audited(ctx, async (tx, record) => {
    const moved = await tx
      .update(voucher)
      .set({ status: to })
      .where(
        and(
          eq(voucher.siteId, input.siteId),
          inArray(voucher.id, input.voucherIds),
          eq(voucher.status, VOUCHER_STATUS.pendingReview),
        ),
      )
      .returning({ id: voucher.id, templateId: voucher.templateId });
    if (moved.length === 0) throw failure(PROMO_MSG.claimState);
    await tx.insert(voucherEvent).values(
      moved.map((v) => ({
        voucherId: v.id,
        siteId: input.siteId,
        fromStatus: VOUCHER_STATUS.pendingReview,
        toStatus: to,
        note: input.approve ? '审核通过' : `审核驳回：${reason}`,
      })),
    );
    if (!input.approve) await giveBack(tx, moved);
    await record({
      siteId: input.siteId,
      action: input.approve ? 'promotion.voucher.approve' : 'promotion.voucher.reject',
      entity: 'voucher',
      entityId: moved.map((v) => v.id).join(','),
      before: { status: VOUCHER_STATUS.pendingReview },
      after: { status: to, count: moved.length },
      reason,
    });
    return { done: moved.length };
  });
}

/** Returns rejected claims' slots to their templates and their reservations to the budgets. */
async function giveBack(tx: Db, rejected: { templateId: number }[]) {
  const perTemplate = new Map<number, number>();
  for (const v of rejected) perTemplate.set(v.templateId, (perTemplate.get(v.templateId) ?? 0) + 1);
  for (const [templateId, n] of perTemplate) {
    const [t] = await tx
      .update(voucherTemplate)
      .set({ issued: sql`${voucherTemplate.issued} - ${n}` })
      .where(and(eq(voucherTemplate.id, templateId), sql`${voucherTemplate.issued} >= ${n}`))
      .returning();
    if (!t?.budgetId) continue;
    const face = (t.kind === 'percent' ? (t.cap ?? 0) : t.value) * n;
    await tx
      .update(promotionBudget)
      .set({ used: sql`${promotionBudget.used} - ${face}` })
      .where(and(eq(promotionBudget.id, t.budgetId), sql`${promotionBudget.used} >= ${face}`));
  }
}

// ---- budgets --------------------------------------------------------------------------------

async function budgetsWhere(db: Db, where: SQL | undefined, pageNum: number): Promise<ListPage<AdminBudget>> {
  const page = await listPage({
    pageNum: pageNum,
    rows: db
      .select({ b: promotionBudget, templates: sql<number>`count(${voucherTemplate.id})::int` })
      .from(promotionBudget)
      .leftJoin(voucherTemplate, eq(voucherTemplate.budgetId, promotionBudget.id))
      .where(where)
      .groupBy(promotionBudget.id)
      .orderBy(desc(promotionBudget.id))
      .$dynamic(),
    total: db.select({ n: count() }).from(promotionBudget).where(where),
  });
  return { ...page, list: page.list.map(({ b, templates }) => ({ ...b, templates })) };
}

export const listBudgets = (ctx: OperatorCtx, query: { siteId?: number; pageNum?: number }) =>
  listInScope(ctx, 'promotions:view', query, promotionBudget.siteId, (inScope, pageNum) =>
    budgetsWhere(ctx.db, inScope, pageNum),
  );

async function budgetOf(db: Db, id: number): Promise<AdminBudget> {
  const { list } = await budgetsWhere(db, eq(promotionBudget.id, id), 1);
  return list[0] as AdminBudget;
}

export async function createBudget(
  ctx: OperatorCtx,
  input: { siteId: number; name: string; limitAmount: number; reason: string },
) {
  const reason = requireReason(input.reason);
  const fields = { name: input.name.trim(), limitAmount: input.limitAmount };
  const id = await createAudited(
    ctx,
    promotionBudget,
    { siteId: input.siteId, ...fields },
    { action: 'promotion.budget.create', entity: 'promotion_budget', after: fields, reason },
  );
  return budgetOf(ctx.db, id);
}

/** A new limit, never below what the budget has already given (guarded, CHECK as backstop). */
export async function updateBudget(
  ctx: OperatorCtx,
  input: { siteId: number; budgetId: number; limitAmount: number; reason: string },
) {
  const reason = requireReason(input.reason);
  const before = await rowOnSite(ctx.db, promotionBudget, input.siteId, input.budgetId);
  await audited(ctx, async (tx, record) => {
    const [row] = await tx
      .update(promotionBudget)
      .set({ limitAmount: input.limitAmount })
      .where(and(eq(promotionBudget.id, before.id), sql`${promotionBudget.used} <= ${input.limitAmount}`))
      .returning();
    if (!row) throw failure(PROMO_MSG.budgetBelowUsed);
    await record({
      siteId: row.siteId,
      action: 'promotion.budget.update',
      entity: 'promotion_budget',
      entityId: row.id,
      before: { limitAmount: before.limitAmount },
      after: { limitAmount: row.limitAmount, used: row.used },
      reason,
    });
  });
  return budgetOf(ctx.db, before.id);
}
