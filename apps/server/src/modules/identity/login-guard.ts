import { IDENTITY_MSG } from '@sitemall/contract';
import { and, eq, lt, sql } from 'drizzle-orm';
import { badRequest } from '../../lib/errors';
import { consumeImageCode } from './captcha';
import type { IdentityCtx } from './deps';
import { loginFailure } from './identity.tables';
import { tooMany } from './sms';

/**
 * Password guessing is slowed per (account, client address), never per account alone: the
 * owner coming from another address with the right password (and an image code once the
 * account is under attack) still gets in. Counts live in the database (`login_failure`), so
 * they survive restarts and hold across processes.
 */
export const LOGIN_GUARD = {
  /** A pair's or an account's failures are forgotten this long after the last one. */
  windowSeconds: 15 * 60,
  /** From this many failures of one pair: an image code on every try, and a delay. */
  pairCaptchaAfter: 3,
  /** From this many failures of an account from all addresses: an image code from everyone. */
  accountCaptchaAfter: 5,
  /** One address failing on this many accounts is spraying: alert, and image codes from it. */
  sprayAccounts: 10,
  /** The first delay of a pair; it doubles with each further failure, up to the maximum. */
  firstDelaySeconds: 5,
  maxDelaySeconds: 300,
} as const;

export interface LoginAttempt {
  siteId: number;
  /** `p:<phone>` or `u:<username>`: what the caller tried to log into. */
  account: string;
  captchaId?: string;
  imageCode?: string;
}

/** Seconds a pair waits after its n-th failure (none before the image code is asked for). */
export function delayAfter(failures: number): number {
  if (failures < LOGIN_GUARD.pairCaptchaAfter) return 0;
  const doubled = LOGIN_GUARD.firstDelaySeconds * 2 ** (failures - LOGIN_GUARD.pairCaptchaAfter);
  return Math.min(doubled, LOGIN_GUARD.maxDelaySeconds);
}

const recent = sql`${loginFailure.lastFailedAt} > now() - make_interval(secs => ${LOGIN_GUARD.windowSeconds})`;

async function failureState(ctx: IdentityCtx, attempt: LoginAttempt) {
  const [counts] = await ctx.db
    .select({
      pair: sql<number>`coalesce(sum(${loginFailure.failures}) filter (where ${loginFailure.ip} = ${ctx.ip}), 0)::int`,
      pairIdle: sql<number>`coalesce(floor(extract(epoch from now() - max(${loginFailure.lastFailedAt}) filter (where ${loginFailure.ip} = ${ctx.ip}))), 0)::int`,
      account: sql<number>`coalesce(sum(${loginFailure.failures}), 0)::int`,
    })
    .from(loginFailure)
    .where(and(eq(loginFailure.siteId, attempt.siteId), eq(loginFailure.account, attempt.account), recent));
  return { pair: counts?.pair ?? 0, pairIdle: counts?.pairIdle ?? 0, account: counts?.account ?? 0 };
}

/** Accounts this address has failed on lately, over all sites. */
async function spread(ctx: IdentityCtx): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(loginFailure)
    .where(and(eq(loginFailure.ip, ctx.ip), recent));
  return row?.n ?? 0;
}

const pairOf = (ctx: IdentityCtx, attempt: LoginAttempt) =>
  and(
    eq(loginFailure.siteId, attempt.siteId),
    eq(loginFailure.account, attempt.account),
    eq(loginFailure.ip, ctx.ip),
  );

/**
 * Counts a try of the pair before its password is checked, in one statement: parallel tries
 * each get their own place in line, so a burst of guesses cannot all pass the check made for
 * the first (a right password forgets the count again). Returns the failures before this try.
 */
async function countTry(ctx: IdentityCtx, attempt: LoginAttempt): Promise<number> {
  const stale = sql`${loginFailure.lastFailedAt} <= now() - make_interval(secs => ${LOGIN_GUARD.windowSeconds})`;
  const [row] = await ctx.db
    .insert(loginFailure)
    .values({
      siteId: attempt.siteId,
      account: attempt.account,
      ip: ctx.ip,
      failures: 1,
      lastFailedAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: [loginFailure.siteId, loginFailure.account, loginFailure.ip],
      set: {
        failures: sql`case when ${stale} then 1 else ${loginFailure.failures} + 1 end`,
        // The time of the last failure moves when the password proves wrong, not before.
        lastFailedAt: sql`case when ${stale} then now() else ${loginFailure.lastFailedAt} end`,
      },
    })
    .returning({ failures: loginFailure.failures });
  return (row?.failures ?? 1) - 1;
}

