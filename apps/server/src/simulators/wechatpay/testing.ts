import { createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { type MerchantConfig, WechatpayClient } from '../../modules/payment/wechatpay/client';
import { beijingTime, type PlatformSigner } from '../../modules/payment/wechatpay/protocol';
import { bodyPlugin } from '../../plugins/body';
import { rawTextBodies } from '../../plugins/raw-body';
import { createWechatpaySimulator, type SimMerchant, type WechatpaySimulatorOptions } from './index';

/**
 * Test fixtures for the simulator: one merchant with a generated key pair, two platform
 * signers (a WeChat Pay public key id and a platform certificate serial), the simulator served
 * on a free port, and a notify receiver that answers as scripted.
 */
const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

export const PREFIX = '/simulator/wechatpay';
export const PUBLIC_KEY_ID = 'PUB_KEY_ID_0111111111112025112100000000000001';
export const CERT_SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
export const MERCHANT_SERIAL = '3775B6A45ACD588826D15E583A95F5DD2BB5C1E7';

const merchantKey = rsa();
export const signers: PlatformSigner[] = [
  { serial: PUBLIC_KEY_ID, privateKey: rsa().privateKey },
  { serial: CERT_SERIAL, privateKey: rsa().privateKey },
];
export const platformKeys = new Map<string, KeyObject>(
  signers.map((s) => [s.serial, createPublicKey(s.privateKey)]),
);

export const merchant: SimMerchant & { privateKey: KeyObject; serialNo: string } = {
  mchid: '1900000109',
  appid: 'wxd678efh567hg6787',
  publicKeys: new Map([[MERCHANT_SERIAL, merchantKey.publicKey]]),
  privateKey: merchantKey.privateKey,
  serialNo: MERCHANT_SERIAL,
  apiV3Key: randomBytes(16).toString('hex'),
  name: '测试商城 <旗舰店>',
};

/** `withMallBodies` registers the mall's global body handling first, as the app does. */
export async function startSimulator(
  overrides: Partial<WechatpaySimulatorOptions> = {},
  setup: { withMallBodies?: boolean } = {},
) {
  const sim = createWechatpaySimulator({
    signers,
    merchant: async (mchid) => (mchid === merchant.mchid ? merchant : undefined),
    retryDelaysMs: [10, 10, 10],
    refundDelayMs: 20,
    ...overrides,
  });
  const app = Fastify();
  if (setup.withMallBodies) await app.register(bodyPlugin);
  await app.register(sim.routes, { prefix: PREFIX });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const config: MerchantConfig = {
    mchid: merchant.mchid,
    serialNo: merchant.serialNo,
    privateKey: merchant.privateKey,
    appid: merchant.appid,
    apiV3Key: merchant.apiV3Key,
    platformKeys,
    apiBase: `${origin}${PREFIX}`,
  };
  return {
    sim,
    app,
    origin,
    client: new WechatpayClient(config),
    async close() {
      sim.stop();
      await app.close();
    },
  };
}

export interface ReceivedNotify {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The merchant's notify endpoint: answers `script` statuses in turn, then 204. */
export async function startReceiver(script: number[] = []) {
  const received: ReceivedNotify[] = [];
  const app: FastifyInstance = Fastify();
  await app.register(async (scope) => {
    rawTextBodies(scope);
    scope.post('/notify', async (req, reply) => {
      received.push({ headers: req.headers, body: typeof req.body === 'string' ? req.body : '' });
      return reply.status(script.shift() ?? 204).send();
    });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/notify`;
  return { url, received, close: () => app.close() };
}

let orderSeq = 0;
export function outTradeNo() {
  orderSeq += 1;
  return `T${Date.now()}${String(orderSeq).padStart(4, '0')}`;
}

/** A Native order as the merchant adapter sends it, expiring in half an hour unless told. */
export const nativeOrder = (notifyUrl: string, overrides: { total?: number; expiresInMs?: number } = {}) => ({
  description: '测试商品 ×1',
  out_trade_no: outTradeNo(),
  time_expire: beijingTime(new Date(Date.now() + (overrides.expiresInMs ?? 30 * 60_000))),
  notify_url: notifyUrl,
  attach: 'site=1',
  amount: { total: overrides.total ?? 1234 },
});
