import type {
  EnvelopeOf,
  LoginResult,
  LoginUser,
  MemberInfo,
  PartnerLoginResult,
  SmsPurpose,
} from '@sitemall/contract';
import { IDENTITY_MSG } from '@sitemall/contract';
import { type Payload, request } from '../../api/request.ts';
import { encryptFields, forgetServerKey } from './crypto.ts';
import type { PartnerEntry } from './partner.ts';

/**
 * The identity calls of the storefront (server: apps/server/src/modules/identity). Each
 * resolves with the envelope; the forms show its msg when it is not a success.
 */

/** Ways in do not bounce to login on 401/416: they are the login. */
const quiet = { unReplaceLogin: true, repeat: true } as const;

/** An unreadable ciphertext may mean a rotated key: the next try fetches the key again. */
function afterSecret<T>(answer: EnvelopeOf<T>): EnvelopeOf<T> {
  if (answer.msg === IDENTITY_MSG.badCiphertext) forgetServerKey();
  return answer;
}

export const sendSmsCode = (input: {
  siteId: string;
  phone: string;
  purpose: SmsPurpose;
  captchaId: string;
  imageCode: string;
}) => request<{ resendAfter: number }>('/app/client/sendSmsCode', input, quiet);

/** An image code the person solved; sent with a password login once the server asks for it. */
export interface ImageCodeProof {
  captchaId?: string;
  imageCode?: string;
}

export async function pwdLogin(input: { siteId: string; phone: string; password: string } & ImageCodeProof) {
  const { password } = await encryptFields({ password: input.password });
  return afterSecret(await request<LoginResult>('/app/client/pwdLogin', { ...input, password }, quiet));
}

export async function accountLogin(
  input: { siteId: string; username: string; password: string } & ImageCodeProof,
) {
  const { password } = await encryptFields({ password: input.password });
  return afterSecret(await request<LoginResult>('/app/client/accountLogin', { ...input, password }, quiet));
}

export const smsLogin = (input: { siteId: string; phone: string; code: string }) =>
  request<LoginResult>('/app/client/smsLogin', input, quiet);

export async function register(input: { siteId: string; phone: string; code: string; password: string }) {
  const { password } = await encryptFields({ password: input.password });
  return afterSecret(await request<LoginResult>('/app/client/register', { ...input, password }, quiet));
}

export async function findPassword(input: {
  siteId: string;
  phone: string;
  code: string;
  newPsw1: string;
  newPsw2: string;
}) {
  const secret = await encryptFields({ newPsw1: input.newPsw1, newPsw2: input.newPsw2 });
  return afterSecret(await request<null>('/app/client/findPassword', { ...input, ...secret }, quiet));
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
  return afterSecret(
    await request<null>('/sys/user/personal/uptPassword', payload, { encoding: 'form', repeat: true }),
  );
}

/** Exit on the server: the token stops working at once. Never bounces to login itself. */
export const logout = (siteId: string | null) =>
  request<null>('/app/client/logout', { siteId: siteId ?? undefined }, { unReplaceLogin: true });

/** loginOrder '0' (section 4): a 401/416 goes through the request layer's login redirect. */
export const checkToken = (input: { siteId: string; token: string }) =>
  request<{ valid: boolean; user: LoginUser }>('/app/client/checkToken', input);

export async function fetchPersonalInfo(siteId: string | null): Promise<MemberInfo> {
  const answer = await request<MemberInfo>('/sys/user/personal/info', { siteId: siteId ?? undefined });
  if (answer.code !== 200 || !answer.data) throw new Error(answer.msg || '会员信息获取失败');
  return answer.data;
}

/** The partner login an address asks for (DingTalk wants urlencoded, spec section 7). */
export function partnerLogin(entry: Exclude<PartnerEntry, { kind: 'wechat' }>, siteId: string) {
  return request<PartnerLoginResult>(
    entry.path,
    { siteId, ...entry.payload },
    // Not `repeat`: a remounting page shares the one call (a ticket works once).
    { unReplaceLogin: true, encoding: entry.kind === 'dingtalk' ? 'urlencoded' : 'form' },
  );
}

/** Messaging-app authorization: the code becomes an open id (with its short-lived proof). */
export const getOpenId = (input: { siteId: string; code: string }) =>
  request<{ openId: string; openIdSign: string; bound: boolean }>('/app/client/getOpenId', input, {
    unReplaceLogin: true,
  });

export const tokenByOpenId = (input: { siteId: string; openId: string; openIdSign: string }) =>
  request<LoginResult>('/app/client/tokenByOpenId', input, { unReplaceLogin: true });
