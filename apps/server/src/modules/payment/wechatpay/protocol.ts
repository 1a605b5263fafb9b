import {
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  createSign,
  createVerify,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { chinaRfc3339 } from '../../../lib/china-time';

/**
 * The WeChat Pay API v3 wire protocol (pay.weixin.qq.com/doc/v3): what both the merchant
 * adapter and the local simulator speak. Requests are signed by the merchant with its RSA key
 * (Authorization: WECHATPAY2-SHA256-RSA2048 …); responses and notifies are signed by WeChat
 * (Wechatpay-Timestamp/-Nonce/-Signature/-Serial); notify resources are sealed with
 * AEAD_AES_256_GCM under the merchant's APIv3 key.
 */

export const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';
/** WeChat refuses (and we refuse) signed messages older or newer than five minutes. */
export const CLOCK_WINDOW_SECONDS = 300;
const TAG_BYTES = 16;

export type WechatpayFault = 'unsigned' | 'stale' | 'unknown-serial' | 'bad-signature' | 'bad-ciphertext';

/** A message that fails verification or decryption; `fault` says which check refused it. */
export class WechatpayVerifyError extends Error {
  constructor(
    readonly fault: WechatpayFault,
    message: string,
  ) {
    super(message);
    this.name = 'WechatpayVerifyError';
  }
}

/** Each part on its own line, every line ended by \n: the string both sides sign. */
export const signedText = (...parts: string[]) => `${parts.join('\n')}\n`;

export const nonce = () => randomBytes(16).toString('hex').toUpperCase();
export const unixNow = () => Math.floor(Date.now() / 1000);

export const rsaSign = (message: string, privateKey: KeyObject) =>
  createSign('RSA-SHA256').update(message).sign(privateKey, 'base64');

export function rsaVerify(message: string, signature: string, publicKey: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(message).verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

export interface MerchantIdentity {
  mchid: string;
  /** Serial number of the merchant API certificate: tells WeChat which key signed. */
  serialNo: string;
  privateKey: KeyObject;
}

/** The Authorization header of a merchant request over METHOD\nPATH\nTIMESTAMP\nNONCE\nBODY\n. */
export function authorization(
  merchant: MerchantIdentity,
  request: { method: string; path: string; body: string },
  stamp: { timestamp?: number; nonce?: string } = {},
): string {
  const timestamp = String(stamp.timestamp ?? unixNow());
  const nonceStr = stamp.nonce ?? nonce();
  const signature = rsaSign(
    signedText(request.method.toUpperCase(), request.path, timestamp, nonceStr, request.body),
    merchant.privateKey,
  );
  return `${AUTH_SCHEME} mchid="${merchant.mchid}",nonce_str="${nonceStr}",signature="${signature}",timestamp="${timestamp}",serial_no="${merchant.serialNo}"`;
}

export interface AuthorizationParts {
  mchid: string;
  nonce_str: string;
  signature: string;
  timestamp: string;
  serial_no: string;
}

/** Reads an Authorization header; null when it is not a complete v3 one. */
export function parseAuthorization(header: string | undefined): AuthorizationParts | null {
  if (!header?.startsWith(`${AUTH_SCHEME} `)) return null;
  const fields: Record<string, string> = {};
  for (const match of header.slice(AUTH_SCHEME.length + 1).matchAll(/(\w+)="([^"]*)"/g)) {
    fields[match[1] as string] = match[2] as string;
  }
  const { mchid, nonce_str, signature, timestamp, serial_no } = fields;
  if (!mchid || !nonce_str || !signature || !timestamp || !serial_no) return null;
  return { mchid, nonce_str, signature, timestamp, serial_no };
}

/** The four headers WeChat signs its responses and notifies with. */
export interface WechatpaySignature {
  timestamp: string;
  nonce: string;
  signature: string;
  serial: string;
}

export interface PlatformSigner {
  /** A platform certificate serial, or a WeChat Pay public key id (PUB_KEY_ID_…). */
  serial: string;
  privateKey: KeyObject;
}

/** Signs a response or notify body the way WeChat does: TIMESTAMP\nNONCE\nBODY\n. */
export function wechatpayHeaders(
  body: string,
  signer: PlatformSigner,
  stamp: { timestamp?: number; nonce?: string } = {},
): Record<string, string> {
  const timestamp = String(stamp.timestamp ?? unixNow());
  const nonceStr = stamp.nonce ?? nonce();
  return {
    'Wechatpay-Timestamp': timestamp,
    'Wechatpay-Nonce': nonceStr,
    'Wechatpay-Signature': rsaSign(signedText(timestamp, nonceStr, body), signer.privateKey),
    'Wechatpay-Serial': signer.serial,
  };
}

type HeaderBag = Record<string, string | string[] | undefined> | Headers;

const headerOf = (headers: HeaderBag, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name.toLowerCase()] ?? headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The Wechatpay-* headers of a response or notify; null when any of the four is missing. */
export function signatureOf(headers: HeaderBag): WechatpaySignature | null {
  const timestamp = headerOf(headers, 'Wechatpay-Timestamp');
  const nonceStr = headerOf(headers, 'Wechatpay-Nonce');
  const signature = headerOf(headers, 'Wechatpay-Signature');
  const serial = headerOf(headers, 'Wechatpay-Serial');
  if (!timestamp || !nonceStr || !signature || !serial) return null;
  return { timestamp, nonce: nonceStr, signature, serial };
}

/**
 * Verifies a body WeChat signed, over the raw bytes as received. Refuses a missing signature,
 * a timestamp outside the five-minute window, a serial we hold no key for, and a signature
 * that does not match (WeChat's own probes send `WECHATPAY/SIGNTEST/…` signatures on purpose).
 */
export function verifyWechatpay(
  body: string,
  signed: WechatpaySignature | null,
  keys: ReadonlyMap<string, KeyObject>,
  now = unixNow(),
): void {
  if (!signed) throw new WechatpayVerifyError('unsigned', 'missing Wechatpay-* signature headers');
  const timestamp = Number(signed.timestamp);
  if (!/^\d{1,12}$/.test(signed.timestamp) || Math.abs(now - timestamp) > CLOCK_WINDOW_SECONDS) {
    throw new WechatpayVerifyError('stale', `timestamp ${signed.timestamp} is outside the clock window`);
  }
  const key = keys.get(signed.serial);
  if (!key)
    throw new WechatpayVerifyError('unknown-serial', `no verification key for serial ${signed.serial}`);
  if (!rsaVerify(signedText(signed.timestamp, signed.nonce, body), signed.signature, key)) {
    throw new WechatpayVerifyError('bad-signature', 'Wechatpay-Signature does not match the body');
  }
}

/** The sealed part of a notify (resource): AEAD_AES_256_GCM, the tag in the last 16 bytes. */
export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
  original_type?: string;
}

