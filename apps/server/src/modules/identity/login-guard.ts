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

/**
 * Before the password is checked: a pair that keeps failing waits out its delay (429, in
 * seconds), and an image code is required once the pair, the account or the address has failed
 * often enough. A code that comes unasked is checked too (the storefront shows it after a
 * failure).
 */
export async function guardLogin(ctx: IdentityCtx, attempt: LoginAttempt): Promise<void> {
  const state = await failureState(ctx, attempt);
  const wait = delayAfter(state.pair) - state.pairIdle;
  if (wait > 0) throw tooMany(IDENTITY_MSG.loginDelay(wait));
  const needed =
    state.pair >= LOGIN_GUARD.pairCaptchaAfter ||
    state.account >= LOGIN_GUARD.accountCaptchaAfter ||
    (await spread(ctx)) >= LOGIN_GUARD.sprayAccounts;
  const given = attempt.imageCode?.trim();
  if (!needed && !given) return;
  if (!attempt.captchaId || !given) throw badRequest(IDENTITY_MSG.imageCodeRequired);
  await consumeImageCode(ctx.db, { siteId: attempt.siteId, captchaId: attempt.captchaId, answer: given });
}

/** Counts a failed password for the pair; alerts when the address is spraying accounts. */
export async function recordLoginFailure(ctx: IdentityCtx, attempt: LoginAttempt): Promise<void> {
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
        lastFailedAt: sql`now()`,
      },
    })
    .returning({ failures: loginFailure.failures });
  // Old rows go on the way (indexed); nothing else reads them.
  await ctx.db
    .delete(loginFailure)
    .where(lt(loginFailure.lastFailedAt, sql`now() - make_interval(secs => ${LOGIN_GUARD.windowSeconds})`));
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
