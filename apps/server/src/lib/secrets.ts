import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Deployment secrets. Taken from the environment when set (several processes must share them),
 * otherwise generated on first start into DATA_DIR/secrets.json (mode 0600), never the repo.
 */
export interface Secrets {
  /** AES-256-GCM key that hides non-plain hotlines from scrapers (spec section 3). */
  hotlineKey: Buffer;
}

interface StoredSecrets {
  hotlineKey: string;
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
  };
  if (JSON.stringify(complete) !== JSON.stringify(stored)) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(complete, null, 2), { mode: 0o600 });
  }
  return { hotlineKey: Buffer.from(env.HOTLINE_KEY ?? complete.hotlineKey, 'base64') };
}

/** Fresh secrets for tests: nothing touches the disk. */
export const testSecrets = (): Secrets => ({ hotlineKey: randomBytes(32) });
