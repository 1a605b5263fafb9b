import {
  IDENTITY_MSG,
  isMobile,
  isValidPassword,
  type LoginResult,
  type LoginUser,
  type MemberInfo,
  MSG,
  type SmsPurpose,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import type { Member, RequestContext } from '../../context';
import { badRequest, failure, tokenInvalid, unauthorized } from '../../lib/errors';
import type { Site } from '../site/site.service';
import { siteNotFound } from '../site/site.service';
import { consumeImageCode } from './captcha';
import { decryptSecret } from './crypto';
import type { IdentityCtx } from './deps';
import { member } from './identity.tables';
import { forgetLoginFailures, guardLogin, type LoginAttempt, recordLoginFailure } from './login-guard';
import {
  createMember,
  loginUser,
  type MemberRow,
  memberById,
  memberByPhone,
  memberByUsername,
  memberInfo,
  startSession,
  USERNAME_PATTERN,
} from './members';
import { hashPassword, verifyPassword } from './passwords';
import { consumeSmsCode, sendSmsCode, tooMany } from './sms';

/** Failed old-password attempts of a logged-in member in the window, then a short backoff. */
export const PASSWORD_FAILURES = 5;
export const PASSWORD_BACKOFF_SECONDS = 300;
/** Login-type calls per client IP per minute by default (every outcome counts; LOGIN_LIMIT_PER_IP). */
export const LOGINS_PER_IP_MINUTE = 30;

export function siteOf(ctx: IdentityCtx): Site {
  if (!ctx.site) throw siteNotFound();
  return ctx.site;
}

export function memberOf(ctx: IdentityCtx): Member {
  if (!ctx.member) throw unauthorized();
  return ctx.member;
}

const requirePhone = (phone: string) => {
  if (!isMobile(phone)) throw badRequest(IDENTITY_MSG.badPhone);
};

async function ipGate(ctx: IdentityCtx) {
  const { allowed } = await ctx.deps.limiter.hit(`login:ip:${ctx.ip}`, ctx.deps.loginsPerIpMinute, 60);
  if (!allowed) throw tooMany(IDENTITY_MSG.tooManyRequests);
}

/**
 * Guessing the old password needs the member's session, so here the member is backed off
 * (password logins are guarded per address instead: login-guard.ts).
 */
async function backoffGate(ctx: IdentityCtx, key: string) {
  const { count, retryAfter } = await ctx.deps.limiter.peek(key);
  if (count >= PASSWORD_FAILURES) throw tooMany(IDENTITY_MSG.tooManyAttempts(retryAfter));
}
const recordFailure = (ctx: IdentityCtx, key: string) =>
  ctx.deps.limiter.hit(key, PASSWORD_FAILURES, PASSWORD_BACKOFF_SECONDS);

const decrypt = (ctx: IdentityCtx, ciphertext: string) =>
  decryptSecret(ctx.db, ctx.deps.secrets.rsaPrivateKey, ciphertext);

/** Section 5's rules for a new password and its confirmation, with its messages. */
function checkNewPassword(newPsw1: string, newPsw2: string) {
  if (!newPsw1) throw badRequest(MSG.newPasswordRequired);
  if (!newPsw2) throw badRequest(MSG.confirmPasswordRequired);
  if (newPsw1 !== newPsw2) throw badRequest(MSG.passwordsDiffer);
  if (!isValidPassword(newPsw1)) throw badRequest(MSG.passwordRule);
}

// ----- SMS ------------------------------------------------------------------------------------

export async function sendCode(
  ctx: IdentityCtx,
  input: { phone: string; purpose?: SmsPurpose; captchaId: string; imageCode: string },
) {
  const site = siteOf(ctx);
  requirePhone(input.phone);
  await consumeImageCode(ctx.db, {
    siteId: site.row.id,
    captchaId: input.captchaId,
    answer: input.imageCode,
  });
  return sendSmsCode(ctx, {
    siteId: site.row.id,
    siteName: site.row.siteName,
    phone: input.phone,
    purpose: input.purpose ?? 'login',
  });
}

/** SMS code login (way 2). A new phone becomes a member where the site allows registration. */
export async function smsLogin(
  ctx: IdentityCtx,
  input: { phone: string; code: string },
): Promise<LoginResult> {
  const site = siteOf(ctx);
  await ipGate(ctx);
  requirePhone(input.phone);
  await consumeSmsCode(ctx, { siteId: site.row.id, phone: input.phone, purpose: 'login', code: input.code });
  let row = await memberByPhone(ctx.db, site.row.id, input.phone);
  if (!row) {
    // The caller has just proved they hold the phone, so this answer leaks nothing.
    if (site.row.configJson.showRegister !== 'Y') throw failure(IDENTITY_MSG.phoneNotRegistered);
    row = (await createMember(ctx.db, { siteId: site.row.id, phone: input.phone })).row;
  }
  return startSession(ctx, row);
}

// ----- Password and account ------------------------------------------------------------------

/** An account as the login log shows it: enough to follow an attack, not the whole number. */
const masked = (account: string) => account.replace(/^(p:\d{3})\d{4}/, '$1****');

async function passwordLogin(
  ctx: IdentityCtx,
  input: {
    lookup: () => Promise<MemberRow | undefined>;
    account: string;
    password: string;
    wrong: string;
    proof: ImageCodeProof;
  },
): Promise<LoginResult> {
  const site = siteOf(ctx);
  await ipGate(ctx);
  const attempt = { siteId: site.row.id, account: input.account, ...input.proof };
  // Decrypted first: a replayed or malformed ciphertext is no password guess, and the guard
  // counts every try it lets through as a failure until the password proves right.
  const password = await decrypt(ctx, input.password);
  await guardLogin(ctx, attempt);
  const row = await input.lookup();
  // Unknown account and wrong password cost the same and answer the same.
  const matches = await verifyPassword(row?.passwordHash, password);
  const log = { siteId: site.row.id, account: masked(input.account), ip: ctx.ip };
  if (!row || !matches) {
    await recordLoginFailure(ctx, attempt);
    ctx.log?.info({ ...log, outcome: 'failed' }, 'login');
    throw failure(input.wrong);
  }
  await forgetLoginFailures(ctx, attempt, 'thisAddress');
  ctx.log?.info({ ...log, outcome: 'ok', memberId: row.id }, 'login');
  return startSession(ctx, row);
}

/** The image code a password login may carry (asked for by the login guard). */
type ImageCodeProof = Pick<LoginAttempt, 'captchaId' | 'imageCode'>;

/** Password login (way 1): phone + password (+ an image code when the guard asks). */
export function pwdLogin(ctx: IdentityCtx, input: { phone: string; password: string } & ImageCodeProof) {
  const siteId = siteOf(ctx).row.id;
  requirePhone(input.phone);
  return passwordLogin(ctx, {
    lookup: () => memberByPhone(ctx.db, siteId, input.phone),
    account: `p:${input.phone}`,
    password: input.password,
    wrong: IDENTITY_MSG.wrongPhoneOrPassword,
    proof: input,
  });
}

/** Account login (way 3): username + password (+ an image code when the guard asks). */
export function accountLogin(
  ctx: IdentityCtx,
  input: { username: string; password: string } & ImageCodeProof,
) {
  const siteId = siteOf(ctx).row.id;
  if (!USERNAME_PATTERN.test(input.username)) throw badRequest(IDENTITY_MSG.badUsername);
  return passwordLogin(ctx, {
    lookup: () => memberByUsername(ctx.db, siteId, input.username),
    account: `u:${input.username.toLowerCase()}`,
    password: input.password,
    wrong: IDENTITY_MSG.wrongAccountOrPassword,
    proof: input,
  });
}

/**
 * A look-up by phone answers only a person: one who solved an image code (spent here), or the
 * logged-in member asking about their own phone, which they proved by SMS.
 */
export async function requirePerson(
  ctx: RequestContext,
  input: { siteId: number; phone?: string } & ImageCodeProof,
): Promise<void> {
  if (ctx.member && (!input.phone || ctx.member.phone === input.phone)) return;
  const answer = input.imageCode?.trim();
  if (!input.captchaId || !answer) throw badRequest(IDENTITY_MSG.imageCodeRequired);
  await consumeImageCode(ctx.db, { siteId: input.siteId, captchaId: input.captchaId, answer });
}

/** Registration, only where the site shows it (configJson.showRegister = 'Y'). */
export async function register(
  ctx: IdentityCtx,
  input: { phone: string; code: string; password: string; username?: string },
): Promise<LoginResult> {
  const site = siteOf(ctx);
  if (site.row.configJson.showRegister !== 'Y') throw failure(IDENTITY_MSG.registerClosed);
  await ipGate(ctx);
  requirePhone(input.phone);
  if (input.username !== undefined && input.username !== '' && !USERNAME_PATTERN.test(input.username))
    throw badRequest(IDENTITY_MSG.badUsername);
  const password = await decrypt(ctx, input.password);
  if (!isValidPassword(password)) throw badRequest(MSG.passwordRule);
  await consumeSmsCode(ctx, {
    siteId: site.row.id,
    phone: input.phone,
    purpose: 'register',
    code: input.code,
  });
  if (await memberByPhone(ctx.db, site.row.id, input.phone)) throw failure(IDENTITY_MSG.phoneRegistered);
  if (input.username && (await memberByUsername(ctx.db, site.row.id, input.username)))
    throw failure(IDENTITY_MSG.usernameTaken);
  const { row, created } = await createMember(ctx.db, {
    siteId: site.row.id,
    phone: input.phone,
    username: input.username || null,
    passwordHash: await hashPassword(password),
  });
  if (!created) throw failure(IDENTITY_MSG.phoneRegistered);
  return startSession(ctx, row);
}

/**
 * Is-registered check: it tells whether a phone is a member of this site, so only to a person
 * (an image code per question, or the member about their own phone), and per address limited
 * by the route. A known and an unknown phone answer the same shape.
 */
export async function isRegistered(ctx: IdentityCtx, input: { phone: string } & ImageCodeProof) {
  const site = siteOf(ctx);
  requirePhone(input.phone);
  await requirePerson(ctx, { siteId: site.row.id, ...input });
  return { registered: (await memberByPhone(ctx.db, site.row.id, input.phone)) !== undefined };
}

/** Find password: a new password set with an SMS code; every session of the member ends. */
export async function findPassword(
  ctx: IdentityCtx,
  input: { phone: string; code: string; newPsw1: string; newPsw2: string },
): Promise<void> {
  const site = siteOf(ctx);
  await ipGate(ctx);
  requirePhone(input.phone);
  const newPsw1 = await decrypt(ctx, input.newPsw1);
  const newPsw2 = await decrypt(ctx, input.newPsw2);
  checkNewPassword(newPsw1, newPsw2);
  await consumeSmsCode(ctx, {
    siteId: site.row.id,
    phone: input.phone,
    purpose: 'findPassword',
    code: input.code,
  });
  const row = await memberByPhone(ctx.db, site.row.id, input.phone);
  if (!row) throw failure(IDENTITY_MSG.phoneNotRegistered);
  await setPassword(ctx, row.id, newPsw1);
  await ctx.deps.sessions.revokeMember(ctx.db, row.id, 'password');
  await forgetLoginFailures(ctx, { siteId: site.row.id, account: `p:${input.phone}` }, 'everyAddress');
}

async function setPassword(ctx: IdentityCtx, memberId: number, password: string) {
  await ctx.db
    .update(member)
    .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
    .where(eq(member.id, memberId));
}

/**
 * Change password (section 5): the three fields arrive encrypted; the checks run in the order
 * the dialog shows them, with its messages. The member's other sessions end; this one stays.
 */
export async function uptPassword(
  ctx: IdentityCtx,
  input: { oldPsw?: string; newPsw1?: string; newPsw2?: string },
): Promise<void> {
  const me = memberOf(ctx);
  if (!input.oldPsw) throw badRequest(MSG.oldPasswordRequired);
  if (!input.newPsw1) throw badRequest(MSG.newPasswordRequired);
  if (!input.newPsw2) throw badRequest(MSG.confirmPasswordRequired);
  const oldPsw = await decrypt(ctx, input.oldPsw);
  const newPsw1 = await decrypt(ctx, input.newPsw1);
  const newPsw2 = await decrypt(ctx, input.newPsw2);
  if (!oldPsw) throw badRequest(MSG.oldPasswordRequired);
  checkNewPassword(newPsw1, newPsw2);

  const key = `pwdfail:${me.siteId}:m:${me.id}`;
  await backoffGate(ctx, key);
  const row = await memberById(ctx, me.siteId, me.id);
  if (!row) throw tokenInvalid();
  if (!(await verifyPassword(row.passwordHash, oldPsw))) {
    await recordFailure(ctx, key);
    throw failure(IDENTITY_MSG.wrongOldPassword);
  }
  if (oldPsw === newPsw1) throw badRequest(IDENTITY_MSG.samePassword);
  await ctx.deps.limiter.reset(key);
  await setPassword(ctx, row.id, newPsw1);
  await ctx.deps.sessions.revokeMember(ctx.db, row.id, 'password', ctx.token);
}

// ----- Session ------------------------------------------------------------------------------

/** checkToken: 200 with the member for a live token of this site; else 401 / 416. */
export async function checkToken(
  ctx: IdentityCtx,
  input: { token?: string; siteId: number },
): Promise<{ valid: true; user: LoginUser }> {
  siteOf(ctx);
  const token = input.token || ctx.token;
  if (!token) throw unauthorized();
  const check = await ctx.deps.sessions.resolve(ctx.db, token, input.siteId);
  if (check.status === 'unknown') throw unauthorized();
  if (check.status === 'invalid') throw tokenInvalid();
  return { valid: true, user: loginUser(check.member) };
}

/** Exit: the token stops working on the server at once. */
export async function logout(ctx: IdentityCtx): Promise<void> {
  memberOf(ctx);
  if (ctx.token) await ctx.deps.sessions.revokeToken(ctx.db, ctx.token, 'logout');
}

/** Personal center data (points come with the points issue). */
export async function personalInfo(ctx: IdentityCtx): Promise<MemberInfo> {
  const me = memberOf(ctx);
  const row = await memberById(ctx, me.siteId, me.id);
  if (!row) throw tokenInvalid();
  return memberInfo(row);
}

/** Phone check: does this phone belong to the logged-in member (before a sensitive step)? */
export async function phoneCheck(ctx: IdentityCtx, input: { phone: string }) {
  const me = memberOf(ctx);
  requirePhone(input.phone);
  return { matches: me.phone === input.phone };
}

/** A code to the logged-in member's own phone (purpose verify), no image code needed. */
export async function sendVerifyCode(ctx: IdentityCtx) {
  const me = memberOf(ctx);
  const site = siteOf(ctx);
  if (!me.phone) throw failure(IDENTITY_MSG.notBound);
  return sendSmsCode(ctx, {
    siteId: me.siteId,
    siteName: site.row.siteName,
    phone: me.phone,
    purpose: 'verify',
  });
}

export async function validateCode(ctx: IdentityCtx, input: { code: string }) {
  const me = memberOf(ctx);
  if (!me.phone) throw failure(IDENTITY_MSG.notBound);
  await consumeSmsCode(ctx, { siteId: me.siteId, phone: me.phone, purpose: 'verify', code: input.code });
  return { valid: true };
}

/** Sets the logged-in member's phone after proof by SMS code. */
export async function bindPhoneToMember(
  ctx: IdentityCtx,
  input: { phone: string; code: string },
): Promise<MemberRow> {
  const me = memberOf(ctx);
  requirePhone(input.phone);
  await consumeSmsCode(ctx, {
    siteId: me.siteId,
    phone: input.phone,
    purpose: 'bindMobile',
    code: input.code,
  });
  const owner = await memberByPhone(ctx.db, me.siteId, input.phone);
  if (owner && owner.id !== me.id) throw failure(IDENTITY_MSG.phoneBoundElsewhere);
  const [row] = await ctx.db
    .update(member)
    .set({ phone: input.phone, updatedAt: new Date() })
    .where(and(eq(member.id, me.id), eq(member.siteId, me.siteId)))
    .returning()
    .catch(() => {
      throw failure(IDENTITY_MSG.phoneBoundElsewhere);
    });
  if (!row) throw tokenInvalid();
  await ctx.deps.sessions.memberChanged(ctx.db, me.id);
  return row;
}
