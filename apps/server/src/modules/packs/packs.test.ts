import {
  addressApi,
  type CardLedgerEntry,
  orderApi,
  PACK_MSG,
  type PackCard,
  type PackProduct,
  type PayResult,
  packsApi,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, lineOf, NANJING, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { getBalance } from '../points/points.service';
import { issuedCards } from './packs.fixtures';
import { DEMO_CARDS, issueCards, normalizeCode } from './packs.service';
import { packCard, packLedger } from './packs.tables';

/** Gift cards through the API on the real database. */
let t: TestApp;
let api: ReturnType<typeof client>;
let spec: PickedSpec;
let product: PackProduct;

const post = <T>(e: { path: string }, payload: object, token: string) =>
  api.post<T>(e.path, { siteId: 719, ...payload }, token);
const issue = (quantity = 1) => issuedCards(t, { siteId: 719, productId: product.id, quantity });
const bind = (token: string, code: string, pin: string) =>
  post<{ card: PackCard }>(packsApi.bind, { code, pin }, token);
const orderOf = async (token: string, num: number) =>
  (
    await api.post<SubmitOrderResult>(
      orderApi.submitOrder.path,
      {
        siteId: 719,
        productInfos: [lineOf(spec, num)],
      },
      token,
    )
  ).body.data;
const payByPack = (token: string, orderNo: string) =>
  api.post<PayResult>(orderApi.payOrder.path, { siteId: 719, orderNo, payWay: 'pack' }, token);

async function member(points = 0) {
  const b = await buyer(t, 719, points);
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
  return b;
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  spec = (await pickSpecs(t.db, 719, { stock: 900 }))[0] as PickedSpec;
  const list = await api.post<{ list: PackProduct[] }>(packsApi.list.path, { siteId: 719 });
  product = list.body.data.list.find((p) => p.faceValue === 10_000) as PackProduct;
});
afterAll(() => t.close());

