import { identityApi } from '@sitemall/contract';
import type { TestApp } from '../../test/harness';
import { encryptSecret } from './crypto';

/** Test helpers for the identity module (real app, real database). */
let ipSeq = 0;
/** Each call gets its own client IP unless one is given: per-IP limits are tested on purpose only. */
export const nextIp = () => {
  ipSeq += 1;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: { code: number; msg: string; success: boolean; data: T };
}

export function client(t: TestApp) {
  async function call<T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    url: string,
    options: {
      payload?: object;
      headers?: Record<string, string>;
      ip?: string;
      query?: Record<string, string>;
    } = {},
  ): Promise<Answer<T>> {
    const res = await t.app.inject({
      method,
      url: url.startsWith('/simulator') ? url : `/front-mall-api${url}`,
      payload: method === 'POST' ? (options.payload ?? {}) : undefined,
      query: options.query,
      headers: options.headers,
      remoteAddress: options.ip ?? nextIp(),
    });
    return { status: res.statusCode, body: res.json() };
  }
  const post = <T = Record<string, unknown>>(url: string, payload: object, token?: string, ip?: string) =>
    call<T>('POST', url, { payload, headers: token ? { token } : {}, ip });
  const get = <T = Record<string, unknown>>(url: string, query: Record<string, string>, token?: string) =>
    call<T>('GET', url, { query, headers: token ? { token } : {} });
  const enc = (value: string, options?: { nonce?: string; time?: number }) =>
    encryptSecret(t.secrets.rsaPublicKeyPem, value, options);

  /** An image code and its answer, read through the captcha simulator. */
  async function captcha(siteId: number) {
    const { body } = await get<{ captchaId: string; svg: string }>(identityApi.imageCode.path, {
      siteId: String(siteId),
    });
    const { captchaId } = body.data;
    const answer = await call<{ answer: string }>('GET', '/simulator/captcha/answer', {
      query: { captchaId },
    });
    return { captchaId, imageCode: answer.body.data.answer };
  }

  /** Sends a code through the API and reads it from the SMS simulator's outbox. */
  async function smsCode(siteId: number, phone: string, purpose = 'login', ip?: string) {
    const sent = await post(
      identityApi.sendSmsCode.path,
      { siteId, phone, purpose, ...(await captcha(siteId)) },
      undefined,
      ip,
    );
    if (sent.body.code !== 200) throw new Error(`sendSmsCode: ${sent.body.msg}`);
    return lastCode(phone);
  }
  async function lastCode(phone: string) {
    const outbox = await get<{ text: string }[]>('/simulator/sms/outbox', { phone });
    const code = outbox.body.data[0]?.text.match(/验证码为(\d{6})/)?.[1];
    if (!code) throw new Error('no code in the outbox');
    return code;
  }

  async function pwdLogin(siteId: number, phone: string, password: string) {
    return post<{ token: string; user: { id: number; phone: string | null; username: string | null } }>(
      identityApi.pwdLogin.path,
      { siteId, phone, password: enc(password) },
    );
  }
  async function tokenOf(siteId: number, phone: string, password: string) {
    const { body } = await pwdLogin(siteId, phone, password);
    if (body.code !== 200) throw new Error(`login: ${body.msg}`);
    return body.data.token;
  }
  return { call, post, get, enc, captcha, smsCode, lastCode, pwdLogin, tokenOf };
}
