import {
  ADMIN_MSG,
  CODE,
  PROMO_MSG,
  adminPromotionsApi as promo,
  VOUCHER_MSG,
  voucherApi,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { makeTemplate } from './voucher.fixtures';
import { promotionBudget, voucher, voucherEvent, voucherTemplate } from './voucher.tables';

/** The console's voucher and budget routes on the real database (issue 13 item 5). */

let t: TestApp;
let api: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ t, admin: api, tokens } = await consoleApp());
});
afterAll(() => t.close());

const audits = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action));
const templateRow = async (id: number) =>
  (await t.db.select().from(voucherTemplate).where(eq(voucherTemplate.id, id)))[0];

const NEW_TEMPLATE = {
  siteId: 719,
  name: '控制台满减券',
  kind: 'amount' as const,
  value: 800,
  threshold: 3000,
  scopeType: 'all' as const,
  claimMode: 'self' as const,
  validMode: 'days' as const,
  validDays: 30,
  totalLimit: 100,
  perMemberLimit: 2,
};

describe('voucher templates', () => {
  it('creates a template with its rules, audited, and lists it with use so far', async () => {
    const created = await api.call(promo.createTemplate, NEW_TEMPLATE, tokens.op719);
    expect(created.body).toMatchObject({
      code: 200,
      data: { name: '控制台满减券', title: '满30减8', status: 'active', issued: 0, used: 0, totalLimit: 100 },
    });
    const id = created.body.data.id;
    expect((await audits('promotion.voucher.create')).some((a) => a.entityId === String(id))).toBe(true);

    // A member claims it in the centre: the list shows the claim.
    const member = await buyer(t, 719);
    const claimed = await client(t).post(
      voucherApi.claim.path,
      { siteId: 719, templateId: id },
      member.token,
    );
    expect(claimed.body.code).toBe(200);
    const list = await api.call(promo.templates, { siteId: 719, name: '控制台' }, tokens.op719);
    expect(list.body.data.list).toEqual([expect.objectContaining({ id, issued: 1, used: 0, locked: 0 })]);
  });

  it('refuses rules that cannot be applied and a code already used on the site', async () => {
    const percent = await api.call(
      promo.createTemplate,
      { ...NEW_TEMPLATE, kind: 'percent', value: 100 },
      tokens.op719,
    );
    expect(percent.body.msg).toContain(PROMO_MSG.badTemplate);
    const fixed = await api.call(
      promo.createTemplate,
      { ...NEW_TEMPLATE, validMode: 'fixed', validFrom: '2026-05-02', validTo: '2026-05-01' },
      tokens.op719,
    );
    expect(fixed.body.msg).toContain(PROMO_MSG.badTemplate);
    const taken = await api.call(
      promo.createTemplate,
      { ...NEW_TEMPLATE, claimMode: 'code', code: 'welcome719' },
      tokens.op719,
    );
    expect(taken.body).toMatchObject({ code: CODE.failure, msg: PROMO_MSG.codeTaken });
    const script = await api.call(
      promo.createTemplate,
      { ...NEW_TEMPLATE, name: '<script>x</script>', stackGroup: 'g1' },
      tokens.op719,
    );
    expect(script.body.data.name).toBe('<script>x</script>');
  });

  it('pauses, resumes and ends by the transitions table; ended is final; each move needs a reason', async () => {
    const id = await makeTemplate(t.db);
    const move = (action: 'pause' | 'resume' | 'end' | 'start', reason = '活动调整') =>
      api.call(promo.moveTemplate, { siteId: 719, templateId: id, action, reason }, tokens.op719);
    expect((await move('pause', ' ')).body).toMatchObject({
      code: CODE.badRequest,
      msg: ADMIN_MSG.reasonRequired,
    });
    expect((await move('pause')).body.data.status).toBe('paused');
    // A paused template cannot be claimed.
    const member = await buyer(t, 719);
    const refused = await client(t).post(
      voucherApi.claim.path,
      { siteId: 719, templateId: id },
      member.token,
    );
    expect(refused.body.msg).toBe(VOUCHER_MSG.notClaimable);
    expect((await move('resume')).body.data.status).toBe('active');
    expect((await move('end')).body.data.status).toBe('ended');
    expect((await move('resume')).body.msg).toBe(PROMO_MSG.templateState);
    expect((await templateRow(id))?.status).toBe('ended');
    const moves = (await audits('promotion.voucher.pause')).filter((a) => a.entityId === String(id));
    expect(moves[0]).toMatchObject({
      before: { status: 'active' },
      after: { status: 'paused' },
      reason: '活动调整',
    });
  });

  it('answers another site’s template as not found, and 403 for a site outside the scope', async () => {
    const other = await makeTemplate(t.db, { siteId: 1000 });
    const foreign = await api.call(
      promo.moveTemplate,
      { siteId: 719, templateId: other, action: 'pause', reason: '试' },
      tokens.op719,
    );
    expect(foreign.body.msg).toBe(ADMIN_MSG.notFound);
    const outside = await api.call(
      promo.moveTemplate,
      { siteId: 1000, templateId: other, action: 'pause', reason: '试' },
      tokens.op719,
    );
    expect(outside.body.code).toBe(403);
    expect((await templateRow(other))?.status).toBe('active');
  });
});

