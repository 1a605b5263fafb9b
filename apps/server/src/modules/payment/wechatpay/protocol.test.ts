import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
// An independent implementation of the v3 protocol (TheNorthMemory's SDK, a dev dependency only).
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import {
  authorization,
  decryptResource,
  encryptResource,
  parseAuthorization,
  signatureOf,
  unixNow,
  verifyWechatpay,
  WechatpayVerifyError,
  wechatpayHeaders,
} from './protocol';

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchantKey = rsa();
const platformKey = rsa();
const PLATFORM_SERIAL = 'PUB_KEY_ID_0111111111112025112100000000000001';
const keys = new Map<string, KeyObject>([[PLATFORM_SERIAL, platformKey.publicKey]]);
const apiV3Key = randomBytes(16).toString('hex'); // 32 ASCII bytes, as WeChat issues them

/** A response the SDK's way: signed over TIMESTAMP\nNONCE\nBODY\n with the platform key. */
function sdkSigned(body: string, timestamp = unixNow(), nonce = Formatter.nonce()) {
  return {
    timestamp: String(timestamp),
    nonce,
    signature: Rsa.sign(Formatter.response(timestamp, nonce, body), platformKey.privateKey),
    serial: PLATFORM_SERIAL,
  };
}

const faultOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof WechatpayVerifyError) return error.fault;
    throw error;
  }
  return 'accepted';
};

describe('request signing (merchant → WeChat)', () => {
  const merchant = {
    mchid: '1900000719',
    serialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
    privateKey: merchantKey.privateKey,
  };

  it('signs METHOD\\nPATH\\nTIMESTAMP\\nNONCE\\nBODY\\n exactly as the SDK does', () => {
    const body = JSON.stringify({
      mchid: merchant.mchid,
      out_trade_no: 'W20261121000001',
      amount: { total: 1 },
    });
    for (const request of [
      { method: 'POST', path: '/v3/pay/transactions/native', body },
      { method: 'GET', path: '/v3/pay/transactions/out-trade-no/W20261121000001?mchid=1900000719', body: '' },
    ]) {
      const header = authorization(merchant, request, { timestamp: 1763702975, nonce: 'A1B2C3' });
      const parts = parseAuthorization(header);
      const expected = Rsa.sign(
        Formatter.request(request.method, request.path, 1763702975, 'A1B2C3', request.body),
        merchantKey.privateKey,
      );
      expect(parts).toMatchObject({ mchid: merchant.mchid, nonce_str: 'A1B2C3', timestamp: '1763702975' });
      expect(parts?.signature).toBe(expected);
      expect(
        Rsa.verify(
          Formatter.request(request.method, request.path, 1763702975, 'A1B2C3', request.body),
          expected,
          merchantKey.publicKey,
        ),
      ).toBe(true);
    }
  });

  it("reads the SDK's Authorization header (its own field order)", () => {
    const header = Formatter.authorization('1900000719', 'N0NCE', 'c2ln', 1763702975, 'ABCDEF');
    expect(parseAuthorization(header)).toEqual({
      mchid: '1900000719',
      nonce_str: 'N0NCE',
      signature: 'c2ln',
      timestamp: '1763702975',
      serial_no: 'ABCDEF',
    });
    expect(parseAuthorization('Bearer x')).toBeNull();
    expect(parseAuthorization('WECHATPAY2-SHA256-RSA2048 mchid="1"')).toBeNull();
  });
});

