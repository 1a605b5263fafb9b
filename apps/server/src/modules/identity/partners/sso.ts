import { randomBytes } from 'node:crypto';
import {
  DEFAULT_ACTIVITY_CODE,
  ENCRYPTION,
  IDENTITY_MSG,
  isMobile,
  type LoginResult,
  MSG,
} from '@sitemall/contract';
import { AppError, failure } from '../../../lib/errors';
import { levelFromPartner, vipClaimOf } from '../../vip/vip.service';
import { hmacHex, openPartnerParams, partnerKeyOf, sameText, sealPartnerParams } from '../crypto';
import type { IdentityCtx } from '../deps';
import { memberOf, siteOf } from '../identity.service';
import {
  createMember,
  linkExternalId,
  type MemberRow,
  memberByExternalId,
  memberByPhone,
  startSession,
} from '../members';
import { useOnce } from '../nonces';
import { tooMany } from '../sms';

/** A partner login that failed: code 500, and for invited-only activities an authErrUrl. */
export class PartnerDenied extends AppError {
  constructor(
    msg: string,
    readonly authErrUrl?: string,
  ) {
    super(500, msg);
  }
}

const EXTERNAL_ID = /^[A-Za-z0-9_.@:-]{1,64}$/;
const PARTNER_TTL_SECONDS = (2 * ENCRYPTION.maxSkewMs) / 1000 + 60;
const PARTNER_LOGINS_PER_IP_MINUTE = 30;
export const wrongUserId = () => new PartnerDenied(`${MSG.wrongBankUserId}，请联系客服`);

async function gate(ctx: IdentityCtx) {
  const { allowed } = await ctx.deps.limiter.hit(`partner:ip:${ctx.ip}`, PARTNER_LOGINS_PER_IP_MINUTE, 60);
  if (!allowed) throw tooMany(IDENTITY_MSG.tooManyRequests);
}

/**
 * Logs in the member a partner's user maps to, namespaced by (site, partner, external id).
 * A first visit creates the member, joined to the site's member with the same phone when the
 * partner vouches for one.
 */
export async function partnerMember(
  ctx: IdentityCtx,
  input: {
    partner: string;
    externalId: unknown;
    phone?: unknown;
    vipLevel?: unknown;
    vipExpiresAt?: unknown;
  },
): Promise<LoginResult> {
  const siteId = siteOf(ctx).row.id;
  if (typeof input.externalId !== 'string' || !EXTERNAL_ID.test(input.externalId)) throw wrongUserId();
  const key = { siteId, partner: input.partner, externalId: input.externalId };
  let row: MemberRow | undefined = await memberByExternalId(ctx.db, key);
  if (!row) {
    const phone = typeof input.phone === 'string' && isMobile(input.phone) ? input.phone : undefined;
    row =
      (phone ? await memberByPhone(ctx.db, siteId, phone) : undefined) ??
      (await createMember(ctx.db, { siteId, phone })).row;
    await linkExternalId(ctx.db, { ...key, memberId: row.id });
    // A concurrent first login may have linked another member first: that link wins.
    row = (await memberByExternalId(ctx.db, key)) ?? row;
  }
  // The partner's VIP claim (issue 13): the member's level, until its end.
  await levelFromPartner(ctx.db, {
    siteId,
    memberId: row.id,
    claim: vipClaimOf(input.vipLevel, input.vipExpiresAt),
  });
  return startSession(ctx, row);
}

/** The VIP claim fields of a partner's encrypted parameters. */
const vipOf = (p: Record<string, unknown>) => ({ vipLevel: p.vipLevel, vipExpiresAt: p.vipExpiresAt });

/** Opens parameters a partner encrypted with the site's key for it; fresh and used once. */
async function openParams(ctx: IdentityCtx, partner: string, sealed: string) {
  const siteId = siteOf(ctx).row.id;
  const p = openPartnerParams(partnerKeyOf(ctx.deps.secrets.partnerKey, siteId, partner), sealed);
  if (!p || typeof p.n !== 'string' || typeof p.t !== 'number')
    throw new PartnerDenied(IDENTITY_MSG.partnerUnavailable);
  if (Math.abs(Date.now() - p.t) > ENCRYPTION.maxSkewMs)
    throw new PartnerDenied(IDENTITY_MSG.staleCiphertext);
  if (!(await useOnce(ctx.db, `${partner}:${siteId}:${p.n}`, PARTNER_TTL_SECONDS)))
    throw new PartnerDenied(IDENTITY_MSG.staleCiphertext);
  return p;
}

/** Bank ticket login (identityApi.haersLogin): the bank exchanges the ticket; each works once. */
export async function haersLogin(ctx: IdentityCtx, input: { ticket: string }) {
  const siteId = siteOf(ctx).row.id;
  await gate(ctx);
  const user = await ctx.deps.partners.bank.exchangeTicket(siteId, input.ticket);
  if (!user) throw new PartnerDenied(IDENTITY_MSG.partnerUnavailable);
  if (!(await useOnce(ctx.db, `haers:${siteId}:${user.ticketId}`, 24 * 3600)))
    throw new PartnerDenied(IDENTITY_MSG.partnerUnavailable);
  return partnerMember(ctx, {
    partner: 'haers',
    externalId: user.userId,
    phone: user.phone,
    vipLevel: user.vipLevel,
    vipExpiresAt: user.vipExpiresAt,
  });
}

