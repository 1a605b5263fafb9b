import {
  afterSaleApi,
  CARD_STATUS,
  CARD_TRANSITIONS,
  orderApi,
  type PackProduct,
  packsApi,
} from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { receivedOrder, type Shopper, shopper } from '../aftersale/aftersale.fixtures';
import { afterSaleRefund } from '../aftersale/aftersale.tables';
import { approveCase, refundCase } from '../aftersale/operator';
import { client } from '../identity/identity.fixtures';
import { refundOrder } from '../order/fulfilment';
import { lineOf, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { mallOrder } from '../order/order.tables';
import { getBalance } from '../points/points.service';
import { issuedCards } from './packs.fixtures';
import { cardLiability, expireCards, moveCards } from './packs.service';
import { packCard, packLedger } from './packs.tables';

/**
 * Refunds of orders paid partly with gift cards (issue 13): what the cards paid goes back to
 * the same cards, once, also when refunds run in parallel; the rest goes to points.
 */
let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;
let specs: PickedSpec[];
let product: PackProduct;
let big: PackProduct;

const balance = (me: Shopper) => getBalance(t, { siteId: 719, memberId: me.id });
const cardBalance = async (id: number) =>
  (await t.db.select({ b: packCard.balance }).from(packCard).where(eq(packCard.id, id)))[0]?.b;
const ledgerSum = async (id: number) =>
  Number(
    (
      await t.db
        .select({ s: sql<number>`sum(${packLedger.delta})::int` })
        .from(packLedger)
        .where(eq(packLedger.cardId, id))
    )[0]?.s,
  );

/** A member holding one bound card (100 points unless said). */
async function withCard(of: () => PackProduct = () => product): Promise<{ me: Shopper; cardId: number }> {
  const me = await shopper(t, 719);
  const [card] = await issuedCards(t, { siteId: 719, productId: of().id });
  const bound = await api.post(
    packsApi.bind.path,
    { siteId: 719, code: card!.code, pin: card!.pin },
    me.token,
  );
  if (bound.body.code !== 200) throw new Error(bound.body.msg);
  return { me, cardId: card!.id };
}

/** Pieces of `spec` worth more than the card: the card pays 100, points the rest. */
const piecesOver = (fen: number) => Math.ceil(fen / spec.price);

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  specs = await pickSpecs(t.db, 719, { count: 2, stock: 900 });
  spec = specs[0] as PickedSpec;
  const list = await api.post<{ list: PackProduct[] }>(packsApi.list.path, { siteId: 719 });
  product = list.body.data.list.find((p) => p.faceValue === 10_000) as PackProduct;
  big = list.body.data.list.find((p) => p.faceValue === 50_000) as PackProduct;
});
afterAll(() => t.close());

describe('refunds after pack payment', () => {
  it('an operator refund before shipping gives the cards their part and points the rest, once', async () => {
    const { me, cardId } = await withCard();
    const before = await balance(me);
    const submitted = await api.post<{ orderNo: string; payAmount: number }>(
      orderApi.submitOrder.path,
      { siteId: 719, productInfos: [lineOf(spec, piecesOver(15_000))] },
      me.token,
    );
    const { orderNo, payAmount } = submitted.body.data;
    await api.post(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'pack' }, me.token);
    expect(await cardBalance(cardId)).toBe(0);
    expect(await balance(me)).toBe(before - (payAmount - 10_000));

    const [first, second] = await Promise.all([
      refundOrder(t.db, { siteId: 719, orderNo }),
      refundOrder(t.db, { siteId: 719, orderNo }),
    ]);
    expect([first.isNew, second.isNew].sort()).toEqual([false, true]);
    expect(first.refunded).toBe(payAmount);
    expect(second.refunded).toBe(payAmount);
    expect(await cardBalance(cardId)).toBe(10_000);
    expect(await balance(me)).toBe(before);
    expect(await ledgerSum(cardId)).toBe(10_000);
    const entries = await t.db
      .select()
      .from(packLedger)
      .where(and(eq(packLedger.cardId, cardId), eq(packLedger.bizType, 'refund')));
    expect(entries.map((e) => [e.delta, e.orderNo, e.bizId])).toEqual([
      [10_000, orderNo, `refund:${orderNo}`],
    ]);
  });

  it('after-sales refunds of two lines in parallel give the cards back what they paid, once', async () => {
    const { me, cardId } = await withCard();
    const before = await balance(me);
    // Two lines, each worth more than 80 points: the card pays 100, points the rest.
    const order = await receivedOrder(
      t,
      me,
      specs.map((s) => lineOf(s, Math.ceil(8_000 / s.price))),
      { payWay: 'pack' },
    );
    expect(await cardBalance(cardId)).toBe(0);
    const paidByPoints = before - (await balance(me));
    const cases: string[] = [];
    for (const line of order.check.lines) {
      const applied = await api.post<{ afterSaleNo: string }>(
        afterSaleApi.apply.path,
        {
          siteId: 719,
          orderNo: order.orderNo,
          lineId: line.lineId,
          kind: 'refund_only',
          qty: line.num,
          reason: '不想要了',
        },
        me.token,
      );
      if (applied.body.code !== 200) throw new Error(applied.body.msg);
      await approveCase(t.db, { siteId: 719, afterSaleNo: applied.body.data.afterSaleNo });
      cases.push(applied.body.data.afterSaleNo);
    }
    // Both cases at once, and each twice: each case refunds once, the cards never get more.
    const answers = await Promise.allSettled(
      [...cases, ...cases].map((afterSaleNo) => refundCase(t.db, { siteId: 719, afterSaleNo })),
    );
    expect(answers.filter((r) => r.status === 'fulfilled')).toHaveLength(2);

    expect(await cardBalance(cardId)).toBe(10_000);
    expect(await ledgerSum(cardId)).toBe(10_000);
    const refunds = (await t.db.select().from(afterSaleRefund).where(eq(afterSaleRefund.siteId, 719))).filter(
      (r) => cases.some((no) => r.outRefundNo.endsWith(no)),
    );
    const sum = (channel: string) =>
      refunds.filter((r) => r.channel === channel).reduce((s, r) => s + r.amount, 0);
    expect(sum('pack')).toBe(10_000);
    // Everything but the freight is back.
    expect(await balance(me)).toBe(before - paidByPoints + sum('points'));
    const [paid] = await t.db.select().from(mallOrder).where(eq(mallOrder.orderNo, order.orderNo));
    expect(sum('pack') + sum('points')).toBe(paid!.payAmount - paid!.freightAmount);
  });
});

