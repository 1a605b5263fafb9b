import { DEFAULT_ACTIVITY_CODE, IDENTITY_MSG, identityApi, MSG, shopUrl } from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { simulatorIssue } from '../../simulators/partners';
import { type TestApp, testApp } from '../../test/harness';
import { client } from './identity.fixtures';
import { externalIdentity, member } from './identity.tables';

let t: TestApp;
let c: ReturnType<typeof client>;
let issue: ReturnType<typeof simulatorIssue>;
beforeAll(async () => {
  t = await testApp();
  c = client(t);
  issue = simulatorIssue(t.secrets.partnerKey);
});
afterAll(() => t.close());

interface PartnerData {
  success: boolean;
  msg: string;
  token?: string;
  user?: { id: number; phone: string | null; username: string | null };
  authErrUrl?: string;
}
const ticketOf = async (siteId: number, userId: string, phone?: string) =>
  (
    await c.get<{ ticket: string }>('/simulator/bank/ticket', {
      siteId: String(siteId),
      userId,
      ...(phone ? { phone } : {}),
    })
  ).body.data.ticket;
const haers = (siteId: number, ticket: string) =>
  c.post<PartnerData>(identityApi.haersLogin.path, { siteId, ticket });

describe(`bank ticket login (${identityApi.haersLogin.path})`, () => {
  it('logs in with a simulator ticket once; the same ticket again is refused', async () => {
    const ticket = await ticketOf(719, 'bank-user-1', '13800000719');
    const first = await haers(719, ticket);
    expect(first.body).toMatchObject({
      code: 200,
      success: true,
      data: { success: true, msg: IDENTITY_MSG.loggedIn, token: expect.any(String) },
    });
    // The bank vouches for the phone: the site's member with that phone is the one logged in.
    expect(first.body.data.user?.phone).toBe('13800000719');
    const again = await haers(719, ticket);
    expect(again.body).toMatchObject({ code: 500, success: false, data: { success: false } });
    const info = await c.post(identityApi.personalInfo.path, { siteId: 719 }, first.body.data.token);
    expect(info.body.code).toBe(200);
  });

  it('parallel use of one ticket succeeds once', async () => {
    const ticket = await ticketOf(719, 'bank-user-2');
    const answers = await Promise.all(Array.from({ length: 5 }, () => haers(719, ticket)));
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
  });

  it('namespaces the external id by site and partner', async () => {
    const a = await haers(719, await ticketOf(719, 'same-id'));
    const b = await haers(1000, await ticketOf(1000, 'same-id'));
    expect(a.body.data.user?.id).not.toBe(b.body.data.user?.id);
    const again = await haers(719, await ticketOf(719, 'same-id'));
    expect(again.body.data.user?.id).toBe(a.body.data.user?.id);
    const rows = await t.db.select().from(externalIdentity).where(eq(externalIdentity.externalId, 'same-id'));
    expect(rows.map((r) => [r.siteId, r.partner]).sort()).toEqual([
      [1000, 'haers'],
      [719, 'haers'],
    ]);
  });

  it('a ticket of another site, a forged ticket and a wrong user id are refused', async () => {
    expect((await haers(1000, await ticketOf(719, 'u1'))).body.success).toBe(false);
    expect((await haers(719, 'forged-ticket')).body).toMatchObject({
      code: 500,
      msg: IDENTITY_MSG.partnerUnavailable,
    });
    const wrongId = await haers(719, await ticketOf(719, '<script>'));
    expect(wrongId.body.code).toBe(500);
    expect(wrongId.body.msg).toContain(MSG.wrongBankUserId);
    expect(wrongId.body.data.msg).toContain(MSG.wrongBankUserId);
  });
});

