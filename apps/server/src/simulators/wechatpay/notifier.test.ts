import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  decryptResource,
  type NotifyEnvelope,
  signatureOf,
  verifyWechatpay,
  WechatpayVerifyError,
} from '../../modules/payment/wechatpay/protocol';
import type { NotifyTamper } from './index';
import {
  CERT_SERIAL,
  merchant,
  nativeOrder,
  PUBLIC_KEY_ID,
  platformKeys,
  type ReceivedNotify,
  startReceiver,
  startSimulator,
} from './testing';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function setUp(script: number[] = []) {
  const env = await startSimulator();
  const receiver = await startReceiver(script);
  closers.push(env.close, receiver.close);
  /** A paid order: its TRANSACTION.SUCCESS notify is on its way. */
  const payOrder = async (overrides: { total?: number } = {}) => {
    const order = nativeOrder(receiver.url, overrides);
    const { code_url } = await env.client.nativePrepay(order);
    await env.sim.pay(code_url);
    return order;
  };
  return { ...env, receiver, payOrder };
}

/** What the merchant's handler does: verify the raw body, then open the resource. */
function open(notify: ReceivedNotify): { envelope: NotifyEnvelope; plaintext: Record<string, unknown> } {
  verifyWechatpay(notify.body, signatureOf(notify.headers), platformKeys);
  const envelope = JSON.parse(notify.body) as NotifyEnvelope;
  return { envelope, plaintext: JSON.parse(decryptResource(envelope.resource, merchant.apiV3Key)) };
}

const faultOf = (notify: ReceivedNotify) => {
  try {
    open(notify);
  } catch (error) {
    if (error instanceof WechatpayVerifyError) return error.fault;
    throw error;
  }
  return 'accepted';
};

describe('pay notifies', () => {
  it('posts a signed TRANSACTION.SUCCESS whose resource opens to the transaction', async () => {
    const { sim, client, receiver, payOrder } = await setUp();
    const order = await payOrder();
    await sim.idle();

    expect(receiver.received).toHaveLength(1);
    const [notify] = receiver.received as [ReceivedNotify];
    expect(notify.headers['content-type']).toBe('application/json');
    expect(notify.headers['wechatpay-signature-type']).toBe('WECHATPAY2-SHA256-RSA2048');
    expect(notify.headers['wechatpay-serial']).toBe(PUBLIC_KEY_ID);
    const { envelope, plaintext } = open(notify);
    expect(envelope).toMatchObject({
      event_type: 'TRANSACTION.SUCCESS',
      resource_type: 'encrypt-resource',
      summary: '支付成功',
      resource: {
        original_type: 'transaction',
        algorithm: 'AEAD_AES_256_GCM',
        associated_data: 'transaction',
      },
    });
    expect(envelope.resource.nonce).toHaveLength(12);
    expect(plaintext).toEqual(await client.queryByOutTradeNo(order.out_trade_no));
    expect(sim.deliveries()).toEqual([
      expect.objectContaining({ eventId: envelope.id, url: receiver.url, status: 204, attempt: 1 }),
    ]);
  });

  it('retries a refused delivery with the same id until the receiver takes it', async () => {
    const { sim, receiver, payOrder } = await setUp([500, 500]);
    await payOrder();
    await sim.idle();

    expect(sim.deliveries().map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 204],
    ]);
    const ids = receiver.received.map((n) => open(n).envelope.id);
    expect(new Set(ids).size).toBe(1);
  });

  it('gives up after the retry list, recording an unreachable receiver as status 0', async () => {
    const env = await startSimulator({ fetch: async () => Promise.reject(new Error('ECONNREFUSED')) });
    closers.push(env.close);
    await env.sim.pay(
      (await env.client.nativePrepay(nativeOrder('https://mall.example.com/notify'))).code_url,
    );
    await env.sim.idle();
    expect(env.sim.deliveries().map((d) => [d.attempt, d.status])).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 0],
    ]);
  });

  it('sends duplicates as extra identical copies', async () => {
    const { sim, receiver, payOrder } = await setUp();
    sim.notifyMode.duplicates = 3;
    await payOrder();
    await sim.idle();
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((n) => n.body)).size).toBe(1);
  });

  it('signs with the signer notifyMode.signWith names', async () => {
    const { sim, receiver, payOrder } = await setUp();
    sim.notifyMode.signWith = CERT_SERIAL;
    await payOrder();
    await sim.idle();
    const [notify] = receiver.received as [ReceivedNotify];
    expect(notify.headers['wechatpay-serial']).toBe(CERT_SERIAL);
    expect(faultOf(notify)).toBe('accepted');
  });

  it.each<[NotifyTamper, string]>([
    ['signature', 'bad-signature'],
    ['body', 'bad-signature'],
    ['ciphertext', 'bad-ciphertext'],
    ['stale', 'stale'],
    ['serial', 'unknown-serial'],
  ])('tamper %s: the merchant refuses it as %s (sent once, not retried)', async (tamper, fault) => {
    const { sim, receiver, payOrder } = await setUp([400, 400, 400]);
    sim.notifyMode.tamper = tamper;
    await payOrder();
    await sim.idle();
    expect(receiver.received).toHaveLength(1);
    expect(faultOf(receiver.received[0] as ReceivedNotify)).toBe(fault);
  });

  it('holds notifies and flushes them in reverse order', async () => {
    const { sim, receiver, payOrder } = await setUp();
    sim.notifyMode.hold = true;
    const first = await payOrder({ total: 1 });
    const second = await payOrder({ total: 2 });
    await sim.idle();
    expect(receiver.received).toHaveLength(0);

    await sim.flush({ reverse: true });
    await sim.idle();
    const order = receiver.received.map((n) => open(n).plaintext.out_trade_no);
    expect(order).toEqual([second.out_trade_no, first.out_trade_no]);
  });
});

