import { IDENTITY_MSG, identityApi, MSG } from '@sitemall/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from './identity.fixtures';
import { imageCode, member, smsCode } from './identity.tables';
import { seedMember } from './members';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await testApp();
  c = client(t);
});
afterAll(() => t.close());

const PHONE_719 = '13800000719';
/** Lets a new code be sent at once (the 60-second rule is tested on its own). */
const allowResend = (phone: string) =>
  t.db.update(smsCode).set({ createdAt: sql`now() - interval '61 seconds'` }).where(eq(smsCode.phone, phone));
const smsLogin = (siteId: number, phone: string, code: string) =>
  c.post<{ token: string; user: { id: number; phone: string } }>(identityApi.smsLogin.path, {
    siteId,
    phone,
    code,
  });

describe('image verification code', () => {
  it('draws an SVG and is needed, once, to send an SMS code', async () => {
    const { body } = await c.get<{ captchaId: string; svg: string }>(identityApi.imageCode.path, {
      siteId: '719',
    });
    expect(body.data.svg).toMatch(/^<svg/);
    const answer = (await t.db.select().from(imageCode).where(eq(imageCode.id, body.data.captchaId)))[0]
      ?.answer;
    const wrong = await c.post(identityApi.sendSmsCode.path, {
      siteId: 719,
      phone: '13600000001',
      captchaId: body.data.captchaId,
      imageCode: 'zzzz',
    });
    expect(wrong.body).toEqual({ code: 400, msg: IDENTITY_MSG.wrongImageCode, success: false, data: null });
    // A wrong answer spends the image: the right answer afterwards is refused too.
    const late = await c.post(identityApi.sendSmsCode.path, {
      siteId: 719,
      phone: '13600000001',
      captchaId: body.data.captchaId,
      imageCode: answer,
    });
    expect(late.body.msg).toBe(IDENTITY_MSG.wrongImageCode);
    // An image of another site does not count.
    const other = await c.captcha(1000);
    const cross = await c.post(identityApi.sendSmsCode.path, { siteId: 719, phone: '13600000001', ...other });
    expect(cross.body.msg).toBe(IDENTITY_MSG.wrongImageCode);
    expect((await c.get(identityApi.imageCode.path, { siteId: '4242' })).body.code).toBe(500);
  });
});

