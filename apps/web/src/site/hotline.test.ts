// @vitest-environment node
// @vitest-environment node
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptHotline, isEncryptedHotline } from './hotline.ts';

function encrypt(text: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

describe('hotline', () => {
  const key = randomBytes(32);

  it('decrypts iv|ciphertext|tag with the client key', async () => {
    const encrypted = encrypt('400-820-8820', key);
    await expect(decryptHotline(encrypted, key.toString('base64'))).resolves.toBe('400-820-8820');
  });

  it('rejects a wrong key', async () => {
    const encrypted = encrypt('95588', key);
    await expect(decryptHotline(encrypted, randomBytes(32).toString('base64'))).rejects.toThrow();
  });

  it('rejects a value too short to hold iv and tag', async () => {
    await expect(decryptHotline(Buffer.alloc(20).toString('base64'), key.toString('base64'))).rejects.toThrow(
      /too short/,
    );
  });

  it('knows plain hotlines from encrypted ones', () => {
    expect(isEncryptedHotline('95588')).toBe(false);
    expect(isEncryptedHotline('010-12345678')).toBe(false);
    expect(isEncryptedHotline('0755 1234567')).toBe(true);
    expect(isEncryptedHotline(encrypt('95588', key))).toBe(true);
    expect(isEncryptedHotline('')).toBe(false);
  });
});