const v3Key = (apiV3Key: string) => {
  const key = Buffer.from(apiV3Key, 'utf8');
  if (key.length !== 32) throw new Error('the APIv3 key must be 32 bytes');
  return key;
};

export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') {
    throw new WechatpayVerifyError('bad-ciphertext', `unsupported algorithm ${resource.algorithm}`);
  }
  const sealed = Buffer.from(resource.ciphertext, 'base64');
  if (sealed.length <= TAG_BYTES) throw new WechatpayVerifyError('bad-ciphertext', 'ciphertext too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', v3Key(apiV3Key), Buffer.from(resource.nonce, 'utf8'));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    return Buffer.concat([
      decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new WechatpayVerifyError('bad-ciphertext', 'the resource does not decrypt under the APIv3 key');
  }
}

export function encryptResource(
  plaintext: string,
  apiV3Key: string,
  options: { associatedData: string; originalType: string; nonce?: string },
): EncryptedResource {
  const iv = options.nonce ?? randomBytes(9).toString('base64url').slice(0, 12);
  const cipher = createCipheriv('aes-256-gcm', v3Key(apiV3Key), Buffer.from(iv, 'utf8'));
  cipher.setAAD(Buffer.from(options.associatedData, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    original_type: options.originalType,
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: sealed.toString('base64'),
    associated_data: options.associatedData,
    nonce: iv,
  };
}

/** A notify as WeChat posts it (the outer, signed JSON). */
export interface NotifyEnvelope {
  id: string;
  create_time: string;
  event_type: string;
  resource_type: string;
  summary: string;
  resource: EncryptedResource;
}

export const publicKeyPem = (privateKey: KeyObject) =>
  createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) as string;

/** WeChat's time format: RFC 3339 in Beijing time, e.g. 2026-11-21T13:29:35+08:00. */
export const beijingTime = chinaRfc3339;
