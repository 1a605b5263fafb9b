import {
  CODE,
  IDENTITY_MSG,
  identityApi,
  type MemberInfo,
  type PartnerLoginResult,
  type SmsPurpose,
} from '@sitemall/contract';
import { ApiError, call } from '../../api/client.ts';
import type { Payload } from '../../api/request.ts';
import { encryptFields, forgetServerKey } from './crypto.ts';
import { PARTNER_LOGINS, type PartnerEntry } from './partner.ts';

/**
 * The identity calls of the storefront (server: apps/server/src/modules/identity). Each
 * resolves with the answer's data; a refusal rejects with the one `ApiError`, whose message
 * the forms show.
 */

/** Ways in do not bounce to login on 401/416: they are the login. */
const quiet = { unReplaceLogin: true, repeat: true } as const;

/** An unreadable ciphertext may mean a rotated key: the next try fetches the key again. */
async function withSecret<T>(sent: Promise<T>): Promise<T> {
  try {
    return await sent;
  } catch (error) {
    if (error instanceof ApiError && error.message === IDENTITY_MSG.badCiphertext) forgetServerKey();
    throw error;
  }
}

export const sendSmsCode = (input: {
  siteId: string;
  phone: string;
  purpose: SmsPurpose;
  captchaId: string;
  imageCode: string;
}) => call(identityApi.sendSmsCode, input, quiet);

/** An image code the person solved; sent with a password login once the server asks for it. */
export interface ImageCodeProof {
  captchaId?: string;
  imageCode?: string;
}

export async function pwdLogin(input: { siteId: string; phone: string; password: string } & ImageCodeProof) {
  const { password } = await encryptFields({ password: input.password });
  return withSecret(call(identityApi.pwdLogin, { ...input, password }, quiet));
}

export async function accountLogin(
  input: { siteId: string; username: string; password: string } & ImageCodeProof,
) {
  const { password } = await encryptFields({ password: input.password });
  return withSecret(call(identityApi.accountLogin, { ...input, password }, quiet));
}

export const smsLogin = (input: { siteId: string; phone: string; code: string }) =>
  call(identityApi.smsLogin, input, quiet);

export async function register(input: { siteId: string; phone: string; code: string; password: string }) {
  const { password } = await encryptFields({ password: input.password });
  return withSecret(call(identityApi.register, { ...input, password }, quiet));
}

export async function findPassword(input: {
  siteId: string;
  phone: string;
  code: string;
  newPsw1: string;
  newPsw2: string;
}) {
  const secret = await encryptFields({ newPsw1: input.newPsw1, newPsw2: input.newPsw2 });
  await withSecret(call(identityApi.findPassword, { ...input, ...secret }, quiet));
}

/** Change password (spec sections 5 and 7): all three fields encrypted, sent as form data. */
export async function uptPassword(input: {
  siteId: string | null;
  oldPsw: string;
  newPsw1: string;
  newPsw2: string;
}) {
  const secret = await encryptFields({
    oldPsw: input.oldPsw,
    newPsw1: input.newPsw1,
    newPsw2: input.newPsw2,
  });
  const payload: Payload = { ...secret, siteId: input.siteId ?? undefined };
  await withSecret(call(identityApi.uptPassword, payload, { repeat: true }));
}

/** Exit on the server: the token stops working at once. Never bounces to login itself. */
export const logout = (siteId: string | null) =>
  call(identityApi.logout, { siteId: siteId ?? undefined }, { unReplaceLogin: true });

/** loginOrder '0' (section 4): a 401/416 goes through the request layer's login redirect. */
export const checkToken = (input: { siteId: string; token: string }) => call(identityApi.checkToken, input);

export const fetchPersonalInfo = (siteId: string | null): Promise<MemberInfo> =>
  call(identityApi.personalInfo, { siteId: siteId ?? undefined });

/** A partner login's answer as `partnerOutcome` reads it: a refusal keeps its data (authErrUrl). */
export interface PartnerAnswer {
  code: number;
  msg: string;
  data: PartnerLoginResult | null;
}

/** A refused partner call as `partnerOutcome` reads it; no answer at all is rethrown. */
export function refusalAnswer(error: unknown): PartnerAnswer {
  if (!(error instanceof ApiError)) throw error;
  return { code: error.code, msg: error.message, data: error.data as PartnerLoginResult | null };
}

/** The partner login an address asks for (DingTalk's endpoint is urlencoded, spec section 7). */
export const partnerLogin = (
  entry: Exclude<PartnerEntry, { kind: 'wechat' }>,
  siteId: string,
): Promise<PartnerAnswer> =>
  // Not `repeat`: a remounting page shares the one call (a ticket works once).
  call(PARTNER_LOGINS[entry.kind], { siteId, ...entry.payload }, { unReplaceLogin: true }).then(
    (data) => ({ code: CODE.ok, msg: data.msg, data }),
    refusalAnswer,
  );

/** Messaging-app authorization: the code becomes an open id (with its short-lived proof). */
export const getOpenId = (input: { siteId: string; code: string }) =>
  call(identityApi.getOpenId, input, { unReplaceLogin: true });

export const tokenByOpenId = (input: { siteId: string; openId: string; openIdSign: string }) =>
  call(identityApi.tokenByOpenId, input, { unReplaceLogin: true });