describe('card expiry and the card state machine', () => {
  it('reaches every card status from an issue, and refuses a move not in the table', async () => {
    const reachable = new Set<string>();
    let frontier = CARD_TRANSITIONS.filter((x) => x.from === null).map((x) => x.to as string);
    while (frontier.length > 0) {
      for (const st of frontier) reachable.add(st);
      frontier = CARD_TRANSITIONS.filter((x) => x.from && reachable.has(x.from) && !reachable.has(x.to)).map(
        (x) => x.to,
      );
    }
    expect([...reachable].sort()).toEqual(Object.values(CARD_STATUS).sort());
    const { cardId } = await withCard();
    await expect(
      moveCards(t.db, { event: 'bind', to: CARD_STATUS.void, where: eq(packCard.id, cardId) }),
    ).rejects.toThrow(/not in CARD_TRANSITIONS/);
  });

  it('clears the balance of cards past their end once, with two jobs at once; a later refund is cleared again', async () => {
    const { me, cardId } = await withCard(() => big);
    // The card paid an order and kept a balance, then its end passed.
    const submitted = await api.post<{ orderNo: string }>(
      orderApi.submitOrder.path,
      { siteId: 719, productInfos: [lineOf(spec, 1)] },
      me.token,
    );
    const { orderNo } = submitted.body.data;
    await api.post(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'pack' }, me.token);
    const left = (await cardBalance(cardId)) as number;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(50_000);
    await t.db
      .update(packCard)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(packCard.id, cardId));

    const counts = await Promise.all([expireCards(t.db), expireCards(t.db)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const [row] = await t.db.select().from(packCard).where(eq(packCard.id, cardId));
    expect(row).toMatchObject({ balance: 0, status: 'expired' });
    const expiries = () =>
      t.db
        .select()
        .from(packLedger)
        .where(and(eq(packLedger.cardId, cardId), eq(packLedger.bizType, 'expire')));
    expect((await expiries()).map((e) => e.delta)).toEqual([-left]);
    expect(await expireCards(t.db)).toBe(0);

    // Refunded after its end: the card takes its part back, the next run clears it again.
    await refundOrder(t.db, { siteId: 719, orderNo });
    expect(await cardBalance(cardId)).toBe(50_000 - left);
    expect(await expireCards(t.db)).toBe(1);
    expect((await expiries()).map((e) => e.delta)).toEqual([-left, -(50_000 - left)]);
    expect(await ledgerSum(cardId)).toBe(0);
    expect(await cardBalance(cardId)).toBe(0);
  });

  it('answers the liability of a site: balances of cards that can still pay', async () => {
    const before = await cardLiability(t.db, 719);
    const bound = before.find((r) => r.status === 'bound');
    await withCard();
    const after = await cardLiability(t.db, 719);
    expect(after.find((r) => r.status === 'bound')).toEqual({
      status: 'bound',
      cards: (bound?.cards ?? 0) + 1,
      balance: (bound?.balance ?? 0) + 10_000,
    });
    expect(after.some((r) => r.status === 'expired')).toBe(false);
  });
});