describe('issue to members', () => {
  /** What site 719's operator issues, to the accounts listed (member ids or phones). */
  const issueTo = (issue: { templateId: number; accounts: string; reason: string }) =>
    api.call(promo.issueVouchers, { siteId: 719, ...issue }, tokens.op719);

  it('issues by member id and phone, within the per-member limit, and reports each row', async () => {
    const id = await makeTemplate(t.db, { claimMode: 'issue', perMemberLimit: 1 });
    const a = await buyer(t, 719);
    const b = await buyer(t, 719);
    const stranger = await buyer(t, 1000);
    const answer = await issueTo({
      templateId: id,
      accounts: `${a.id}\n${b.phone}，${a.id}\n${stranger.id} 13000000000`,
      reason: '老客户回馈',
    });
    expect(answer.body.data).toMatchObject({ issued: 2, failed: 2 });
    expect(answer.body.data.rows.map((r) => [r.account, r.ok])).toEqual([
      [String(a.id), true],
      [b.phone, true],
      [String(stranger.id), false],
      ['13000000000', false],
    ]);
    const again = await issueTo({ templateId: id, accounts: String(a.id), reason: '再发一次' });
    expect(again.body.data.rows[0]).toMatchObject({ ok: false, detail: VOUCHER_MSG.perMemberLimit });
    const held = await t.db.select().from(voucher).where(eq(voucher.templateId, id));
    expect(held.map((v) => v.memberId).sort()).toEqual([a.id, b.id].sort());
    expect(held.every((v) => v.status === 'unused')).toBe(true);
    expect((await templateRow(id))?.issued).toBe(2);
    const [audit] = (await audits('promotion.voucher.issue')).filter((r) => r.entityId === String(id));
    expect(audit).toMatchObject({ reason: '老客户回馈', after: { issued: 2, failed: 2 } });
  });

  it('refuses review templates and an empty list', async () => {
    const review = await makeTemplate(t.db, { claimMode: 'review' });
    const refused = await issueTo({ templateId: review, accounts: '1', reason: '试' });
    expect(refused.body.msg).toBe(PROMO_MSG.issueMode);
    const issue = await makeTemplate(t.db, { claimMode: 'issue' });
    const empty = await issueTo({ templateId: issue, accounts: ' ,\n', reason: '试' });
    expect(empty.body.msg).toBe(PROMO_MSG.noAccounts);
  });
});

