import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// An independent client of WeChat Pay v3 (TheNorthMemory's SDK, a dev dependency only): if it
// talks to the simulator, the simulator signs and verifies like WeChat, not just like our adapter.
import { Wechatpay } from 'wechatpay-axios-plugin';
import { merchant, nativeOrder, PREFIX, signers, startSimulator } from './testing';

let env: Awaited<ReturnType<typeof startSimulator>>;
let wxpay: Wechatpay;

interface Answer {
  status: number;
  data: Record<string, unknown>;
}
/** The SDK's chain for one API path ({placeholders} filled from the config), typed for these tests. */
const endpoint = (path: string) =>
  wxpay.chain(path) as unknown as {
    get(config: object): Promise<Answer>;
    post(data: object, config?: object): Promise<Answer>;
  };

beforeAll(async () => {
  env = await startSimulator({ fetch: async () => new Response(null, { status: 204 }) });
  wxpay = new Wechatpay({
    mchid: merchant.mchid,
    serial: merchant.serialNo,
    privateKey: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    certs: Object.fromEntries(
      signers.map((s) => [s.serial, createPublicKey(s.privateKey).export({ type: 'spki', format: 'pem' })]),
    ),
    // The SDK signs the whole pathname it requests, mount prefix included: the simulator takes that too.
    baseURL: `${env.origin}${PREFIX}/`,
  });
});
afterAll(() => env.close());

const statusOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    const { response } = error as { response?: { status: number; data: { code: string } } };
    if (response) return { status: response.status, code: response.data.code };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('wechatpay-axios-plugin against the simulator', () => {
  it('prepays, queries, refunds and closes with verified answers', async () => {
    const { mchid, appid } = merchant;
    const order = nativeOrder('https://mall.example.com/notify');
    const prepay = await endpoint('v3/pay/transactions/native').post({ appid, mchid, ...order });
    expect(prepay.status).toBe(200);
    expect(prepay.data.code_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);

    const query = () =>
      endpoint('v3/pay/transactions/out-trade-no/{out_trade_no}').get({
        params: { mchid },
        out_trade_no: order.out_trade_no,
      });
    expect((await query()).data).toMatchObject({ trade_state: 'NOTPAY', amount: { total: 1234 } });

    await env.sim.pay(String(prepay.data.code_url));
    expect((await query()).data).toMatchObject({ trade_state: 'SUCCESS', out_trade_no: order.out_trade_no });

    const refund = await endpoint('v3/refund/domestic/refunds').post({
      out_trade_no: order.out_trade_no,
      out_refund_no: `R${order.out_trade_no}`,
      amount: { refund: 1234, total: 1234, currency: 'CNY' },
    });
    expect(refund.data).toMatchObject({ status: 'PROCESSING' });
    await env.sim.idle();
    const refunded = await endpoint('v3/refund/domestic/refunds/{out_refund_no}').get({
      out_refund_no: `R${order.out_trade_no}`,
    });
    expect(refunded.data).toMatchObject({ status: 'SUCCESS' });

    const unpaid = nativeOrder('https://mall.example.com/notify');
    await endpoint('v3/pay/transactions/native').post({ appid, mchid, ...unpaid });
    const closed = await endpoint('v3/pay/transactions/out-trade-no/{out_trade_no}/close').post(
      { mchid },
      { out_trade_no: unpaid.out_trade_no },
    );
    expect(closed.status).toBe(204);
  });

  it('sees WeChat’s refusals', async () => {
    const { mchid, appid } = merchant;
    const order = nativeOrder('https://mall.example.com/notify');
    await endpoint('v3/pay/transactions/native').post({ appid, mchid, ...order });
    expect(
      await statusOf(
        endpoint('v3/pay/transactions/native').post({ appid, mchid, ...order, description: '别的商品' }),
      ),
    ).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(
      await statusOf(
        endpoint('v3/pay/transactions/out-trade-no/{out_trade_no}').get({
          params: { mchid },
          out_trade_no: 'NOSUCHORDER',
        }),
      ),
    ).toEqual({ status: 404, code: 'ORDER_NOT_EXIST' });
  });
});
