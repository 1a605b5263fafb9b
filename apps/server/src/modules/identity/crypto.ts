import {
  constants,
  createHash,
  createHmac,
  createPublicKey,
  hash,
  type KeyObject,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { ENCRYPTION, IDENTITY_MSG, type SecretEnvelope } from '@sitemall/contract';
import type { Db } from '../../db/client';
import { openText, sealText } from '../../lib/aes';
import { badRequest } from '../../lib/errors';
import { useOnce } from './nonces';

const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
const MAX_SECRET_LENGTH = 64;
/** Nonces are remembered a little longer than a timestamp stays acceptable. */
const NONCE_TTL_SECONDS = (2 * ENCRYPTION.maxSkewMs) / 1000 + 60;

/** One-shot (no Hash object): token hashes are taken on every member request. */
export const sha256 = (text: string) => hash('sha256', text, 'hex');

/** Constant-time comparison of two strings of any length. */
export function sameText(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

/**
 * Decrypts a secret field sent by the browser: RSA-OAEP with SHA-256 of the JSON
 * {v, n, t}. Refuses anything malformed, a timestamp more than 5 minutes away from ours, and
 * a nonce seen before (a captured ciphertext cannot be sent again).
 */
export async function decryptSecret(db: Db, privateKey: KeyObject, ciphertext: string): Promise<string> {
  let parsed: Partial<SecretEnvelope>;
  try {
    const plain = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(ciphertext, 'base64'),
    );
    parsed = JSON.parse(plain.toString('utf8')) as Partial<SecretEnvelope>;
  } catch {
    throw badRequest(IDENTITY_MSG.badCiphertext);
  }
  const { v, n, t } = parsed ?? {};
  if (typeof v !== 'string' || v.length > MAX_SECRET_LENGTH || typeof n !== 'string' || !NONCE.test(n)) {
    throw badRequest(IDENTITY_MSG.badCiphertext);
  }
  if (typeof t !== 'number' || Math.abs(Date.now() - t) > ENCRYPTION.maxSkewMs) {
    throw badRequest(IDENTITY_MSG.staleCiphertext);
  }
  if (!(await useOnce(db, `rsa:${n}`, NONCE_TTL_SECONDS))) throw badRequest(IDENTITY_MSG.staleCiphertext);
  return v;
}

/**
 * What the browser does (WebCrypto RSA-OAEP, SHA-256), for tests, the bench and simulators.
 */
export function encryptSecret(
  publicKeyPem: string,
  value: string,
  options: { nonce?: string; time?: number } = {},
): string {
  const envelope: SecretEnvelope = {
    v: value,
    n: options.nonce ?? randomBytes(16).toString('base64url'),
    t: options.time ?? Date.now(),
  };
  return publicEncrypt(
    { key: createPublicKey(publicKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(JSON.stringify(envelope)),
  ).toString('base64');
}

/** The key a site shares with one partner, derived from the deployment's partner master key. */
export const partnerKeyOf = (master: Buffer, siteId: number, partner: string) =>
  createHmac('sha256', master).update(`site:${siteId}:partner:${partner}`).digest();

/** A partner's encrypted parameters: AES-256-GCM of JSON (the site's key for that partner). */
export const sealPartnerParams = (key: Buffer, params: object) => sealText(key, JSON.stringify(params));

export function openPartnerParams(key: Buffer, sealed: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(openText(key, sealed)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const hmacHex = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('hex');
