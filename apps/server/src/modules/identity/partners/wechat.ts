import { createHash, randomBytes } from 'node:crypto';
import { IDENTITY_MSG, isMobile, type LoginResult, type LoginUser } from '@sitemall/contract';
import { badRequest, failure } from '../../../lib/errors';
import { hmacHex, partnerKeyOf, sameText } from '../crypto';
import type { IdentityCtx } from '../deps';
import { bindPhoneToMember, memberOf, siteOf } from '../identity.service';
import {
  createMember,
  linkExternalId,
  loginUser,
  memberByExternalId,
  memberByPhone,
  startSession,
} from '../members';
import { useOnce } from '../nonces';
import { consumeSmsCode } from '../sms';
import { PartnerDenied } from './sso';

/**
 * Messaging-app (WeChat) identity. An open id alone is no credential (anyone may learn one),
 * so getOpenId hands back a short-lived server signature over (site, open id) and every later
 * call by open id must show it.
 */
const PROOF_SECONDS = 600;
const PARTNER = 'wechat';
const OPEN_ID = /^[A-Za-z0-9_-]{1,64}$/;

const proofKey = (ctx: IdentityCtx, siteId: number) =>
  partnerKeyOf(ctx.deps.secrets.partnerKey, siteId, 'openid-proof');

function signOpenId(ctx: IdentityCtx, siteId: number, openId: string) {
  const until = Date.now() + PROOF_SECONDS * 1000;
  return `${until}.${hmacHex(proofKey(ctx, siteId), `${siteId}.${openId}.${until}`)}`;
}

function verifyOpenId(ctx: IdentityCtx, input: { openId: string; openIdSign: string }): string {
  const siteId = siteOf(ctx).row.id;
  const [until, mac] = input.openIdSign.split('.');
  const ok =
    until !== undefined &&
    mac !== undefined &&
    Number(until) > Date.now() &&
    sameText(mac, hmacHex(proofKey(ctx, siteId), `${siteId}.${input.openId}.${until}`));
  if (!ok) throw failure(IDENTITY_MSG.openIdProof);
  return input.openId;
}

async function exchangeCode(ctx: IdentityCtx, code: string) {
  const siteId = siteOf(ctx).row.id;
  const result = await ctx.deps.partners.wechat.openIdByCode(siteId, code);
  if (!result || !OPEN_ID.test(result.openId)) throw new PartnerDenied(IDENTITY_MSG.partnerUnavailable);
  if (!(await useOnce(ctx.db, `wechat:${siteId}:${result.codeId}`, 24 * 3600)))
    throw new PartnerDenied(IDENTITY_MSG.partnerUnavailable);
  return result.openId;
}

export const wxAppId = (ctx: IdentityCtx) => ({
  appId: ctx.deps.partners.wechat.appIdOf(siteOf(ctx).row.id),
});

/** JS-SDK config: the messaging app's signature over ticket, nonce, time and page URL. */
export async function wxConfig(ctx: IdentityCtx, input: { url: string }) {
  const siteId = siteOf(ctx).row.id;
  if (!/^https?:\/\//.test(input.url)) throw badRequest('页面地址不正确');
  const ticket = await ctx.deps.partners.wechat.jsapiTicket(siteId);
  const nonceStr = randomBytes(8).toString('hex');
  const timestamp = Math.floor(Date.now() / 1000);
  const url = input.url.split('#')[0] ?? '';
  const signature = createHash('sha1')
    .update(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`)
    .digest('hex');
  return { appId: ctx.deps.partners.wechat.appIdOf(siteId), timestamp, nonceStr, signature };
}

/** OAuth code → open id (with its proof) and whether a member is bound to it. */
export async function getOpenId(ctx: IdentityCtx, input: { code: string }) {
  const siteId = siteOf(ctx).row.id;
  const openId = await exchangeCode(ctx, input.code);
  const bound =
    (await memberByExternalId(ctx.db, { siteId, partner: PARTNER, externalId: openId })) !== undefined;
  return { openId, openIdSign: signOpenId(ctx, siteId, openId), bound };
}

export async function checkBoundUser(ctx: IdentityCtx, input: { openId: string; openIdSign: string }) {
  const siteId = siteOf(ctx).row.id;
  const openId = verifyOpenId(ctx, input);
  return {
    bound: (await memberByExternalId(ctx.db, { siteId, partner: PARTNER, externalId: openId })) !== undefined,
  };
}

/** Messaging-app open id login: a token for the member bound to the open id. */
export async function tokenByOpenId(ctx: IdentityCtx, input: { openId: string; openIdSign: string }) {
  const siteId = siteOf(ctx).row.id;
  const openId = verifyOpenId(ctx, input);
  const row = await memberByExternalId(ctx.db, { siteId, partner: PARTNER, externalId: openId });
  if (!row) throw failure(IDENTITY_MSG.notBound);
  return startSession(ctx, row);
}

/** The logged-in member's open id for messaging-app payment. */
export async function payOpenId(ctx: IdentityCtx, input: { code: string }) {
  const me = memberOf(ctx);
  const openId = await exchangeCode(ctx, input.code);
  await linkExternalId(ctx.db, {
    siteId: me.siteId,
    partner: 'wechat-pay',
    externalId: openId,
    memberId: me.id,
  });
  return { openId };
}

/**
 * Bind mobile. Logged in: sets the member's phone (and binds an open id if one is shown).
 * Not logged in: an open id with its proof plus the phone's SMS code binds the open id to the
 * site's member with that phone (created if new) and logs in.
 */
export async function bindMobile(
  ctx: IdentityCtx,
  input: { phone: string; code: string; openId?: string; openIdSign?: string },
): Promise<LoginResult | { user: LoginUser }> {
  const siteId = siteOf(ctx).row.id;
  const openId =
    input.openId && input.openIdSign
      ? verifyOpenId(ctx, { openId: input.openId, openIdSign: input.openIdSign })
      : undefined;
  if (ctx.member) {
    const row = await bindPhoneToMember(ctx, input);
    if (openId)
      await linkExternalId(ctx.db, { siteId, partner: PARTNER, externalId: openId, memberId: row.id });
    return { user: loginUser(row) };
  }
  if (!openId) memberOf(ctx);
  if (!isMobile(input.phone)) throw badRequest(IDENTITY_MSG.badPhone);
  await consumeSmsCode(ctx, { siteId, phone: input.phone, purpose: 'bindMobile', code: input.code });
  const row =
    (await memberByPhone(ctx.db, siteId, input.phone)) ??
    (await createMember(ctx.db, { siteId, phone: input.phone })).row;
  await linkExternalId(ctx.db, { siteId, partner: PARTNER, externalId: openId as string, memberId: row.id });
  const bound = await memberByExternalId(ctx.db, { siteId, partner: PARTNER, externalId: openId as string });
  if (bound && bound.id !== row.id) throw failure(IDENTITY_MSG.phoneBoundElsewhere);
  return startSession(ctx, row);
}
