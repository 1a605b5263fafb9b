import { hash, verify } from '@node-rs/argon2';

/** OWASP password storage cheat sheet: argon2id, m = 19 MiB, t = 2, p = 1 (~40-60 ms here). */
const OWASP = {
  algorithm: 2 /* Algorithm.Argon2id (a const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, OWASP);

// Verified against when the account does not exist, so that "unknown phone" and "wrong
// password" take the same time and cannot be told apart.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword('not-a-real-password-0');
  const target = stored ?? (await dummyHash);
  try {
    const matches = await verify(target, password);
    return matches && stored != null;
  } catch {
    return false;
  }
}