describe('SMS codes (section 9: 60 s resend; 6 digits, 5 minutes, single use)', () => {
  it('sends a 6-digit code through the simulator and logs the demo member of 719 in with it', async () => {
    const sent = await c.post(identityApi.sendSmsCode.path, {
      siteId: 719,
      phone: PHONE_719,
      ...(await c.captcha(719)),
    });
    expect(sent.body).toEqual({
      code: 200,
      msg: IDENTITY_MSG.codeSent,
      success: true,
      data: { resendAfter: 60 },
    });
    const outbox = await c.get<{ text: string; siteId: number }[]>('/simulator/sms/outbox', {
      phone: PHONE_719,
    });
    expect(outbox.body.data[0]?.text).toMatch(/^【汇通银行信用卡积分商城】您的验证码为\d{6}，5分钟内有效/);
    const code = await c.lastCode(PHONE_719);
    // Only a hash is stored.
    const [row] = await t.db.select().from(smsCode).where(eq(smsCode.phone, PHONE_719));
    expect(row?.codeHash).not.toContain(code);
    const login = await smsLogin(719, PHONE_719, code);
    expect(login.body).toMatchObject({ code: 200, data: { user: { phone: PHONE_719 } } });
    // Single use.
    expect((await smsLogin(719, PHONE_719, code)).body).toEqual({
      code: 500,
      msg: IDENTITY_MSG.codeExpired,
      success: false,
      data: null,
    });
  });

  it('refuses a resend within 60 seconds, on the server', async () => {
    await c.smsCode(719, '13600000002');
    const again = await c.post(identityApi.sendSmsCode.path, {
      siteId: 719,
      phone: '13600000002',
      ...(await c.captcha(719)),
    });
    expect(again.body.code).toBe(429);
    expect(again.body.msg).toMatch(/^发送过于频繁，请\d+秒后再试$/);
  });

  it('concurrent logins with one SMS code succeed once', async () => {
    await allowResend(PHONE_719);
    const code = await c.smsCode(719, PHONE_719);
    const answers = await Promise.all(Array.from({ length: 6 }, () => smsLogin(719, PHONE_719, code)));
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code !== 200).every((a) => a.body.success === false)).toBe(true);
  });

  it('an expired code is refused', async () => {
    await allowResend(PHONE_719);
    const code = await c.smsCode(719, PHONE_719);
    await t.db
      .update(smsCode)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(smsCode.phone, PHONE_719));
    expect((await smsLogin(719, PHONE_719, code)).body.msg).toBe(IDENTITY_MSG.codeExpired);
  });

  it('limits guessing: after 5 wrong codes the right one is refused too', async () => {
    await allowResend(PHONE_719);
    const code = await c.smsCode(719, PHONE_719);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i += 1)
      expect((await smsLogin(719, PHONE_719, wrong)).body.msg).toBe(IDENTITY_MSG.wrongCode);
    expect((await smsLogin(719, PHONE_719, wrong)).body.msg).toBe(IDENTITY_MSG.codeAttemptsExceeded);
    expect((await smsLogin(719, PHONE_719, code)).body.msg).toBe(IDENTITY_MSG.codeAttemptsExceeded);
  });

  it('binds a code to its site and its purpose', async () => {
    await allowResend(PHONE_719);
    const code = await c.smsCode(719, PHONE_719, 'register');
    expect((await smsLogin(719, PHONE_719, code)).body.success).toBe(false);
    expect((await smsLogin(1000, PHONE_719, code)).body.success).toBe(false);
    expect((await smsLogin(719, PHONE_719, 'abc')).body).toMatchObject({
      code: 400,
      msg: IDENTITY_MSG.badCodeFormat,
    });
  });

  it('limits codes per phone and per IP', async () => {
    const phone = '13600000003';
    for (let i = 0; i < 5; i += 1) {
      await allowResend(phone);
      await c.smsCode(1000, phone);
    }
    await allowResend(phone);
    const sixth = await c.post(identityApi.sendSmsCode.path, {
      siteId: 1000,
      phone,
      ...(await c.captcha(1000)),
    });
    // The cap is hourly: the message says the real wait, never "今日".
    expect(sixth.body).toMatchObject({ code: 429 });
    expect(sixth.body.msg).toMatch(/^获取验证码次数过多，请([1-9]|[1-5]\d|60)分钟后再试$/);

    const ip = '10.201.0.1';
    let last = 0;
    for (let i = 0; i < 21; i += 1) {
      last = (
        await c.post(
          identityApi.sendSmsCode.path,
          { siteId: 1000, phone: `1350000${String(i).padStart(4, '0')}`, ...(await c.captcha(1000)) },
          undefined,
          ip,
        )
      ).body.code;
    }
    expect(last).toBe(429);
  });

  it('a new phone becomes a member by SMS login where the site allows registration only', async () => {
    const code = await c.smsCode(719, '13600000004');
    expect((await smsLogin(719, '13600000004', code)).body.code).toBe(200);
    const other = await c.smsCode(1000, '13600000005');
    expect((await smsLogin(1000, '13600000005', other)).body).toMatchObject({
      code: 500,
      msg: IDENTITY_MSG.phoneNotRegistered,
    });
  });

  it('refuses a bad phone before sending anything', async () => {
    for (const phone of ['12345', "1380000'--", '<b>13800000000</b>']) {
      const { body } = await c.post(identityApi.sendSmsCode.path, {
        siteId: 719,
        phone,
        ...(await c.captcha(719)),
      });
      expect(body).toMatchObject({ code: 400, msg: IDENTITY_MSG.badPhone });
    }
  });
});

