import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WechatpayApiError } from '../../modules/payment/wechatpay/client';
import {
  authorization,
  type MerchantIdentity,
  signatureOf,
  unixNow,
  verifyWechatpay,
} from '../../modules/payment/wechatpay/protocol';
import { merchant, nativeOrder, PREFIX, platformKeys, startSimulator } from './testing';

const NOTIFY_URL = 'https://mall.example.com/api/payment/wechatpay/notify';

let env: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  // Notifies are the notify tests' business: here they go nowhere.
  env = await startSimulator({ fetch: async () => new Response(null, { status: 204 }) });
});
afterAll(() => env.close());

const refusalOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WechatpayApiError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('Native payment through our merchant adapter', () => {
  it('prepays, reads NOTPAY, is paid on the phone and reads SUCCESS', async () => {
    const order = nativeOrder(NOTIFY_URL);
    const { code_url } = await env.client.nativePrepay(order);
    expect(code_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=[A-Za-z0-9]{10}$/);

    const unpaid = await env.client.queryByOutTradeNo(order.out_trade_no);
    expect(unpaid).toMatchObject({
      appid: merchant.appid,
      mchid: merchant.mchid,
      out_trade_no: order.out_trade_no,
      trade_state: 'NOTPAY',
      amount: { total: 1234, currency: 'CNY' },
    });
    expect(unpaid.transaction_id).toBeUndefined();

    await env.sim.pay(code_url, { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' });
    const paid = await env.client.queryByOutTradeNo(order.out_trade_no);
    expect(paid).toMatchObject({
      trade_state: 'SUCCESS',
      trade_type: 'NATIVE',
      attach: 'site=1',
      payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: { total: 1234, payer_total: 1234, currency: 'CNY', payer_currency: 'CNY' },
    });
    expect(paid.transaction_id).toMatch(/^4200001234\d{18}$/);
    expect(paid.success_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    expect(env.sim.trade(order.out_trade_no)).toEqual(paid);

    expect(await refusalOf(env.client.close(order.out_trade_no))).toEqual({ status: 400, code: 'ORDERPAID' });
    await expect(env.sim.pay(code_url)).rejects.toMatchObject({ code: 'ORDERPAID' });
  });

  it('answers a repeated prepay with the same code_url, and refuses changed, paid or closed ones', async () => {
    const order = nativeOrder(NOTIFY_URL);
    const first = await env.client.nativePrepay(order);
    expect(await env.client.nativePrepay(order)).toEqual(first);
    expect(await refusalOf(env.client.nativePrepay({ ...order, amount: { total: 1 } }))).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
    });

    await env.client.close(order.out_trade_no);
    expect((await env.client.queryByOutTradeNo(order.out_trade_no)).trade_state).toBe('CLOSED');
    await env.client.close(order.out_trade_no); // closing twice is fine
    expect(await refusalOf(env.client.nativePrepay(order))).toEqual({ status: 400, code: 'ORDER_CLOSED' });
    await expect(env.sim.pay(first.code_url)).rejects.toMatchObject({ code: 'ORDER_CLOSED' });

    const paidOrder = nativeOrder(NOTIFY_URL);
    await env.sim.pay((await env.client.nativePrepay(paidOrder)).code_url);
    expect(await refusalOf(env.client.nativePrepay(paidOrder))).toEqual({ status: 400, code: 'ORDERPAID' });
  });

  it('reads a trade past its time_expire as CLOSED and refuses to take the money', async () => {
    // A minute ahead: the prepay itself may take a second on a busy machine.
    const order = nativeOrder(NOTIFY_URL, { expiresInMs: 60_000 });
    const { code_url } = await env.client.nativePrepay(order);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 60_100);
      expect(await env.client.queryByOutTradeNo(order.out_trade_no)).toMatchObject({
        trade_state: 'CLOSED',
        trade_state_desc: '订单已关闭',
      });
      await expect(env.sim.pay(code_url)).rejects.toMatchObject({ code: 'ORDER_CLOSED' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a bank refusal reads PAYERROR, and the person may pay again', async () => {
    const order = nativeOrder(NOTIFY_URL);
    const { code_url } = await env.client.nativePrepay(order);
    expect((await env.sim.fail(code_url)).trade_state).toBe('PAYERROR');
    expect((await env.client.queryByOutTradeNo(order.out_trade_no)).trade_state).toBe('PAYERROR');
    expect((await env.sim.pay(code_url)).trade_state).toBe('SUCCESS');
  });

  it('refunds: PROCESSING, then SUCCESS; the trade reads REFUND; a repeated out_refund_no is the same refund', async () => {
    const order = nativeOrder(NOTIFY_URL);
    await env.sim.pay((await env.client.nativePrepay(order)).code_url);
    const request = {
      out_trade_no: order.out_trade_no,
      out_refund_no: `R${order.out_trade_no}`,
      reason: '不想要了',
      amount: { refund: 1000, total: 1234, currency: 'CNY' as const },
    };
    const refund = await env.client.refund(request);
    expect(refund).toMatchObject({
      out_refund_no: request.out_refund_no,
      out_trade_no: order.out_trade_no,
      status: 'PROCESSING',
      amount: { total: 1234, refund: 1000, payer_total: 1234, payer_refund: 1000 },
    });
    expect(refund.refund_id).toMatch(/^\d{29}$/);
    // The same refund again, whether or not it has completed meanwhile (it completes on a timer).
    const { status: _status, ...asCreated } = refund;
    expect(await env.client.refund(request)).toMatchObject(asCreated);

    expect(
      await refusalOf(
        env.client.refund({
          ...request,
          out_refund_no: `S${order.out_trade_no}`,
          amount: { ...request.amount, refund: 235 },
        }),
      ),
    ).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(
      await refusalOf(
        env.client.refund({ ...request, out_refund_no: 'X1', amount: { ...request.amount, total: 99 } }),
      ),
    ).toEqual({ status: 400, code: 'PARAM_ERROR' });

    await env.sim.idle();
    const done = await env.client.queryRefund(request.out_refund_no);
    expect(done).toMatchObject({ refund_id: refund.refund_id, status: 'SUCCESS' });
    expect(done.success_time).toMatch(/\+08:00$/);
    expect((await env.client.queryByOutTradeNo(order.out_trade_no)).trade_state).toBe('REFUND');

    expect(await refusalOf(env.client.queryRefund('NOPE'))).toEqual({
      status: 404,
      code: 'RESOURCE_NOT_EXISTS',
    });
  });

  it('refuses a refund of an unpaid trade, and answers ORDER_NOT_EXIST for an unknown one', async () => {
    const order = nativeOrder(NOTIFY_URL);
    await env.client.nativePrepay(order);
    const refund = {
      out_trade_no: order.out_trade_no,
      out_refund_no: `R${order.out_trade_no}`,
      amount: { refund: 1, total: 1234, currency: 'CNY' as const },
    };
    expect(await refusalOf(env.client.refund(refund))).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(await refusalOf(env.client.queryByOutTradeNo('UNKNOWN123'))).toEqual({
      status: 404,
      code: 'ORDER_NOT_EXIST',
    });
    expect(await refusalOf(env.client.close('UNKNOWN123'))).toEqual({ status: 404, code: 'ORDER_NOT_EXIST' });
  });

  it('names the bad field of a prepay', async () => {
    const cases: Array<[object, string]> = [
      [{ out_trade_no: 'abc' }, 'out_trade_no'],
      [{ description: 'x'.repeat(128) }, 'description'],
      [{ notify_url: 'ftp://mall.example.com/notify' }, 'notify_url'],
      [{ notify_url: 'https://mall.example.com/notify?site=1' }, 'notify_url'],
      [{ time_expire: '2026-11-21 13:29:35' }, 'time_expire'],
      [{ amount: { total: 0 } }, 'amount.total'],
    ];
    for (const [change, field] of cases) {
      const error = await env.client.nativePrepay({ ...nativeOrder(NOTIFY_URL), ...change }).catch((e) => e);
      expect(error).toBeInstanceOf(WechatpayApiError);
      expect(error).toMatchObject({ status: 400, code: 'PARAM_ERROR' });
      expect(error.message).toContain(field);
    }
  });
});

describe('request verification', () => {
  const order = () => nativeOrder(NOTIFY_URL);
  const prepayBody = (o: ReturnType<typeof order>, mchid = merchant.mchid) =>
    JSON.stringify({ appid: merchant.appid, mchid, ...o, amount: { ...o.amount, currency: 'CNY' } });
  const identity: MerchantIdentity = {
    mchid: merchant.mchid,
    serialNo: merchant.serialNo,
    privateKey: merchant.privateKey,
  };

  const post = async (body: string, auth: string) => {
    const response = await fetch(`${env.origin}${PREFIX}/v3/pay/transactions/native`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: auth },
      body,
    });
    const raw = await response.text();
    // Refusals are signed like every other answer.
    verifyWechatpay(raw, signatureOf(response.headers), platformKeys);
    return { status: response.status, body: JSON.parse(raw) as { code: string; message: string } };
  };
  const sign = (body: string, who: MerchantIdentity = identity, timestamp?: number) =>
    authorization(
      who,
      { method: 'POST', path: '/v3/pay/transactions/native', body },
      timestamp ? { timestamp } : {},
    );

  it('accepts a request signed over the API path', async () => {
    const body = prepayBody(order());
    expect((await post(body, sign(body))).status).toBe(200);
  });

  it.each([
    [
      'a signature by another key',
      (body: string) =>
        sign(body, {
          ...identity,
          privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
        }),
    ],
    ['a signature over other bytes', (body: string) => sign(`${body} `)],
    [
      'an unknown serial',
      (body: string) => sign(body, { ...identity, serialNo: 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF' }),
    ],
    ['a stale timestamp', (body: string) => sign(body, identity, unixNow() - 400)],
    ['an unknown mchid', (body: string) => sign(body, { ...identity, mchid: '1900000999' })],
    ['no Authorization scheme', () => 'Bearer x'],
  ])('refuses %s with 401 SIGN_ERROR and creates nothing', async (_case, authOf) => {
    const o = order();
    const body = prepayBody(o);
    const answer = await post(body, authOf(body));
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('SIGN_ERROR');
    expect(env.sim.trade(o.out_trade_no)).toBeUndefined();
  });

  it('refuses a body naming another mchid than the signature', async () => {
    const o = order();
    const body = prepayBody(o, '1900000999');
    const answer = await post(body, sign(body));
    expect(answer).toMatchObject({ status: 400, body: { code: 'PARAM_ERROR' } });
    expect(env.sim.trade(o.out_trade_no)).toBeUndefined();
  });

  it('refuses an appid that is not the merchant’s', async () => {
    const o = order();
    const body = JSON.stringify({ ...JSON.parse(prepayBody(o)), appid: 'wx0000000000000000' });
    expect(await post(body, sign(body))).toMatchObject({
      status: 400,
      body: { code: 'APPID_MCHID_NOT_MATCH' },
    });
  });

  it('signs a 204 answer over an empty body', async () => {
    const o = order();
    await env.client.nativePrepay(o);
    const path = `/v3/pay/transactions/out-trade-no/${o.out_trade_no}/close`;
    const body = JSON.stringify({ mchid: merchant.mchid });
    const response = await fetch(`${env.origin}${PREFIX}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: authorization(identity, { method: 'POST', path, body }),
      },
      body,
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(() => verifyWechatpay('', signatureOf(response.headers), platformKeys)).not.toThrow();
  });
});

describe('inside the mall', () => {
  it('still sees raw bodies behind the app-wide body parsing', async () => {
    const mall = await startSimulator(
      { fetch: async () => new Response(null, { status: 204 }) },
      { withMallBodies: true },
    );
    try {
      const order = nativeOrder(NOTIFY_URL);
      const { code_url } = await mall.client.nativePrepay(order);
      await mall.client.close(order.out_trade_no);
      expect((await mall.client.queryByOutTradeNo(order.out_trade_no)).trade_state).toBe('CLOSED');
      const pressed = await mall.app.inject({
        method: 'POST',
        url: `${PREFIX}/scan/${code_url.split('pr=')[1]}/pay`,
      });
      expect(pressed.statusCode).toBe(303);
    } finally {
      await mall.close();
    }
  });
});
