import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Deployment secrets. Taken from the environment when set (several processes must share them),
 * otherwise generated on first start into DATA_DIR/secrets.json (mode 0600), never the repo.
 */
export interface Secrets {
  /** AES-256-GCM key that hides non-plain hotlines from scrapers (spec section 3). */
  hotlineKey: Buffer;
  /** RSA-OAEP key pair: the browser encrypts password fields with the public half. */
  rsaPrivateKey: KeyObject;
  rsaPublicKeyPem: string;
  /** Master key from which each site's partner keys (SSO, simulators) are derived. */
  partnerKey: Buffer;
}

interface StoredSecrets {
  hotlineKey: string;
  rsaPrivateKeyPem: string;
  partnerKey: string;
}

const newRsaPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;

function rsaPair(pem: string) {
  const rsaPrivateKey = createPrivateKey(pem);
  const rsaPublicKeyPem = createPublicKey(rsaPrivateKey).export({ type: 'spki', format: 'pem' }) as string;
  return { rsaPrivateKey, rsaPublicKeyPem };
}

export async function loadSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Secrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<StoredSecrets> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as StoredSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const complete: StoredSecrets = {
    hotlineKey: stored.hotlineKey ?? randomBytes(32).toString('base64'),
    rsaPrivateKeyPem: stored.rsaPrivateKeyPem ?? (env.RSA_PRIVATE_KEY ? '' : newRsaPem()),
    partnerKey: stored.partnerKey ?? randomBytes(32).toString('base64'),
  };
  if (JSON.stringify(complete) !== JSON.stringify(stored)) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(complete, null, 2), { mode: 0o600 });
  }
  return {
    hotlineKey: Buffer.from(env.HOTLINE_KEY ?? complete.hotlineKey, 'base64'),
    ...rsaPair(env.RSA_PRIVATE_KEY?.replaceAll('\\n', '\n') || complete.rsaPrivateKeyPem),
    partnerKey: Buffer.from(env.PARTNER_KEY ?? complete.partnerKey, 'base64'),
  };
}

// Generating an RSA key costs ~100 ms; the tests of one worker share one.
let testRsaPem: string | undefined;

/** Fresh secrets for tests: nothing touches the disk. */
export const testSecrets = (): Secrets => {
  testRsaPem ??= newRsaPem();
  return { hotlineKey: randomBytes(32), ...rsaPair(testRsaPem), partnerKey: randomBytes(32) };
};
