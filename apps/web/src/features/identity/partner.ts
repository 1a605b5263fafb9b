import { CODE, identityApi, MSG } from '@sitemall/contract';

/**
 * Automatic entry from partner systems (spec sections 1, 4, 7, 8): a landing address that
 * carries a partner's parameters logs the visitor in before the page shows.
 */
export type PartnerEntry =
  | { kind: 'haers'; path: string; payload: { ticket: string } }
  | { kind: 'norm'; path: string; payload: { authLoginParams: string } }
  | { kind: 'hr'; path: string; payload: { loginParams: string } }
  | { kind: 'dingtalk'; path: string; payload: { corpId: string; authCode: string } }
  | { kind: 'wechat'; code: string };

/** The endpoint each partner entry logs in through (its path is the entry's `path`). */
export const PARTNER_LOGINS = {
  haers: identityApi.haersLogin,
  norm: identityApi.normLogin,
  hr: identityApi.hrLogin,
  dingtalk: identityApi.dingtalkLogin,
} as const;

/** Address parameters that belong to a partner entry; the page continues without them. */
const PARTNER_PARAMS = ['ticket', 'authLoginParams', 'loginParams', 'corpId', 'authCode'] as const;
/** An OAuth redirect's pair: only together are they the messaging app's, never alone. */
const OAUTH_PARAMS = ['code', 'state'] as const;

/** The partner parameters an address carries. */
export function partnerParamsIn(params: URLSearchParams): string[] {
  const found: string[] = PARTNER_PARAMS.filter((name) => params.has(name));
  if (OAUTH_PARAMS.every((name) => params.has(name))) found.push(...OAUTH_PARAMS);
  return found;
}

/**
 * What the address asks for. One entry at most, in this order: bank ticket, phone + customer
 * number, encrypted bank parameters, DingTalk (only where the site's dingtalkAuthSwitch is 1
 * and the address brings an auth code with its corpId), messaging-app authorization (an OAuth
 * redirect: code with state).
 */
export function detectPartnerEntry(
  params: URLSearchParams,
  site: { dingtalkAuthSwitch?: number } | null,
): PartnerEntry | null {
  const ticket = params.get('ticket');
  if (ticket) return { kind: 'haers', path: PARTNER_LOGINS.haers.path, payload: { ticket } };
  const authLoginParams = params.get('authLoginParams');
  if (authLoginParams) return { kind: 'norm', path: PARTNER_LOGINS.norm.path, payload: { authLoginParams } };
  const loginParams = params.get('loginParams');
  if (loginParams) return { kind: 'hr', path: PARTNER_LOGINS.hr.path, payload: { loginParams } };
  const corpId = params.get('corpId');
  const authCode = params.get('authCode');
  if (corpId && authCode && site?.dingtalkAuthSwitch === 1) {
    return { kind: 'dingtalk', path: PARTNER_LOGINS.dingtalk.path, payload: { corpId, authCode } };
  }
  const code = params.get('code');
  if (code && params.has('state')) return { kind: 'wechat', code };
  return null;
}

/** The app path without the partner parameters: where the visitor continues. */
export function withoutPartnerParams(pathname: string, search: string, hash = ''): string {
  const params = new URLSearchParams(search);
  for (const name of partnerParamsIn(params)) params.delete(name);
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}${hash}`;
}

export type PartnerOutcome = 'loggedIn' | 'wrongUserId' | 'invitedOnly' | 'continue';

/** How a partner login's answer is handled (spec section 8). */
export function partnerOutcome(answer: {
  code: number;
  msg?: string;
  data?: { success?: boolean; token?: string; msg?: string; authErrUrl?: string } | null;
}): PartnerOutcome {
  if (answer.code === CODE.ok && answer.data?.token) return 'loggedIn';
  const msg = `${answer.msg ?? ''} ${answer.data?.msg ?? ''}`;
  if (msg.includes(MSG.wrongBankUserId)) return 'wrongUserId';
  if (answer.code === CODE.failure && answer.data?.authErrUrl) return 'invitedOnly';
  return 'continue';
}
