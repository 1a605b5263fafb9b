import {
  ADMIN_API_PREFIX,
  ADMIN_MSG,
  CODE,
  PROMO_MSG,
  packsApi,
  adminPromotionsApi as promo,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { adminClient, PASSWORDS } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { cardIssue } from './card-issue.tables';
import { packCard, packLedger } from './packs.tables';

/** The console's pack routes on the real database: products, four-eyes card batches, cards. */

let t: TestApp;
let api: ReturnType<typeof adminClient>;
const tokens: Record<string, string> = {};
let productId: number;

beforeAll(async () => {
  t = await testApp();
  api = adminClient(t);
  for (const [username, password] of Object.entries(PASSWORDS))
    tokens[username] = await api.tokenOf(username, password);
  const created = await api.call(
    promo.createPackProduct,
    { siteId: 719, name: '200积分礼品卡', faceValue: 20_000, salePrice: 19_000, validityDays: 180 },
    tokens.op719,
  );
  if (created.body.code !== 200) throw new Error(JSON.stringify(created.body));
  productId = created.body.data.id;
});
afterAll(() => t.close());

const audits = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action));

/** Downloads a batch's codes (a file, or the refusal's envelope). */
async function exportFile(batchId: number, token = tokens.op719) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${ADMIN_API_PREFIX}${promo.exportCardBatch.path}`,
    payload: { batchId },
    headers: { token: token as string },
  });
  return res;
}

const submit = async (quantity = 3) =>
  (
    await api.call(
      promo.createCardBatch,
      { siteId: 719, productId, quantity, reason: '年终福利' },
      tokens.op719,
    )
  ).body.data;

describe('pack products', () => {
  it('creates, lists with cards and liability, and edits with a reason (face value stays)', async () => {
    const list = await api.call(promo.packProducts, { siteId: 719 }, tokens.op719);
    expect(list.body.data.list.find((p) => p.id === productId)).toMatchObject({
      name: '200积分礼品卡',
      faceValue: 20_000,
      cards: 0,
      liability: 0,
    });
    const noReason = await api.call(
      promo.updatePackProduct,
      { siteId: 719, productId, salePrice: 18_000, reason: '' },
      tokens.op719,
    );
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const edited = await api.call(
      promo.updatePackProduct,
      { siteId: 719, productId, salePrice: 18_000, name: '200积分卡', reason: '促销价' },
      tokens.op719,
    );
    expect(edited.body.data).toMatchObject({ salePrice: 18_000, name: '200积分卡', faceValue: 20_000 });
    const [audit] = (await audits('promotion.pack.update')).filter((a) => a.entityId === String(productId));
    expect(audit).toMatchObject({
      before: { salePrice: 19_000, name: '200积分礼品卡' },
      after: { salePrice: 18_000 },
    });
    const outside = await api.call(
      promo.updatePackProduct,
      { siteId: 1000, productId, salePrice: 1, reason: '试' },
      tokens.op719,
    );
    expect(outside.body.code).toBe(403);
  });
});

describe('card batches (four eyes)', () => {
  it('is approved by a second operator with finance, generates the cards, exports codes once', async () => {
    const batch = await submit(3);
    expect(batch).toMatchObject({
      status: 'submitted',
      quantity: 3,
      makerName: '汇通运营',
      exportable: false,
    });
    // Not approved yet: nothing to export.
    expect((await exportFile(batch.id)).json().msg).toBe(PROMO_MSG.notExportable);
    // The maker holds no finance permission; the admin who is not the maker approves.
    expect((await api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.op719)).body.code).toBe(403);
    const approved = await api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.finance);
    expect(approved.body.data).toMatchObject({
      status: 'approved',
      approverName: '财务复核',
      exportable: true,
    });
    const cards = await t.db
      .select()
      .from(packCard)
      .where(eq(packCard.batchId, approved.body.data.packBatchId as number));
    expect(cards).toHaveLength(3);
    expect(cards.every((c) => c.status === 'unsold' && c.balance === 20_000)).toBe(true);

    const file = await exportFile(batch.id);
    expect(file.headers['content-type']).toContain('text/csv');
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('序号,卡号,密码');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(3);
    for (const [, code, pin] of rows) {
      expect(code).toMatch(/^[A-Z2-7]{16}$/);
      expect(pin).toMatch(/^\d{6}$/);
    }
    // Once: the second download is refused, the batch keeps no codes, the cards show masks only.
    const second = await exportFile(batch.id);
    expect(second.json()).toMatchObject({ code: CODE.failure, msg: PROMO_MSG.exported });
    const [row] = await t.db.select().from(cardIssue).where(eq(cardIssue.id, batch.id));
    expect(row?.sealedCodes).toBeNull();
    const [, code, pin] = rows[0] as string[];
    const search = await api.call(promo.cards, { siteId: 719, code: code as string }, tokens.op719);
    expect(search.body.data.list).toEqual([
      expect.objectContaining({
        codeMasked: `**** **** **** ${(code as string).slice(-4)}`,
        status: 'unsold',
      }),
    ]);
    expect(JSON.stringify(search.body)).not.toContain(code);
    const byLast4 = await api.call(
      promo.cards,
      { siteId: 719, code: (code as string).slice(-4) },
      tokens.op719,
    );
    expect(byLast4.body.data.list.some((c) => c.codeMasked.endsWith((code as string).slice(-4)))).toBe(true);

    // The exported code binds on the storefront.
    const member = await buyer(t, 719);
    const bound = await client(t).post(packsApi.bind.path, { siteId: 719, code, pin }, member.token);
    expect(bound.body.code).toBe(200);
    const mine = await api.call(promo.cards, { siteId: 719, member: member.phone }, tokens.op719);
    expect(mine.body.data.list).toEqual([expect.objectContaining({ status: 'bound', member: member.phone })]);
    for (const action of ['promotion.cards.submit', 'promotion.cards.approve', 'promotion.cards.export'])
      expect((await audits(action)).some((a) => a.entityId === String(batch.id))).toBe(true);
    const listed = await api.call(promo.packProducts, { siteId: 719 }, tokens.op719);
    expect(listed.body.data.list.find((p) => p.id === productId)).toMatchObject({
      cards: 3,
      liability: 60_000,
    });
  });

  it('never lets the maker approve their own batch', async () => {
    const [made] = await t.db
      .insert(cardIssue)
      .values({ siteId: 719, packProductId: productId, quantity: 1, makerId: 1, reason: '管理员自建' })
      .returning();
    const own = await api.call(promo.approveCardBatch, { batchId: made?.id as number }, tokens.admin);
    expect(own.body).toMatchObject({ code: 403, msg: PROMO_MSG.ownCardBatch });
    const [row] = await t.db
      .select()
      .from(cardIssue)
      .where(eq(cardIssue.id, made?.id as number));
    expect(row?.status).toBe('submitted');
  });

  it('two approvals in parallel generate the cards once', async () => {
    const batch = await submit(5);
    const answers = await Promise.all([
      api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.finance),
      api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.admin),
      api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.finance),
    ]);
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.body.code !== 200))
      expect(a.body.msg).toBe(PROMO_MSG.cardBatchState);
    const [row] = await t.db.select().from(cardIssue).where(eq(cardIssue.id, batch.id));
    const cards = await t.db
      .select()
      .from(packCard)
      .where(eq(packCard.batchId, row?.packBatchId as number));
    expect(cards).toHaveLength(5);
    const approvals = (await audits('promotion.cards.approve')).filter(
      (a) => a.entityId === String(batch.id),
    );
    expect(approvals).toHaveLength(1);
  });

  it('two exports in parallel hand the file out once', async () => {
    const batch = await submit(2);
    await api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.finance);
    const answers = await Promise.all([
      exportFile(batch.id),
      exportFile(batch.id),
      exportFile(batch.id, tokens.admin),
    ]);
    expect(answers.filter((a) => a.headers['content-type']?.toString().includes('text/csv'))).toHaveLength(1);
  });

  it('rejects with a reason; a rejected batch generates nothing', async () => {
    const batch = await submit(1);
    const noReason = await api.call(promo.rejectCardBatch, { batchId: batch.id, reason: '' }, tokens.finance);
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const rejected = await api.call(
      promo.rejectCardBatch,
      { batchId: batch.id, reason: '数量有误' },
      tokens.finance,
    );
    expect(rejected.body.data).toMatchObject({ status: 'rejected', packBatchId: null });
    const late = await api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.admin);
    expect(late.body.msg).toBe(PROMO_MSG.cardBatchState);
    const list = await api.call(promo.cardBatches, { siteId: 719, status: 'rejected' }, tokens.op719);
    expect(list.body.data.list.map((b) => b.id)).toContain(batch.id);
  });
});

describe('freeze and unfreeze', () => {
  it('freezes a bound card (no paying, no binding), unfreezes it back, audited with the reason', async () => {
    const batch = await submit(1);
    await api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.finance);
    const [, code, pin] = (await exportFile(batch.id)).body.trim().split('\n')[1]?.split(',') ?? [];
    const member = await buyer(t, 719);
    await client(t).post(packsApi.bind.path, { siteId: 719, code, pin }, member.token);
    const [card] = await t.db.select().from(packCard).where(eq(packCard.memberId, member.id));
    const cardId = card?.id as number;
    const freeze = (frozen: boolean, reason = '疑似盗刷') =>
      api.call(promo.freezeCard, { siteId: 719, cardId, frozen, reason }, tokens.op719);
    expect((await freeze(true, '')).body.msg).toBe(ADMIN_MSG.reasonRequired);
    expect((await freeze(true)).body.data.status).toBe('frozen');
    expect((await freeze(true)).body.msg).toBe(PROMO_MSG.cardState);
    const page = await client(t).post<{ list: { id: number; status: string }[] }>(
      packsApi.page.path,
      { siteId: 719 },
      member.token,
    );
    expect(page.body.data.list.find((c) => c.id === cardId)?.status).toBe('frozen');
    expect((await freeze(false, '核实无误')).body.data.status).toBe('bound');
    expect((await freeze(false, '核实无误')).body.msg).toBe(PROMO_MSG.cardState);
    const rows = (await audits('promotion.card.freeze')).filter((a) => a.entityId === String(cardId));
    expect(rows[0]).toMatchObject({
      before: { status: 'bound' },
      after: { status: 'frozen' },
      reason: '疑似盗刷',
    });
    // Freezing moves no money.
    const ledger = await t.db
      .select()
      .from(packLedger)
      .where(and(eq(packLedger.cardId, cardId), eq(packLedger.bizType, 'adjust')));
    expect(ledger).toEqual([]);
    const outside = await api.call(
      promo.freezeCard,
      { siteId: 1000, cardId, frozen: true, reason: '试' },
      tokens.op719,
    );
    expect(outside.body.code).toBe(403);
    const [unchanged] = await t.db.select().from(packCard).where(eq(packCard.id, cardId));
    expect(unchanged?.status).toBe('bound');
  });

  it('an unsold card frozen twice at once is frozen once and thaws back to unsold; a void card stays void', async () => {
    const batch = await submit(2);
    await api.call(promo.approveCardBatch, { batchId: batch.id }, tokens.finance);
    const cards = await t.db.select().from(packCard).where(eq(packCard.siteId, 719));
    const [card, other] = cards.filter((c) => c.status === 'unsold').slice(-2);
    const freeze = (cardId: number, frozen: boolean) =>
      api.call(promo.freezeCard, { siteId: 719, cardId, frozen, reason: '卡片遗失' }, tokens.op719);
    const both = await Promise.all([freeze(card?.id as number, true), freeze(card?.id as number, true)]);
    expect(both.map((r) => r.body.data?.status ?? r.body.msg).sort()).toEqual(
      ['frozen', PROMO_MSG.cardState].sort(),
    );
    expect((await freeze(card?.id as number, false)).body.data.status).toBe('unsold');
    await t.db
      .update(packCard)
      .set({ status: 'void' })
      .where(eq(packCard.id, other?.id as number));
    expect((await freeze(other?.id as number, true)).body.msg).toBe(PROMO_MSG.cardState);
    const [still] = await t.db
      .select()
      .from(packCard)
      .where(eq(packCard.id, other?.id as number));
    expect(still?.status).toBe('void');
  });

  it('a foreign card id on an own site is not found', async () => {
    const missing = await api.call(
      promo.freezeCard,
      { siteId: 719, cardId: 2_000_000_000, frozen: true, reason: '试' },
      tokens.op719,
    );
    expect(missing.body.msg).toBe(ADMIN_MSG.notFound);
  });
});
