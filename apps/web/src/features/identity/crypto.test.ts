// @vitest-environment node
import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptSecret, importPublicKey, newNonce, spkiOfPem } from './crypto.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** What the server does (apps/server identity crypto): OAEP + SHA-256, then JSON. */
const decrypt = (ciphertext: string) =>
  JSON.parse(
    privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(ciphertext, 'base64'),
    ).toString('utf8'),
  ) as { v: string; n: string; t: number };

describe('encryptSecret', () => {
  it('encrypts {v, n, t} with RSA-OAEP SHA-256 so that node:crypto decrypts it', async () => {
    const key = await importPublicKey(spki);
    const before = Date.now();
    const cipher = await encryptSecret(key, 'Abc12345');
    const plain = decrypt(cipher);
    expect(plain.v).toBe('Abc12345');
    expect(plain.n).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(plain.t).toBeGreaterThanOrEqual(before);
    expect(plain.t).toBeLessThanOrEqual(Date.now());
  });

  it('uses a fresh nonce for every ciphertext and keeps unicode intact', async () => {
    const key = await importPublicKey(spki);
    const [a, b] = await Promise.all([encryptSecret(key, '密码pass1'), encryptSecret(key, '密码pass1')]);
    expect(a).not.toBe(b);
    expect(decrypt(a).n).not.toBe(decrypt(b).n);
    expect(decrypt(a).v).toBe('密码pass1');
  });

  it('takes the nonce and time it is given', async () => {
    const key = await importPublicKey(spki);
    const plain = decrypt(await encryptSecret(key, 'x1y2z3', { nonce: 'abcdefghijklmnop', time: 42 }));
    expect(plain).toEqual({ v: 'x1y2z3', n: 'abcdefghijklmnop', t: 42 });
  });

  it('reads the PEM form of the key as the same SPKI', () => {
    expect(Buffer.from(spkiOfPem(pem)).toString('base64')).toBe(spki);
  });

  it('makes base64url nonces of 22 characters', () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