describe('encrypted-parameter logins', () => {
  it(`phone + customer number (${identityApi.normLogin.path}), once per parameters`, async () => {
    const { body: issued } = await c.get<{ authLoginParams: string }>('/simulator/norm/authLoginParams', {
      siteId: '1000',
      phone: '13800001000',
      cstNo: 'CST0001',
    });
    const login = await c.post<PartnerData>(identityApi.normLogin.path, {
      siteId: 1000,
      authLoginParams: issued.data.authLoginParams,
    });
    expect(login.body).toMatchObject({ code: 200, data: { success: true, user: { phone: '13800001000' } } });
    const replay = await c.post<PartnerData>(identityApi.normLogin.path, {
      siteId: 1000,
      authLoginParams: issued.data.authLoginParams,
    });
    expect(replay.body).toMatchObject({ code: 500, msg: IDENTITY_MSG.staleCiphertext });
    // Encrypted with another site's key: refused.
    const foreign = await c.post<PartnerData>(identityApi.normLogin.path, {
      siteId: 719,
      authLoginParams: issue.normParams(1000, '13800001000', 'CST0001'),
    });
    expect(foreign.body.success).toBe(false);
  });

  it(`hr login (${identityApi.hrLogin.path}) creates a member without phone; a missing user id is named`, async () => {
    const { body } = await c.get<{ loginParams: string }>('/simulator/hr/loginParams', {
      siteId: '10110',
      userId: 'E1001',
    });
    const login = await c.post<PartnerData>(identityApi.hrLogin.path, {
      siteId: 10110,
      loginParams: body.data.loginParams,
    });
    expect(login.body).toMatchObject({
      code: 200,
      data: { success: true, user: { phone: null, username: null } },
    });
    const bad = await c.post<PartnerData>(identityApi.hrLogin.path, {
      siteId: 10110,
      loginParams: issue.hrParams(10110, ''),
    });
    expect(bad.body.code).toBe(500);
    expect(bad.body.msg).toContain(MSG.wrongBankUserId);
    const garbage = await c.post<PartnerData>(identityApi.hrLogin.path, {
      siteId: 10110,
      loginParams: "' or 1=1 --",
    });
    expect(garbage.body).toMatchObject({ code: 500, success: false });
  });

  it('activity login: an uninvited user gets code 500 with data.authErrUrl', async () => {
    const invited = await c.post<PartnerData>(identityApi.activityLogin.path, {
      siteId: 719,
      loginParams: issue.activityParams(719, 'A1', DEFAULT_ACTIVITY_CODE, true),
    });
    expect(invited.body).toMatchObject({ code: 200, data: { success: true } });
    const { body } = await c.get<{ loginParams: string }>('/simulator/activity/loginParams', {
      siteId: '719',
      userId: 'A2',
      invited: 'false',
    });
    const uninvited = await c.post<PartnerData>(identityApi.activityLogin.path, {
      siteId: 719,
      loginParams: body.data.loginParams,
    });
    expect(uninvited.body).toMatchObject({
      code: 500,
      success: false,
      msg: MSG.invitedOnly,
      data: { authErrUrl: expect.stringContaining('siteId=719') },
    });
  });

  it('marketing login', async () => {
    const login = await c.post<PartnerData>(identityApi.marketingLogin.path, {
      siteId: 1000,
      loginParams: issue.marketingParams(1000, 'M1', '13600000050'),
    });
    expect(login.body).toMatchObject({ code: 200, data: { user: { phone: '13600000050' } } });
  });

  it('auto login by GET with signed params, once', async () => {
    const { body } = await c.get<{ query: Record<string, string | number> }>('/simulator/autoLogin/params', {
      siteId: '1000',
      userId: 'AUTO1',
    });
    const query = Object.fromEntries(Object.entries(body.data.query).map(([k, v]) => [k, String(v)]));
    const login = await c.get<{ token: string }>(identityApi.autoLogin.path, query);
    expect(login.body).toMatchObject({ code: 200, data: { token: expect.any(String) } });
    expect((await c.get(identityApi.autoLogin.path, query)).body.code).toBe(500);
    const tampered = { ...issue.autoLoginQuery(1000, 'AUTO1'), userId: 'AUTO2' };
    const forged = await c.get(
      identityApi.autoLogin.path,
      Object.fromEntries(Object.entries(tampered).map(([k, v]) => [k, String(v)])),
    );
    expect(forged.body).toMatchObject({ code: 500, success: false });
  });
});

