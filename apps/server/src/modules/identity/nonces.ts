import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { usedNonce } from './identity.tables';

let sinceSweep = 0;
const SWEEP_EVERY = 500;

/**
 * Marks a value used; true the first time, false ever after (until it expires). The primary
 * key makes this hold across server processes and concurrent requests.
 */
export async function useOnce(db: Db, value: string, ttlSeconds: number): Promise<boolean> {
  if (++sinceSweep >= SWEEP_EVERY) {
    sinceSweep = 0;
    await db.delete(usedNonce).where(lt(usedNonce.expiresAt, sql`now()`));
  }
  const rows = await db
    .insert(usedNonce)
    .values({ nonce: value, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .onConflictDoNothing()
    .returning({ nonce: usedNonce.nonce });
  return rows.length === 1;
}