describe('refund notifies', () => {
  it('posts REFUND.SUCCESS once the refund succeeds', async () => {
    const { sim, client, receiver, payOrder } = await setUp();
    const order = await payOrder();
    const refund = await client.refund({
      out_trade_no: order.out_trade_no,
      out_refund_no: `R${order.out_trade_no}`,
      notify_url: receiver.url,
      amount: { refund: 34, total: 1234, currency: 'CNY' },
    });
    await sim.idle();

    const notify = receiver.received.find((n) => JSON.parse(n.body).event_type === 'REFUND.SUCCESS');
    if (!notify) throw new Error('no refund notify');
    const { envelope, plaintext } = open(notify);
    expect(envelope.resource).toMatchObject({ original_type: 'refund', associated_data: 'refund' });
    expect(plaintext).toMatchObject({
      mchid: merchant.mchid,
      out_trade_no: order.out_trade_no,
      out_refund_no: refund.out_refund_no,
      refund_id: refund.refund_id,
      transaction_id: refund.transaction_id,
      refund_status: 'SUCCESS',
      user_received_account: '支付用户零钱',
      amount: { total: 1234, refund: 34, payer_total: 1234, payer_refund: 34 },
    });
    expect(plaintext.success_time).toMatch(/\+08:00$/);
  });
});

describe('stop', () => {
  it('cancels pending retries so idle() resolves at once', async () => {
    const env = await startSimulator({
      fetch: async () => new Response(null, { status: 500 }),
      retryDelaysMs: [60_000],
    });
    closers.push(env.close);
    await env.sim.pay(
      (await env.client.nativePrepay(nativeOrder('https://mall.example.com/notify'))).code_url,
    );
    await vi.waitFor(() => expect(env.sim.deliveries()).toHaveLength(1));
    env.sim.stop();
    await env.sim.idle();
    expect(env.sim.deliveries()).toHaveLength(1);
  });
});
