import { randomInt } from 'node:crypto';
import { IDENTITY_MSG, SMS_CODE_TTL_SECONDS, SMS_RESEND_SECONDS, type SmsPurpose } from '@sitemall/contract';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { AppError, badRequest, failure } from '../../lib/errors';
import { hmacHex } from './crypto';
import type { IdentityCtx } from './deps';
import { smsCode } from './identity.tables';

/** The SMS gateway adapter: the simulator by default, a real provider by configuration. */
export interface SmsProvider {
  send(message: { siteId: number; phone: string; text: string }): Promise<void>;
}

/** Guesses allowed against one code before it is spent. */
export const SMS_MAX_ATTEMPTS = 5;
/** Per phone (across sites: SMS bombing targets a number) and per client IP. */
export const SMS_PER_PHONE_HOUR = 5;
export const SMS_PER_PHONE_DAY = 10;
export const SMS_PER_IP_HOUR = 20;

const CODE_FORMAT = /^\d{6}$/;
export const tooMany = (msg: string) => new AppError(429, msg);

const codeHash = (
  ctx: IdentityCtx,
  input: { siteId: number; phone: string; purpose: string; code: string },
) =>
  hmacHex(ctx.deps.secrets.partnerKey, `sms:${input.siteId}:${input.phone}:${input.purpose}:${input.code}`);

/**
 * Sends a 6-digit code from a CSPRNG, valid 5 minutes, bound to (site, phone, purpose). A
 * new code replaces the previous one; the 60-second resend rule is one conditional upsert, so
 * it holds under concurrent requests and across processes.
 */
export async function sendSmsCode(
  ctx: IdentityCtx,
  input: { siteId: number; siteName: string; phone: string; purpose: SmsPurpose },
): Promise<{ resendAfter: number }> {
  const { limiter } = ctx.deps;
  const ip = await limiter.hit(`sms:ip:${ctx.ip}`, SMS_PER_IP_HOUR, 3600);
  if (!ip.allowed) throw tooMany(IDENTITY_MSG.smsLimit(ip.retryAfter));
  const hour = await limiter.peek(`sms:phone:h:${input.phone}`);
  const day = await limiter.peek(`sms:phone:d:${input.phone}`);
  // The message names the wait of the cap that stops the code (the daily one when both do).
  if (day.count >= SMS_PER_PHONE_DAY) throw tooMany(IDENTITY_MSG.smsLimit(day.retryAfter));
  if (hour.count >= SMS_PER_PHONE_HOUR) throw tooMany(IDENTITY_MSG.smsLimit(hour.retryAfter));

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const values = {
    siteId: input.siteId,
    phone: input.phone,
    purpose: input.purpose,
    codeHash: codeHash(ctx, { ...input, code }),
    createdAt: sql`now()`,
    expiresAt: sql`now() + make_interval(secs => ${SMS_CODE_TTL_SECONDS})`,
    attempts: 0,
    consumedAt: null,
  };
  const { siteId: _s, phone: _p, purpose: _u, ...replace } = values;
  const sent = await ctx.db
    .insert(smsCode)
    .values(values)
    .onConflictDoUpdate({
      target: [smsCode.siteId, smsCode.phone, smsCode.purpose],
      set: replace,
      setWhere: lt(smsCode.createdAt, sql`now() - make_interval(secs => ${SMS_RESEND_SECONDS})`),
    })
    .returning({ phone: smsCode.phone });
  if (sent.length === 0) {
    const [row] = await ctx.db
      .select({
        wait: sql<number>`ceil(extract(epoch from (${smsCode.createdAt} + make_interval(secs => ${SMS_RESEND_SECONDS}) - now())))::int`,
      })
      .from(smsCode)
      .where(
        and(
          eq(smsCode.siteId, input.siteId),
          eq(smsCode.phone, input.phone),
          eq(smsCode.purpose, input.purpose),
        ),
      );
    throw tooMany(IDENTITY_MSG.resendTooSoon(Math.max(1, row?.wait ?? SMS_RESEND_SECONDS)));
  }
  await limiter.hit(`sms:phone:h:${input.phone}`, SMS_PER_PHONE_HOUR, 3600);
  await limiter.hit(`sms:phone:d:${input.phone}`, SMS_PER_PHONE_DAY, 86_400);
  await ctx.deps.sms.send({
    siteId: input.siteId,
    phone: input.phone,
    text: `【${input.siteName}】您的验证码为${code}，${SMS_CODE_TTL_SECONDS / 60}分钟内有效，请勿泄露给他人。`,
  });
  return { resendAfter: SMS_RESEND_SECONDS };
}

/**
 * Spends a code: one statement counts the attempt and, when the code matches, marks it used.
 * The row lock makes concurrent requests with one code succeed exactly once.
 */
export async function consumeSmsCode(
  ctx: IdentityCtx,
  input: { siteId: number; phone: string; purpose: SmsPurpose; code: string },
): Promise<void> {
  if (!CODE_FORMAT.test(input.code)) throw badRequest(IDENTITY_MSG.badCodeFormat);
  const hash = codeHash(ctx, input);
  const where = and(
    eq(smsCode.siteId, input.siteId),
    eq(smsCode.phone, input.phone),
    eq(smsCode.purpose, input.purpose),
  );
  const [row] = await ctx.db
    .update(smsCode)
    .set({
      attempts: sql`${smsCode.attempts} + 1`,
      consumedAt: sql`case when ${smsCode.codeHash} = ${hash} then now() else null end`,
    })
    .where(
      and(
        where,
        isNull(smsCode.consumedAt),
        sql`${smsCode.expiresAt} > now()`,
        lt(smsCode.attempts, SMS_MAX_ATTEMPTS),
      ),
    )
    .returning({ consumedAt: smsCode.consumedAt, attempts: smsCode.attempts });
  if (row?.consumedAt) return;
  if (!row) {
    const [current] = await ctx.db
      .select({ attempts: smsCode.attempts, consumedAt: smsCode.consumedAt })
      .from(smsCode)
      .where(where);
    if (current && !current.consumedAt && current.attempts >= SMS_MAX_ATTEMPTS)
      throw failure(IDENTITY_MSG.codeAttemptsExceeded);
    throw failure(IDENTITY_MSG.codeExpired);
  }
  throw failure(
    row.attempts >= SMS_MAX_ATTEMPTS ? IDENTITY_MSG.codeAttemptsExceeded : IDENTITY_MSG.wrongCode,
  );
}
