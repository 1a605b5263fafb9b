import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlatformSigner } from '../modules/payment/wechatpay/protocol';

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
  /**
   * The WeChat Pay simulator's platform keys: one addressed by a WeChat Pay public key id
   * (PUB_KEY_ID_…), one by a platform certificate serial, as WeChat has both.
   */
  wechatpaySimSigners: PlatformSigner[];
}

interface StoredSecrets {
  hotlineKey: string;
  rsaPrivateKeyPem: string;
  partnerKey: string;
  wechatpaySimPubKeyPem: string;
  wechatpaySimCertKeyPem: string;
}

const newRsaPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;

/** Serials derived from the key, so they stay the same across restarts. */
function simSigners(pubKeyPem: string, certKeyPem: string): PlatformSigner[] {
  const digest = (pem: string) => createHash('sha256').update(pem).digest('hex').toUpperCase();
  const idDigits = BigInt(`0x${digest(pubKeyPem).slice(0, 24)}`)
    .toString()
    .padStart(30, '0')
    .slice(0, 30);
  return [
    { serial: `PUB_KEY_ID_01${idDigits}`, privateKey: createPrivateKey(pubKeyPem) },
    { serial: digest(certKeyPem).slice(0, 40), privateKey: createPrivateKey(certKeyPem) },
  ];
}

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
    wechatpaySimPubKeyPem: stored.wechatpaySimPubKeyPem ?? newRsaPem(),
    wechatpaySimCertKeyPem: stored.wechatpaySimCertKeyPem ?? newRsaPem(),
  };
  if (JSON.stringify(complete) !== JSON.stringify(stored)) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(complete, null, 2), { mode: 0o600 });
  }
  return {
    hotlineKey: Buffer.from(env.HOTLINE_KEY ?? complete.hotlineKey, 'base64'),
    ...rsaPair(env.RSA_PRIVATE_KEY?.replaceAll('\\n', '\n') || complete.rsaPrivateKeyPem),
    partnerKey: Buffer.from(env.PARTNER_KEY ?? complete.partnerKey, 'base64'),
    wechatpaySimSigners: simSigners(complete.wechatpaySimPubKeyPem, complete.wechatpaySimCertKeyPem),
  };
}

// Generating an RSA key costs ~100 ms; the tests of one worker share theirs.
let testPems: string[] | undefined;

/** Fresh secrets for tests: nothing touches the disk. */
export const testSecrets = (): Secrets => {
  testPems ??= [newRsaPem(), newRsaPem(), newRsaPem()];
  const [rsa, simPub, simCert] = testPems as [string, string, string];
  return {
    hotlineKey: randomBytes(32),
    ...rsaPair(rsa),
    partnerKey: randomBytes(32),
    wechatpaySimSigners: simSigners(simPub, simCert),
  };
};
