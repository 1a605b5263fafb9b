import { randomUUID } from 'node:crypto';
import {
  PACK_MSG,
  type PackCard,
  type PackOrder,
  type PackProduct,
  packsApi,
  type VirtualCode,
} from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { getBalance } from '../points/points.service';
import { checkBankCardNo, luhnValid } from './bank-card';
import { virtualCode } from './pack-orders';
import { packCard, packLedger, packOrder } from './packs.tables';

/** Buying packs, their virtual codes and the bank card number check, on the real database. */
let t: TestApp;
let api: ReturnType<typeof client>;
let product: PackProduct;

const post = <T>(e: { path: string }, payload: object, token: string) =>
  api.post<T>(e.path, { siteId: 719, ...payload }, token);
const requestId = () => `pack-test-${randomUUID()}`;
const buy = (token: string, payload: object = {}) =>
  post<PackOrder>(
    packsApi.submitAndPay,
    { packId: product.id, payWay: 'ye', requestId: requestId(), ...payload },
    token,
  );
const balanceOf = (memberId: number) => getBalance(t, { siteId: 719, memberId });

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  const list = await api.post<{ list: PackProduct[] }>(packsApi.list.path, { siteId: 719 });
  product = list.body.data.list.find((p) => p.faceValue === 10_000) as PackProduct;
});
afterAll(() => t.close());