/** A try the guard turned away never reached the password: it is not a failure. */
async function uncountTry(ctx: IdentityCtx, attempt: LoginAttempt): Promise<void> {
  await ctx.db
    .update(loginFailure)
    .set({ failures: sql`${loginFailure.failures} - 1` })
    .where(and(pairOf(ctx, attempt), sql`${loginFailure.failures} > 1`));
  await ctx.db.delete(loginFailure).where(and(pairOf(ctx, attempt), eq(loginFailure.failures, 1)));
}

/**
 * Before the password is checked: a pair that keeps failing waits out its delay (429, in
 * seconds), and an image code is required once the pair, the account or the address has failed
 * often enough. A code that comes unasked is checked too (the storefront shows it after a
 * failure). A try that passes stays counted as a failure until the password proves right.
 */
export async function guardLogin(ctx: IdentityCtx, attempt: LoginAttempt): Promise<void> {
  const state = await failureState(ctx, attempt);
  const spraying = (await spread(ctx)) >= LOGIN_GUARD.sprayAccounts;
  const pair = await countTry(ctx, attempt);
  try {
    const wait = delayAfter(pair) - state.pairIdle;
    if (wait > 0) throw tooMany(IDENTITY_MSG.loginDelay(wait));
    const account = state.account - state.pair + pair;
    const needed =
      pair >= LOGIN_GUARD.pairCaptchaAfter || account >= LOGIN_GUARD.accountCaptchaAfter || spraying;
    const given = attempt.imageCode?.trim();
    if (!needed && !given) return;
    if (!attempt.captchaId || !given) throw badRequest(IDENTITY_MSG.imageCodeRequired);
    await consumeImageCode(ctx.db, { siteId: attempt.siteId, captchaId: attempt.captchaId, answer: given });
  } catch (error) {
    await uncountTry(ctx, attempt);
    throw error;
  }
}

/**
 * A wrong password: the try guardLogin counted stays a failure, dated now. Alerts when the
 * address is spraying (failing on many accounts).
 */
export async function recordLoginFailure(ctx: IdentityCtx, attempt: LoginAttempt): Promise<void> {
  // Old rows go on the way (indexed); nothing else reads them.
  await ctx.db
    .delete(loginFailure)
    .where(lt(loginFailure.lastFailedAt, sql`now() - make_interval(secs => ${LOGIN_GUARD.windowSeconds})`));
  const [row] = await ctx.db
    .update(loginFailure)
    .set({ lastFailedAt: sql`now()` })
    .where(pairOf(ctx, attempt))
    .returning({ failures: loginFailure.failures });
  if (row?.failures !== 1) return;
  // A new account for this address: is it spraying?
  const accounts = await spread(ctx);
  if (accounts >= LOGIN_GUARD.sprayAccounts) {
    ctx.deps.alerts.loginSpray.inc();
    ctx.log?.warn(
      { ip: ctx.ip, accounts, siteId: attempt.siteId, windowSeconds: LOGIN_GUARD.windowSeconds },
      'login spraying: one address failing on many accounts',
    );
  }
}

/**
 * Forgets failures on an account: a right password forgets its own address's (other addresses
 * stay slowed); the owner proving the phone (find password) forgets every address's.
 */
export async function forgetLoginFailures(
  ctx: IdentityCtx,
  attempt: { siteId: number; account: string },
  scope: 'thisAddress' | 'everyAddress',
) {
  const account = and(eq(loginFailure.siteId, attempt.siteId), eq(loginFailure.account, attempt.account));
  await ctx.db
    .delete(loginFailure)
    .where(scope === 'thisAddress' ? and(account, eq(loginFailure.ip, ctx.ip)) : account);
}