describe('registration, is-registered and find password', () => {
  it('registers on 719 (showRegister = Y) and the new member logs in by password', async () => {
    const phone = '13600000010';
    expect(
      (await c.post(identityApi.isRegistered.path, { siteId: 719, phone, ...(await c.captcha(719)) })).body
        .data,
    ).toEqual({
      registered: false,
    });
    const code = await c.smsCode(719, phone, 'register');
    const { body } = await c.post<{ token: string; user: { phone: string; username: string } }>(
      identityApi.register.path,
      {
        siteId: 719,
        phone,
        code,
        password: c.enc('Reg12345'),
        username: 'newbie719',
      },
    );
    expect(body).toMatchObject({
      code: 200,
      msg: IDENTITY_MSG.registered,
      data: { user: { phone, username: 'newbie719' } },
    });
    expect(
      (await c.post(identityApi.isRegistered.path, { siteId: 719, phone, ...(await c.captcha(719)) })).body
        .data,
    ).toEqual({
      registered: true,
    });
    expect(
      (await c.post(identityApi.isRegistered.path, { siteId: 1000, phone, ...(await c.captcha(1000)) })).body
        .data,
    ).toEqual({
      registered: false,
    });
    expect((await c.pwdLogin(719, phone, 'Reg12345')).body.code).toBe(200);
    const account = await c.post(identityApi.accountLogin.path, {
      siteId: 719,
      username: 'newbie719',
      password: c.enc('Reg12345'),
    });
    expect(account.body.code).toBe(200);

    await allowResend(phone);
    const again = await c.post(identityApi.register.path, {
      siteId: 719,
      phone,
      code: await c.smsCode(719, phone, 'register'),
      password: c.enc('Reg12345'),
    });
    expect(again.body).toMatchObject({ code: 500, msg: IDENTITY_MSG.phoneRegistered });
  });

  it('refuses registration where the site does not show it, and weak passwords', async () => {
    const closed = await c.post(identityApi.register.path, {
      siteId: 1000,
      phone: '13600000011',
      code: '123456',
      password: c.enc('Reg12345'),
    });
    expect(closed.body).toMatchObject({ code: 500, msg: IDENTITY_MSG.registerClosed });
    const weak = await c.post(identityApi.register.path, {
      siteId: 719,
      phone: '13600000011',
      code: '123456',
      password: c.enc('abcdef'),
    });
    expect(weak.body).toMatchObject({ code: 400, msg: MSG.passwordRule });
    const before = await t.db.select().from(member).where(eq(member.phone, '13600000011'));
    expect(before).toHaveLength(0);
  });

  it('find password: a new password by SMS code; every session of the member ends', async () => {
    const phone = '13800001000';
    const token = await c.tokenOf(1000, phone, 'Demo1000');
    const code = await c.smsCode(1000, phone, 'findPassword');
    const differ = await c.post(identityApi.findPassword.path, {
      siteId: 1000,
      phone,
      code,
      newPsw1: c.enc('Fresh123'),
      newPsw2: c.enc('Fresh124'),
    });
    expect(differ.body).toMatchObject({ code: 400, msg: MSG.passwordsDiffer });
    const done = await c.post(identityApi.findPassword.path, {
      siteId: 1000,
      phone,
      code,
      newPsw1: c.enc('Fresh123'),
      newPsw2: c.enc('Fresh123'),
    });
    expect(done.body).toEqual({ code: 200, msg: IDENTITY_MSG.passwordReset, success: true, data: null });
    expect((await c.post(identityApi.personalInfo.path, {}, token)).body.code).toBe(416);
    expect((await c.pwdLogin(1000, phone, 'Demo1000')).body.code).toBe(500);
    expect((await c.pwdLogin(1000, phone, 'Fresh123')).body.code).toBe(200);
    const codeRows = await t.db
      .select()
      .from(smsCode)
      .where(and(eq(smsCode.phone, phone), eq(smsCode.purpose, 'findPassword')));
    expect(codeRows[0]?.consumedAt).not.toBeNull();
  });
});

describe('logged-in code, phone check, bind mobile', () => {
  it('sends a code to the member’s own phone and validates it once; checks the phone', async () => {
    await seedMember(t.db, { siteId: 1000, phone: '13700000100', password: 'Start123' });
    const token = await c.tokenOf(1000, '13700000100', 'Start123');
    expect(
      (await c.post(identityApi.phoneCheck.path, { siteId: 1000, phone: '13700000100' }, token)).body.data,
    ).toEqual({
      matches: true,
    });
    expect(
      (await c.post(identityApi.phoneCheck.path, { siteId: 1000, phone: '13800001001' }, token)).body.data,
    ).toEqual({
      matches: false,
    });
    expect((await c.post(identityApi.sendCode.path, { siteId: 1000 }, token)).body.code).toBe(200);
    const code = await c.lastCode('13700000100');
    expect((await c.post(identityApi.validateCode.path, { siteId: 1000, code }, token)).body.data).toEqual({
      valid: true,
    });
    expect((await c.post(identityApi.validateCode.path, { siteId: 1000, code }, token)).body.msg).toBe(
      IDENTITY_MSG.codeExpired,
    );
    expect((await c.post(identityApi.sendCode.path, { siteId: 1000 })).body.code).toBe(401);
  });

  it('binds a phone to a logged-in member, never one another member holds', async () => {
    await seedMember(t.db, { siteId: 1000, phone: '13700000101', password: 'Start123' });
    const token = await c.tokenOf(1000, '13700000101', 'Start123');
    const taken = await c.post(
      identityApi.bindMobile.path,
      { siteId: 1000, phone: '13800001000', code: await c.smsCode(1000, '13800001000', 'bindMobile') },
      token,
    );
    expect(taken.body).toMatchObject({ code: 500, msg: IDENTITY_MSG.phoneBoundElsewhere });
    const newPhone = '13600000020';
    const bound = await c.post<{ user: { phone: string } }>(
      identityApi.bindMobile.path,
      { siteId: 1000, phone: newPhone, code: await c.smsCode(1000, newPhone, 'bindMobile') },
      token,
    );
    expect(bound.body).toMatchObject({ code: 200, data: { user: { phone: newPhone } } });
    expect((await c.post(identityApi.personalInfo.path, {}, token)).body.data).toMatchObject({
      phone: newPhone,
    });
  });
});