/** Phone + customer number (identityApi.normLogin). */
export async function normLogin(ctx: IdentityCtx, input: { authLoginParams: string }) {
  await gate(ctx);
  const p = await openParams(ctx, 'norm', input.authLoginParams);
  if (typeof p.phone !== 'string' || !isMobile(p.phone)) throw new PartnerDenied(IDENTITY_MSG.badPhone);
  return partnerMember(ctx, { partner: 'norm', externalId: p.cstNo, phone: p.phone, ...vipOf(p) });
}

/** Encrypted-parameter bank login (identityApi.hrLogin). */
export async function hrLogin(ctx: IdentityCtx, input: { loginParams: string }) {
  await gate(ctx);
  const p = await openParams(ctx, 'hr', input.loginParams);
  return partnerMember(ctx, { partner: 'hr', externalId: p.userId, phone: p.phone, ...vipOf(p) });
}

/** Activity login: only users the partner says are invited (section 6: code 500 + authErrUrl). */
export async function activityLogin(ctx: IdentityCtx, input: { loginParams: string; activityCode?: string }) {
  const siteId = siteOf(ctx).row.id;
  await gate(ctx);
  const p = await openParams(ctx, 'activity', input.loginParams);
  const activityCode = input.activityCode || DEFAULT_ACTIVITY_CODE;
  if (p.activityCode !== activityCode || p.invited !== true) {
    throw new PartnerDenied(MSG.invitedOnly, `/shoppingmall/home?siteId=${siteId}&authErr=invited`);
  }
  return partnerMember(ctx, { partner: 'activity', externalId: p.userId, phone: p.phone, ...vipOf(p) });
}

/** Marketing login (identityApi.marketingLogin). */
export async function marketingLogin(ctx: IdentityCtx, input: { loginParams: string }) {
  await gate(ctx);
  const p = await openParams(ctx, 'marketing', input.loginParams);
  return partnerMember(ctx, { partner: 'marketing', externalId: p.userId, phone: p.phone, ...vipOf(p) });
}

/** Auto login by a signed link: GET with siteId, userId, timestamp, nonce, sign. */
export async function autoLogin(
  ctx: IdentityCtx,
  input: { userId: string; timestamp: number; nonce: string; sign: string },
) {
  const siteId = siteOf(ctx).row.id;
  await gate(ctx);
  const expected = hmacHex(
    partnerKeyOf(ctx.deps.secrets.partnerKey, siteId, 'auto'),
    `${siteId}&${input.userId}&${input.timestamp}&${input.nonce}`,
  );
  if (!sameText(expected, input.sign.toLowerCase())) throw failure(IDENTITY_MSG.partnerUnavailable);
  if (Math.abs(Date.now() - input.timestamp) > ENCRYPTION.maxSkewMs)
    throw failure(IDENTITY_MSG.staleCiphertext);
  if (!(await useOnce(ctx.db, `auto:${siteId}:${input.nonce}`, PARTNER_TTL_SECONDS)))
    throw failure(IDENTITY_MSG.staleCiphertext);
  return partnerMember(ctx, { partner: 'auto', externalId: input.userId });
}

/** DingTalk H5 micro-app login; only where the site's dingtalkAuthSwitch is 1. */
export async function dingtalkLogin(ctx: IdentityCtx, input: { corpId: string; authCode: string }) {
  const site = siteOf(ctx);
  if (site.row.dingtalkAuthSwitch !== 1) throw new PartnerDenied(IDENTITY_MSG.dingtalkOff);
  await gate(ctx);
  const user = await ctx.deps.partners.dingtalk.userByAuthCode(input.corpId, input.authCode);
  if (!user || user.corpId !== input.corpId) throw new PartnerDenied(IDENTITY_MSG.partnerUnavailable);
  if (!(await useOnce(ctx.db, `dingtalk:${user.codeId}`, 24 * 3600)))
    throw new PartnerDenied(IDENTITY_MSG.partnerUnavailable);
  if (!EXTERNAL_ID.test(user.userId)) throw wrongUserId();
  return partnerMember(ctx, {
    partner: 'dingtalk',
    externalId: `${user.corpId}:${user.userId}`,
    phone: user.mobile,
  });
}

/**
 * Gateway authorization: a short, single-use code that lets a partner gateway (tickets,
 * vouchers ...) act for the logged-in member, sealed with that gateway's key for this site.
 */
export async function gatewayAuth(ctx: IdentityCtx, input: { gateway: string }) {
  const me = memberOf(ctx);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(input.gateway)) throw failure(IDENTITY_MSG.partnerUnavailable);
  const expiresIn = 300;
  const authCode = sealPartnerParams(
    partnerKeyOf(ctx.deps.secrets.partnerKey, me.siteId, `gateway:${input.gateway}`),
    {
      siteId: me.siteId,
      memberId: me.id,
      e: Date.now() + expiresIn * 1000,
      n: randomBytes(12).toString('base64url'),
    },
  );
  return { authCode, expiresIn };
}