describe('DingTalk login', () => {
  const code = async (corpId: string, userId: string) =>
    (await c.get<{ authCode: string }>('/simulator/dingtalk/authCode', { corpId, userId })).body.data
      .authCode;

  it('logs in where dingtalkAuthSwitch = 1 (10110), urlencoded, once per code', async () => {
    const authCode = await code('ding-corp-1', 'D001');
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: shopUrl(identityApi.dingtalkLogin),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ siteId: '10110', corpId: 'ding-corp-1', authCode }).toString(),
      });
    expect((await send()).json()).toMatchObject({ code: 200, data: { success: true } });
    expect((await send()).json()).toMatchObject({ code: 500, success: false });
    const rows = await t.db
      .select()
      .from(externalIdentity)
      .where(and(eq(externalIdentity.partner, 'dingtalk'), eq(externalIdentity.siteId, 10110)));
    expect(rows.map((r) => r.externalId)).toEqual(['ding-corp-1:D001']);
  });

  it('is refused where the switch is off, and for another corp’s code', async () => {
    const off = await c.post(identityApi.dingtalkLogin.path, {
      siteId: 719,
      corpId: 'ding-corp-1',
      authCode: await code('ding-corp-1', 'D002'),
    });
    expect(off.body).toMatchObject({ code: 500, msg: IDENTITY_MSG.dingtalkOff });
    const cross = await c.post(identityApi.dingtalkLogin.path, {
      siteId: 10110,
      corpId: 'ding-corp-2',
      authCode: await code('ding-corp-1', 'D003'),
    });
    expect(cross.body.success).toBe(false);
  });
});

describe('messaging app (open id)', () => {
  const wxCode = async (siteId: number, openId: string) =>
    (await c.get<{ code: string }>('/simulator/wechat/code', { siteId: String(siteId), openId })).body.data
      .code;

  it('app id and JS-SDK config', async () => {
    expect((await c.post(identityApi.wxAppId.path, { siteId: 719 })).body.data).toEqual({
      appId: expect.stringMatching(/^wx/),
    });
    const cfg = await c.post<{ signature: string }>(identityApi.wxConfig.path, {
      siteId: 719,
      url: 'https://mall.example.com/shoppingmall/home?siteId=719#top',
    });
    expect(cfg.body.data.signature).toMatch(/^[0-9a-f]{40}$/);
    expect(
      (await c.post(identityApi.wxConfig.path, { siteId: 719, url: 'javascript:alert(1)' })).body.code,
    ).toBe(400);
  });

  it('open id → not bound → bind mobile with SMS code → bound → token by open id', async () => {
    const got = await c.post<{ openId: string; openIdSign: string; bound: boolean }>(
      identityApi.getOpenId.path,
      {
        siteId: 719,
        code: await wxCode(719, 'oWX001'),
      },
    );
    expect(got.body.data).toMatchObject({ openId: 'oWX001', bound: false });
    const proof = { openId: got.body.data.openId, openIdSign: got.body.data.openIdSign };
    expect((await c.post(identityApi.checkBoundUser.path, { siteId: 719, ...proof })).body.data).toEqual({
      bound: false,
    });
    expect((await c.post(identityApi.tokenByOpenId.path, { siteId: 719, ...proof })).body).toMatchObject({
      code: 500,
      msg: IDENTITY_MSG.notBound,
    });
    const bind = await c.post<{ token: string; user: { phone: string } }>(identityApi.bindMobile.path, {
      siteId: 719,
      phone: '13800000719',
      code: await c.smsCode(719, '13800000719', 'bindMobile'),
      ...proof,
    });
    expect(bind.body).toMatchObject({
      code: 200,
      data: { token: expect.any(String), user: { phone: '13800000719' } },
    });
    expect((await c.post(identityApi.checkBoundUser.path, { siteId: 719, ...proof })).body.data).toEqual({
      bound: true,
    });
    const login = await c.post<{ token: string; user: { phone: string } }>(identityApi.tokenByOpenId.path, {
      siteId: 719,
      ...proof,
    });
    expect(login.body).toMatchObject({ code: 200, data: { user: { phone: '13800000719' } } });
  });

  it('an open id without its proof, or with another site’s proof, is no credential', async () => {
    const got = await c.post<{ openId: string; openIdSign: string }>(identityApi.getOpenId.path, {
      siteId: 719,
      code: await wxCode(719, 'oWX002'),
    });
    const forged = await c.post(identityApi.tokenByOpenId.path, {
      siteId: 719,
      openId: 'oWX001',
      openIdSign: got.body.data.openIdSign,
    });
    expect(forged.body).toMatchObject({ code: 500, msg: IDENTITY_MSG.openIdProof });
    const foreign = await c.post(identityApi.tokenByOpenId.path, { siteId: 1000, ...got.body.data });
    expect(foreign.body.msg).toBe(IDENTITY_MSG.openIdProof);
    expect(
      (await c.post(identityApi.bindMobile.path, { siteId: 719, phone: '13800000719', code: '123456' })).body
        .code,
    ).toBe(401);
  });

  it('pay open id for the logged-in member; an auth code works once', async () => {
    const token = await c.tokenOf(1000, '13800001000', 'Demo1000');
    const code = await wxCode(1000, 'oPAY01');
    expect((await c.post(identityApi.payOpenId.path, { siteId: 1000, code }, token)).body.data).toEqual({
      openId: 'oPAY01',
    });
    expect((await c.post(identityApi.payOpenId.path, { siteId: 1000, code }, token)).body.success).toBe(
      false,
    );
    expect((await c.post(identityApi.payOpenId.path, { siteId: 1000, code })).body.code).toBe(401);
  });
});