describe('response and notify verification (WeChat → merchant)', () => {
  const body = '{"code_url":"weixin://wxpay/bizpayurl?pr=abc"}';

  it('accepts what the SDK signed, and our own signer agrees with the SDK verifier', () => {
    expect(faultOf(() => verifyWechatpay(body, sdkSigned(body), keys))).toBe('accepted');
    const ours = signatureOf(
      wechatpayHeaders(body, { serial: PLATFORM_SERIAL, privateKey: platformKey.privateKey }),
    );
    expect(ours).not.toBeNull();
    expect(
      Rsa.verify(
        Formatter.response(ours?.timestamp ?? '', ours?.nonce ?? '', body),
        ours?.signature ?? '',
        platformKey.publicKey,
      ),
    ).toBe(true);
  });

  it('refuses a tampered body, a bad signature, a stale timestamp, an unknown serial and no signature', () => {
    const signed = sdkSigned(body);
    expect(faultOf(() => verifyWechatpay(body.replace('abc', 'abd'), signed, keys))).toBe('bad-signature');
    expect(faultOf(() => verifyWechatpay(`${body} `, signed, keys))).toBe('bad-signature');
    // WeChat's own probe: a notify whose signature is deliberately wrong must be refused.
    expect(
      faultOf(() =>
        verifyWechatpay(body, { ...signed, signature: `WECHATPAY/SIGNTEST/${signed.signature}` }, keys),
      ),
    ).toBe('bad-signature');
    const otherKey = rsa();
    const forged = {
      ...signed,
      signature: Rsa.sign(Formatter.response(signed.timestamp, signed.nonce, body), otherKey.privateKey),
    };
    expect(faultOf(() => verifyWechatpay(body, forged, keys))).toBe('bad-signature');
    expect(faultOf(() => verifyWechatpay(body, sdkSigned(body, unixNow() - 301), keys))).toBe('stale');
    expect(faultOf(() => verifyWechatpay(body, sdkSigned(body, unixNow() + 301), keys))).toBe('stale');
    expect(faultOf(() => verifyWechatpay(body, sdkSigned(body, unixNow() - 290), keys))).toBe('accepted');
    expect(faultOf(() => verifyWechatpay(body, { ...signed, serial: 'PUB_KEY_ID_UNKNOWN' }, keys))).toBe(
      'unknown-serial',
    );
    expect(faultOf(() => verifyWechatpay(body, null, keys))).toBe('unsigned');
    expect(
      signatureOf({ 'wechatpay-timestamp': '1', 'wechatpay-nonce': 'n', 'wechatpay-signature': 's' }),
    ).toBeNull();
  });
});

describe('AEAD_AES_256_GCM resources', () => {
  const plaintext = JSON.stringify({ out_trade_no: 'W1', trade_state: 'SUCCESS', amount: { total: 100 } });

  it('decrypts what the SDK sealed and seals what the SDK decrypts', () => {
    const iv = 'fdasflkja484';
    const sealed = Aes.AesGcm.encrypt(plaintext, apiV3Key, iv, 'transaction');
    expect(
      decryptResource(
        { algorithm: 'AEAD_AES_256_GCM', ciphertext: sealed, nonce: iv, associated_data: 'transaction' },
        apiV3Key,
      ),
    ).toBe(plaintext);
    const ours = encryptResource(plaintext, apiV3Key, {
      associatedData: 'transaction',
      originalType: 'transaction',
    });
    expect(ours.nonce).toHaveLength(12);
    expect(Aes.AesGcm.decrypt(ours.ciphertext, apiV3Key, ours.nonce, 'transaction')).toBe(plaintext);
  });

  it('refuses a tampered ciphertext, a wrong key, wrong associated data and another algorithm', () => {
    const ours = encryptResource(plaintext, apiV3Key, {
      associatedData: 'transaction',
      originalType: 'transaction',
    });
    const bytes = Buffer.from(ours.ciphertext, 'base64');
    bytes[3] = (bytes[3] as number) ^ 1;
    expect(faultOf(() => decryptResource({ ...ours, ciphertext: bytes.toString('base64') }, apiV3Key))).toBe(
      'bad-ciphertext',
    );
    expect(faultOf(() => decryptResource(ours, randomBytes(16).toString('hex')))).toBe('bad-ciphertext');
    expect(faultOf(() => decryptResource({ ...ours, associated_data: 'refund' }, apiV3Key))).toBe(
      'bad-ciphertext',
    );
    expect(faultOf(() => decryptResource({ ...ours, ciphertext: 'AAAA' }, apiV3Key))).toBe('bad-ciphertext');
    expect(faultOf(() => decryptResource({ ...ours, algorithm: 'AES_128_CBC' }, apiV3Key))).toBe(
      'bad-ciphertext',
    );
  });
});
