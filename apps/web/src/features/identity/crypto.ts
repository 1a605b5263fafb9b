import { ENCRYPTION, identityApi, type SecretEnvelope } from '@sitemall/contract';
import { call } from '../../api/client.ts';

/**
 * Secret fields (passwords) leave the browser encrypted (spec section 5, "Passwords are
 * encrypted with a public key before sending"): RSA-OAEP with SHA-256 over the JSON
 * {v: secret, n: nonce, t: ms timestamp}, the server's key from `identityApi.publicKey`,
 * base64 on the wire. The nonce makes every ciphertext single-use on the server, the time
 * bounds how long one stays acceptable (ENCRYPTION.maxSkewMs).
 */

const OAEP = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;

function subtleCrypto(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  // WebCrypto only exists in a secure context (https or localhost).
  if (!subtle) throw new Error('当前浏览器环境不支持加密，请使用 https 访问');
  return subtle;
}

function fromBase64(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A fresh nonce: 16 random bytes as base64url (22 characters, the server wants [A-Za-z0-9_-]{16,64}). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The SPKI DER of a PEM public key (the server sends both forms; either works). */
export function spkiOfPem(pem: string): Uint8Array<ArrayBuffer> {
  return fromBase64(pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, ''));
}

export const importPublicKey = (spkiBase64: string): Promise<CryptoKey> =>
  subtleCrypto().importKey('spki', fromBase64(spkiBase64), OAEP, false, ['encrypt']);

/** Encrypts one secret with a public key; nonce and time may be given (tests). */
export async function encryptSecret(
  key: CryptoKey,
  value: string,
  options: { nonce?: string; time?: number } = {},
): Promise<string> {
  const envelope: SecretEnvelope = {
    v: value,
    n: options.nonce ?? newNonce(),
    t: options.time ?? Date.now(),
  };
  const plain = new TextEncoder().encode(JSON.stringify(envelope));
  const cipher = await subtleCrypto().encrypt(OAEP, key, plain);
  return toBase64(new Uint8Array(cipher));
}

let serverKey: Promise<CryptoKey> | null = null;

async function loadServerKey(): Promise<CryptoKey> {
  const key = await call(identityApi.publicKey, {});
  if (key.algorithm !== ENCRYPTION.algorithm) throw new Error('加密方式不受支持');
  return importPublicKey(key.spki);
}

/** The server's key, fetched once per page load; a failed fetch is retried on the next call. */
export function serverPublicKey(): Promise<CryptoKey> {
  if (!serverKey) {
    serverKey = loadServerKey().catch((error: unknown) => {
      serverKey = null;
      throw error;
    });
  }
  return serverKey;
}

/** Forget the cached key (the server answered that a ciphertext was unreadable: it may have rotated). */
export function forgetServerKey(): void {
  serverKey = null;
}

/** Encrypts several secret fields with the server's key; each gets its own nonce. */
export async function encryptFields<K extends string>(fields: Record<K, string>): Promise<Record<K, string>> {
  const key = await serverPublicKey();
  const entries = await Promise.all(
    (Object.entries(fields) as [K, string][]).map(async ([name, value]) => [
      name,
      await encryptSecret(key, value),
    ]),
  );
  return Object.fromEntries(entries) as Record<K, string>;
}