describe('gateway authorization', () => {
  it('issues a short single-use code for a logged-in member only', async () => {
    const token = await c.tokenOf(1000, '13800001000', 'Demo1000');
    const { body } = await c.post<{ authCode: string; expiresIn: number }>(
      identityApi.gatewayAuth.path,
      { siteId: 1000, gateway: 'movie' },
      token,
    );
    expect(body).toMatchObject({ code: 200, data: { expiresIn: 300 } });
    expect((await c.post(identityApi.gatewayAuth.path, { siteId: 1000, gateway: 'movie' })).body.code).toBe(
      401,
    );
  });
});

describe('simulators', () => {
  it('are not served when disabled', async () => {
    const app = await buildApp({
      database: t.database,
      secrets: t.secrets,
      sites: t.sites,
      simulators: false,
    });
    for (const url of [
      '/simulator/sms/outbox?phone=13800000719',
      '/simulator/bank/ticket?siteId=719&userId=u',
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    await app.close();
  });
});

describe('OpenAPI', () => {
  it('documents every identity route with a tag and a summary', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/front-mall-api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; summary?: string }>>;
    };
    const paths = [
      identityApi.publicKey.path,
      identityApi.imageCode.path,
      identityApi.sendSmsCode.path,
      identityApi.smsLogin.path,
      identityApi.pwdLogin.path,
      identityApi.accountLogin.path,
      identityApi.register.path,
      identityApi.isRegistered.path,
      identityApi.findPassword.path,
      identityApi.uptPassword.path,
      identityApi.checkToken.path,
      identityApi.logout.path,
      identityApi.personalInfo.path,
      identityApi.sendCode.path,
      identityApi.validateCode.path,
      identityApi.phoneCheck.path,
      identityApi.bindMobile.path,
      identityApi.wxAppId.path,
      identityApi.wxConfig.path,
      identityApi.getOpenId.path,
      identityApi.checkBoundUser.path,
      identityApi.tokenByOpenId.path,
      identityApi.payOpenId.path,
      identityApi.autoLogin.path,
      identityApi.haersLogin.path,
      identityApi.normLogin.path,
      identityApi.hrLogin.path,
      identityApi.dingtalkLogin.path,
      identityApi.activityLogin.path,
      identityApi.marketingLogin.path,
      identityApi.gatewayAuth.path,
    ];
    for (const p of paths) {
      const ops = Object.values(doc.paths[`/front-mall-api${p}`] ?? {});
      expect(ops.length, p).toBeGreaterThan(0);
      for (const op of ops) {
        expect(op.tags?.length, p).toBeGreaterThan(0);
        expect(op.summary, p).toBeTruthy();
      }
    }
  });
});

it('nothing of a refused partner login leaks into the members table', async () => {
  const before = (await t.db.select().from(member)).length;
  await haers(719, 'x'.repeat(1024));
  await c.post(identityApi.hrLogin.path, { siteId: 719, loginParams: '<script>alert(1)</script>' });
  expect((await t.db.select().from(member)).length).toBe(before);
});