describe('buying packs', () => {
  it('pays with points and issues a card bound to the buyer; the order answers by query', async () => {
    const me = await buyer(t, 719, 30_000);
    const got = await buy(me.token);
    expect(got.body).toMatchObject({ code: 200, msg: PACK_MSG.bought });
    const order = got.body.data;
    expect(order).toMatchObject({
      packId: product.id,
      name: '100积分礼品卡',
      faceValue: 10_000,
      payAmount: 10_000,
      payWay: 'ye',
      status: 'paid',
      statusName: '已支付',
      asGift: false,
      card: { balance: 10_000, status: 'bound' },
    });
    expect(order.orderNo).toMatch(/^PK\d{22}$/);
    expect(await balanceOf(me.id)).toBe(20_000);
    const page = await post<{ list: PackCard[] }>(packsApi.page, {}, me.token);
    expect(page.body.data.list.map((c) => c.id)).toEqual([order.card?.id]);
    const queried = await post<PackOrder>(packsApi.query, { orderNo: order.orderNo }, me.token);
    expect(queried.body.data).toEqual(order);
    // The card's ledger starts with its issue, keyed by the pack order.
    const entries = await t.db.select().from(packLedger).where(eq(packLedger.cardId, order.card!.id));
    expect(entries.map((e) => [e.bizType, e.delta, e.bizId])).toEqual([['issue', 10_000, order.orderNo]]);
    // Another member does not see the order.
    const other = await buyer(t, 719);
    expect((await post(packsApi.query, { orderNo: order.orderNo }, other.token)).body.msg).toBe(
      PACK_MSG.orderNotFound,
    );
  });

  it('a retried request id buys once, also when the retries run in parallel', async () => {
    const me = await buyer(t, 719, 50_000);
    const id = requestId();
    const answers = await Promise.all(Array.from({ length: 5 }, () => buy(me.token, { requestId: id })));
    const orderNos = new Set(answers.map((a) => a.body.data.orderNo));
    expect(orderNos.size).toBe(1);
    expect(answers.filter((a) => a.body.msg === PACK_MSG.bought)).toHaveLength(1);
    expect(await balanceOf(me.id)).toBe(40_000);
    expect(await t.db.select().from(packOrder).where(eq(packOrder.memberId, me.id))).toHaveLength(1);
  });

  it('a short balance, another pay way or a product of another site buy nothing', async () => {
    const me = await buyer(t, 719, 9_999);
    expect((await buy(me.token)).body.msg).toBe('积分余额不足');
    expect((await buy(me.token, { payWay: 'pack' })).body.msg).toBe(PACK_MSG.payWayOff);
    expect((await buy(me.token, { packId: 999_999 })).body.msg).toBe(PACK_MSG.productNotFound);
    expect(await balanceOf(me.id)).toBe(9_999);
    expect(await t.db.select().from(packOrder).where(eq(packOrder.memberId, me.id))).toHaveLength(0);
    expect(await t.db.select().from(packCard).where(eq(packCard.memberId, me.id))).toHaveLength(0);
  });

  it('a gift pack shows its code to the buyer, who passes it on; masked once bound by another or late', async () => {
    const me = await buyer(t, 719, 10_000);
    const friend = await buyer(t, 719);
    const order = (await buy(me.token, { asGift: true })).body.data;
    expect(order.card).toMatchObject({ status: 'sold' });
    expect((await post<{ count: number }>(packsApi.count, {}, me.token)).body.data.count).toBe(0);
    const shown = (await post<VirtualCode>(packsApi.virtualCode, { orderNo: order.orderNo }, me.token)).body
      .data;
    expect(shown.masked).toBe(false);
    expect(shown.code).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){3}$/);
    expect(shown.pin).toMatch(/^\d{6}$/);
    // The code is sealed on the order, never stored in clear.
    const [row] = await t.db.select().from(packOrder).where(eq(packOrder.orderNo, order.orderNo));
    expect(JSON.stringify(row)).not.toContain(shown.code.replaceAll(' ', ''));
    // Only the buyer may read it.
    expect((await post(packsApi.virtualCode, { orderNo: order.orderNo }, friend.token)).body.msg).toBe(
      PACK_MSG.orderNotFound,
    );
    // After its hours it is masked, even for the buyer.
    const ctx = { db: t.db, site: { row: { id: 719 } }, member: { id: me.id } } as never;
    const late = new Date(Date.now() + 25 * 3_600_000);
    expect(await virtualCode(ctx, t.secrets.partnerKey, order.orderNo, late)).toMatchObject({
      masked: true,
      pin: null,
    });
    // The friend binds it: the buyer now sees it masked.
    const bound = await post<{ card: PackCard }>(
      packsApi.bind,
      { code: shown.code, pin: shown.pin },
      friend.token,
    );
    expect(bound.body.data.card).toMatchObject({ balance: 10_000, status: 'bound' });
    const after = (await post<VirtualCode>(packsApi.virtualCode, { orderNo: order.orderNo }, me.token)).body
      .data;
    expect(after).toEqual({
      orderNo: order.orderNo,
      code: `**** **** **** ${shown.code.slice(-4)}`,
      pin: null,
      masked: true,
    });
  });
});

describe('bank card numbers', () => {
  it('checks length and the Luhn digit and masks the number', async () => {
    expect(luhnValid('6250941006528599')).toBe(true);
    expect(luhnValid('6250941006528598')).toBe(false);
    expect(checkBankCardNo('4111 1111 1111 1111')).toEqual({
      valid: true,
      cardNoMasked: '4111 **** **** 1111',
      isUnionPay: false,
    });
    expect(checkBankCardNo('6212-2611-0200-1234-560')).toMatchObject({ valid: false, isUnionPay: true });
    expect(checkBankCardNo('4111111111111112').valid).toBe(false);
    expect(checkBankCardNo('1234').valid).toBe(false);
    const me = await buyer(t, 719);
    const good = await post<{ valid: boolean; isUnionPay: boolean }>(
      packsApi.unionBankCardNo,
      { cardNo: '6250941006528599' },
      me.token,
    );
    expect(good.body).toMatchObject({ code: 200, data: { valid: true, isUnionPay: true } });
    const bad = await post<{ valid: boolean }>(
      packsApi.unionBankCardNo,
      { cardNo: '6250941006528598' },
      me.token,
    );
    expect(bad.body).toMatchObject({ msg: PACK_MSG.badBankCardNo, data: { valid: false } });
  });
});
