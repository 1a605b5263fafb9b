import { isPlainHotline } from '@sitemall/contract';

const IV_BYTES = 12;
const TAG_BYTES = 16;

function fromBase64(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Decrypts an encrypted hotline (spec section 3): base64 of iv (12 bytes) | ciphertext |
 * tag (16 bytes), AES-256-GCM, with the base64 key from siteApi.clientKeys. WebCrypto
 * takes ciphertext||tag as one buffer, which is exactly what follows the iv.
 */
export async function decryptHotline(encrypted: string, keyBase64: string): Promise<string> {
  const bytes = fromBase64(encrypted);
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw new Error('hotline ciphertext too short');
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('WebCrypto is not available (the page needs a secure context)');
  const key = await subtle.importKey('raw', fromBase64(keyBase64), { name: 'AES-GCM' }, false, ['decrypt']);
  const plain = await subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), tagLength: TAG_BYTES * 8 },
    key,
    bytes.slice(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}

/** Whether a hotline needs the client key before it can be shown. */
export const isEncryptedHotline = (hotline: string | null | undefined): hotline is string =>
  !!hotline && !isPlainHotline(hotline);