describe('claims waiting for review', () => {
  it('approves a claim into unused and rejects another to void, giving back stock and budget', async () => {
    const [budget] = await t.db
      .insert(promotionBudget)
      .values({ siteId: 719, name: '审核券预算', limitAmount: 10_000 })
      .returning();
    const id = await makeTemplate(t.db, {
      claimMode: 'review',
      value: 1000,
      budgetId: budget?.id,
      totalLimit: 5,
    });
    const members = [await buyer(t, 719), await buyer(t, 719)];
    const claims = [];
    for (const m of members) {
      const answer = await client(t).post<{ voucher: { id: number } }>(
        voucherApi.claim.path,
        { siteId: 719, templateId: id },
        m.token,
      );
      claims.push(answer.body.data.voucher.id);
    }
    const pending = await api.call(promo.pendingClaims, { siteId: 719, templateId: id }, tokens.op719);
    expect(pending.body.data.list.map((p) => [p.voucherId, p.member])).toEqual(
      claims.map((c, i) => [c, members[i]?.phone]),
    );
    const [kept, refused] = claims as [number, number];
    const review = (voucherId: number, decision: { approve: boolean; reason?: string }) =>
      api.call(promo.reviewClaims, { siteId: 719, voucherIds: [voucherId], ...decision }, tokens.op719);
    expect((await review(kept, { approve: true })).body.data.done).toBe(1);
    expect((await review(refused, { approve: false })).body.msg).toBe(ADMIN_MSG.reasonRequired);
    expect((await review(refused, { approve: false, reason: '非员工' })).body.data.done).toBe(1);
    expect((await review(refused, { approve: true })).body.msg).toBe(PROMO_MSG.claimState);

    const statuses = await t.db.select().from(voucher).where(eq(voucher.templateId, id)).orderBy(voucher.id);
    expect(statuses.map((v) => v.status)).toEqual(['unused', 'void']);
    expect((await templateRow(id))?.issued).toBe(1);
    const [after] = await t.db
      .select()
      .from(promotionBudget)
      .where(eq(promotionBudget.id, budget?.id as number));
    expect(after?.used).toBe(1000);
    const events = await t.db
      .select()
      .from(voucherEvent)
      .where(and(eq(voucherEvent.voucherId, claims[1] as number), eq(voucherEvent.toStatus, 'void')));
    expect(events[0]?.note).toContain('非员工');
  });
});

describe('budgets', () => {
  it('creates a budget, lists its use so far, and never lowers the limit below what was used', async () => {
    const created = await api.call(
      promo.createBudget,
      { siteId: 719, name: '春节预算', limitAmount: 50_000, reason: '春节活动' },
      tokens.op719,
    );
    expect(created.body.data).toMatchObject({ name: '春节预算', limitAmount: 50_000, used: 0, templates: 0 });
    const budgetId = created.body.data.id;
    const [made] = (await audits('promotion.budget.create')).filter((a) => a.entityId === String(budgetId));
    expect(made).toMatchObject({
      siteId: 719,
      after: { name: '春节预算', limitAmount: 50_000 },
      reason: '春节活动',
    });
    const tpl = await api.call(promo.createTemplate, { ...NEW_TEMPLATE, budgetId }, tokens.op719);
    const member = await buyer(t, 719);
    await client(t).post(voucherApi.claim.path, { siteId: 719, templateId: tpl.body.data.id }, member.token);
    const list = await api.call(promo.budgets, { siteId: 719 }, tokens.op719);
    expect(list.body.data.list.find((b) => b.id === budgetId)).toMatchObject({ used: 800, templates: 1 });
    const below = await api.call(
      promo.updateBudget,
      { siteId: 719, budgetId, limitAmount: 799, reason: '压缩' },
      tokens.op719,
    );
    expect(below.body.msg).toBe(PROMO_MSG.budgetBelowUsed);
    const raised = await api.call(
      promo.updateBudget,
      { siteId: 719, budgetId, limitAmount: 80_000, reason: '追加' },
      tokens.op719,
    );
    expect(raised.body.data.limitAmount).toBe(80_000);
    const [audit] = (await audits('promotion.budget.update')).filter((a) => a.entityId === String(budgetId));
    expect(audit).toMatchObject({ before: { limitAmount: 50_000 }, after: { limitAmount: 80_000 } });
    // A budget of another site cannot back a template here.
    const foreign = await api.call(
      promo.createBudget,
      { siteId: 1000, name: '外站', limitAmount: 1, reason: '试' },
      tokens.admin,
    );
    const refused = await api.call(
      promo.createTemplate,
      { ...NEW_TEMPLATE, budgetId: foreign.body.data.id },
      tokens.op719,
    );
    expect(refused.body.msg).toBe(ADMIN_MSG.notFound);
  });
});