describe('gift cards', () => {
  it('lists the pack products and answers one', async () => {
    const info = await api.post<PackProduct>(packsApi.info.path, { siteId: 719, id: product.id });
    expect(info.body.data).toMatchObject({ name: '100积分礼品卡', faceValue: 10_000 });
    expect((await api.post(packsApi.info.path, { siteId: 1000, id: product.id })).body.msg).toBe(
      PACK_MSG.productNotFound,
    );
  });

  it('issues cards with a second approver and stores no code or PIN in clear', async () => {
    await expect(
      issueCards(t.db, t.secrets.partnerKey, {
        siteId: 719,
        productId: product.id,
        quantity: 1,
        issuedBy: 'op-a',
        approvedBy: 'op-a',
      }),
    ).rejects.toThrow('另一名操作员');
    const [card] = await issue();
    expect(card!.code).toMatch(/^[A-Z2-7]{16}$/);
    expect(card!.pin).toMatch(/^\d{6}$/);
    const [row] = await t.db.select().from(packCard).where(eq(packCard.id, card!.id));
    expect(JSON.stringify(row)).not.toContain(card!.code);
    expect(row!.pinHash).not.toContain(card!.pin);
    expect(row).toMatchObject({ codeLast4: card!.code.slice(-4), balance: 10_000, status: 'unsold' });
  });

  it('binds by code and PIN once; every failure reads the same; tries are bounded per member', async () => {
    const me = await member();
    const other = await member();
    const [card, spare] = await issue(2);
    expect((await bind(me.token, 'AAAAAAAAAAAAAAAA', '000000')).body.msg).toBe(PACK_MSG.badCode);
    expect((await bind(me.token, card!.code, card!.pin === '000000' ? '000001' : '000000')).body.msg).toBe(
      PACK_MSG.badCode,
    );
    const grouped = card!.code.toLowerCase().replace(/(.{4})(?!$)/g, '$1-');
    const ok = await bind(me.token, grouped, card!.pin);
    expect(ok.body).toMatchObject({ code: 200, msg: PACK_MSG.bound });
    expect(ok.body.data.card).toMatchObject({
      balance: 10_000,
      status: 'bound',
      codeMasked: `**** **** **** ${card!.code.slice(-4)}`,
    });
    expect((await bind(me.token, card!.code, card!.pin)).body.msg).toBe(PACK_MSG.alreadyMine);
    expect((await bind(other.token, card!.code, card!.pin)).body.msg).toBe(PACK_MSG.badCode);

    const guesser = await member();
    for (let i = 0; i < 5; i += 1)
      expect((await bind(guesser.token, `AAAAAAAAAAAAAA${i}A`, '123456')).body.msg).toBe(PACK_MSG.badCode);
    expect((await bind(guesser.token, spare!.code, spare!.pin)).body.msg).toBe(PACK_MSG.tooMany);
    const [still] = await t.db.select().from(packCard).where(eq(packCard.id, spare!.id));
    expect(still?.memberId).toBeNull();

    const can = await post<{ canBind: boolean }>(packsApi.canBind, { code: 'abcd-efgh-ijkl-mnop' }, me.token);
    expect(can.body.data.canBind).toBe(true);
    expect(
      (await post<{ canBind: boolean }>(packsApi.canBind, { code: '1234' }, me.token)).body.data.canBind,
    ).toBe(false);
  });

  it('pays an order with the card first and points for the rest; ledgers add up', async () => {
    const me = await member(10_000_000);
    const [card] = await issue();
    await bind(me.token, card!.code, card!.pin);
    const num = Math.ceil(15_000 / spec.price);
    const order = await orderOf(me.token, num);
    expect(order.payAmount).toBeGreaterThan(10_000);
    const before = await getBalance(t, { siteId: 719, memberId: me.id });
    const paid = await payByPack(me.token, order.orderNo);
    expect(paid.body.data).toMatchObject({ isPaid: true, payWay: 'pack' });
    expect(await getBalance(t, { siteId: 719, memberId: me.id })).toBe(before - (order.payAmount - 10_000));
    const count = await post<{ count: number; balance: number }>(packsApi.count, {}, me.token);
    expect(count.body.data).toEqual({ count: 1, balance: 0 });
    const page = await post<{ list: PackCard[] }>(packsApi.page, {}, me.token);
    expect(page.body.data.list[0]).toMatchObject({ id: card!.id, balance: 0 });
    const cash = await post<{ list: CardLedgerEntry[] }>(packsApi.cashList, { cardId: card!.id }, me.token);
    expect(cash.body.data.list.map((e) => [e.type, e.delta, e.balanceAfter])).toEqual([
      ['pay', -10_000, 0],
      ['bind', 0, 10_000],
      ['issue', 10_000, 10_000],
    ]);
    expect(cash.body.data.list[0]?.orderNo).toBe(order.orderNo);
    // Paying again changes nothing.
    expect((await payByPack(me.token, order.orderNo)).body.data.isPaid).toBe(true);
    expect(await t.db.select().from(packLedger).where(eq(packLedger.cardId, card!.id))).toHaveLength(3);
    // Another member cannot read this card's ledger.
    const other = await member();
    expect((await post(packsApi.cashList, { cardId: card!.id }, other.token)).body.msg).toBe(
      PACK_MSG.notFound,
    );
  });

  it('two orders paid in parallel from one card never take it below zero', async () => {
    const me = await member(10_000_000);
    const [card] = await issue();
    await bind(me.token, card!.code, card!.pin);
    const num = Math.ceil(7_000 / spec.price);
    const orders = [await orderOf(me.token, num), await orderOf(me.token, num)];
    const before = await getBalance(t, { siteId: 719, memberId: me.id });
    const answers = await Promise.all(orders.map((o) => payByPack(me.token, o.orderNo)));
    expect(answers.every((a) => a.body.data?.isPaid)).toBe(true);
    const [row] = await t.db.select().from(packCard).where(eq(packCard.id, card!.id));
    expect(row!.balance).toBe(0);
    const total = orders.reduce((s, o) => s + o.payAmount, 0);
    expect(await getBalance(t, { siteId: 719, memberId: me.id })).toBe(before - (total - 10_000));
    const sum = await t.db
      .select({ s: sql<number>`sum(${packLedger.delta})::int` })
      .from(packLedger)
      .where(eq(packLedger.cardId, card!.id));
    expect(Number(sum[0]?.s)).toBe(row!.balance);
  });

  it('has demo cards on 719 whose documented codes bind', async () => {
    for (const c of DEMO_CARDS) expect(normalizeCode(c.code)).toBe(c.code);
    const me = await member();
    const got = await bind(me.token, DEMO_CARDS[1]!.code.toLowerCase(), DEMO_CARDS[1]!.pin);
    expect(got.body.data.card).toMatchObject({ name: '100积分礼品卡', balance: 10_000 });
  });

  it('binds a paper ticket carrying a voucher code', async () => {
    const me = await member();
    const got = await post<{ kind: string; name: string }>(
      packsApi.ticketBind,
      { code: 'welcome719' },
      me.token,
    );
    expect(got.body.data).toMatchObject({ kind: 'voucher', name: '兑换码专享券' });
  });
});
