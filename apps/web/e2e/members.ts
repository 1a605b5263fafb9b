import { constants, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';
import { identityApi, shopUrl } from '@sitemall/contract';
import { imageCodeAnswer } from './site.ts';

/** Members made in the browser tests through the API (what a second device would do). */

/** A phone no other test (nor an earlier run on the same database) uses. */
export const freshPhone = () =>
  `139${String(Date.now()).slice(-5)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;

/** The last code the SMS simulator delivered to a phone. */
export async function lastSmsCode(request: APIRequestContext, phone: string): Promise<string> {
  const answer = await request.get(`/simulator/sms/outbox?phone=${phone}`);
  const { data } = (await answer.json()) as { data: { text: string }[] };
  const code = data[0]?.text.match(/验证码为(\d{6})/)?.[1];
  if (!code) throw new Error(`no SMS code for ${phone}`);
  return code;
}

export async function encrypt(request: APIRequestContext, value: string): Promise<string> {
  const { data } = (await (await request.get(shopUrl(identityApi.publicKey))).json()) as {
    data: { publicKey: string };
  };
  const plain = JSON.stringify({ v: value, n: randomBytes(16).toString('base64url'), t: Date.now() });
  return publicEncrypt(
    { key: createPublicKey(data.publicKey), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(plain),
  ).toString('base64');
}

/** Sends an SMS code through the API, reading the image code as a person would. */
export async function sendSmsCodeByApi(
  request: APIRequestContext,
  to: { siteId: number; phone: string; purpose: string },
) {
  const image = (await (
    await request.get(`${shopUrl(identityApi.imageCode)}?siteId=${to.siteId}`)
  ).json()) as {
    data: { captchaId: string };
  };
  const sent = await request.post(shopUrl(identityApi.sendSmsCode), {
    data: {
      ...to,
      captchaId: image.data.captchaId,
      imageCode: await imageCodeAnswer(request, image.data.captchaId),
    },
  });
  const body = (await sent.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(200);
}

/** Registers a member on a site through the API (image code, SMS code, encrypted password). */
export async function registerByApi(
  request: APIRequestContext,
  siteId: number,
  phone: string,
  password: string,
) {
  await sendSmsCodeByApi(request, { siteId, phone, purpose: 'register' });
  const registered = await request.post(shopUrl(identityApi.register), {
    data: {
      siteId,
      phone,
      code: await lastSmsCode(request, phone),
      password: await encrypt(request, password),
    },
  });
  const body = (await registered.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(200);
}
