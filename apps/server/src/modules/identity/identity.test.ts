import { IDENTITY_MSG, identityApi, MSG, shopUrl } from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_MEMBERS } from '../../db/demo/members';
import { type TestApp, testApp } from '../../test/harness';
import { client } from './identity.fixtures';
import { loginFailure, member, memberSession } from './identity.tables';
import { seedMember } from './members';
import { tokenHashOf } from './sessions';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await testApp();
  c = client(t);
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

const demo = (siteId: number) => {
  const found = DEMO_MEMBERS.find((m) => m.siteId === siteId);
  if (!found) throw new Error(`no demo member for ${siteId}`);
  return found as { siteId: number; phone: string; username: string | null; password: string };
};
/** Lets `seconds` pass for an address's failed logins (the database keeps the time). */
const elapse = (ip: string, seconds: number) =>
  t.db
    .update(loginFailure)
    .set({ lastFailedAt: sql`${loginFailure.lastFailedAt} - make_interval(secs => ${seconds})` })
    .where(eq(loginFailure.ip, ip));
const checkToken = (siteId: number, token?: string) => c.post(identityApi.checkToken.path, { siteId, token });
const info = (token: string, siteId?: number) =>
  c.post<{ id: number; siteId: number; phone: string | null; username: string | null }>(
    identityApi.personalInfo.path,
    siteId ? { siteId } : {},
    token,
  );

/** Form data as the storefront sends it by default (spec section 7). */
function multipart(fields: Record<string, string>) {
  const boundary = `----sitemall${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  const body = `${parts.join('')}--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
async function uptPassword(token: string | undefined, fields: Record<string, string>) {
  const form = multipart(fields);
  const res = await t.app.inject({
    method: 'POST',
    url: shopUrl(identityApi.uptPassword),
    payload: form.body,
    headers: { 'content-type': form.contentType, ...(token ? { token } : {}) },
    remoteAddress: '10.99.0.1',
  });
  return res.json() as { code: number; msg: string; success: boolean; data: unknown };
}

/** Password logins to one site-1000 account from a given client address. */
const pwdLoginFrom =
  (phone: string) =>
  (password: string, ip: string, proof: object = {}) =>
    c.post(
      identityApi.pwdLogin.path,
      { siteId: 1000, phone, password: c.enc(password), ...proof },
      undefined,
      ip,
    );

describe('public key and wire encryption', () => {
  it('serves an RSA-OAEP public key that WebCrypto in the browser can use', async () => {
    const { body } = await c.get<{ algorithm: string; publicKey: string; spki: string; maxSkewMs: number }>(
      identityApi.publicKey.path,
      {},
    );
    expect(body.data.algorithm).toBe('RSA-OAEP-256');
    expect(body.data.publicKey).toContain('BEGIN PUBLIC KEY');
    const key = await crypto.subtle.importKey(
      'spki',
      Buffer.from(body.data.spki, 'base64'),
      { name: 'RSA-OAEP', hash: 'SHA-256' },
      false,
      ['encrypt'],
    );
    const plain = JSON.stringify({
      v: demo(1000).password,
      n: crypto.randomUUID().replaceAll('-', ''),
      t: Date.now(),
    });
    const cipher = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
    const res = await c.post<{ token: string }>(identityApi.pwdLogin.path, {
      siteId: 1000,
      phone: demo(1000).phone,
      password: Buffer.from(cipher).toString('base64'),
    });
    expect(res.body).toMatchObject({ code: 200, success: true, msg: IDENTITY_MSG.loggedIn });
  });

  it('refuses a replayed password ciphertext', async () => {
    const password = c.enc(demo(1000).password);
    const first = await c.post(identityApi.pwdLogin.path, {
      siteId: 1000,
      phone: demo(1000).phone,
      password,
    });
    expect(first.body.code).toBe(200);
    const replay = await c.post(identityApi.pwdLogin.path, {
      siteId: 1000,
      phone: demo(1000).phone,
      password,
    });
    expect(replay.body).toEqual({ code: 400, msg: IDENTITY_MSG.staleCiphertext, success: false, data: null });
  });

  it('refuses a stale timestamp, a malformed ciphertext and a bad nonce', async () => {
    const phone = demo(1000).phone;
    const stale = c.enc(demo(1000).password, { time: Date.now() - 6 * 60_000 });
    expect((await c.post(identityApi.pwdLogin.path, { siteId: 1000, phone, password: stale })).body.msg).toBe(
      IDENTITY_MSG.staleCiphertext,
    );
    for (const password of [
      'not-base64!!',
      Buffer.from('x'.repeat(256)).toString('base64'),
      c.enc('x', { nonce: 'short' }),
    ]) {
      const { body } = await c.post(identityApi.pwdLogin.path, { siteId: 1000, phone, password });
      expect(body).toEqual({ code: 400, msg: IDENTITY_MSG.badCiphertext, success: false, data: null });
    }
    // A plain password (not encrypted) is refused the same way.
    expect(
      (await c.post(identityApi.pwdLogin.path, { siteId: 1000, phone, password: 'Demo1000' })).body.code,
    ).toBe(400);
  });
});

describe('password login (way 1) and account login (way 3)', () => {
  it('logs the demo member of 1000 in with a fresh opaque token whose hash alone is stored', async () => {
    const a = await c.pwdLogin(1000, demo(1000).phone, demo(1000).password);
    const b = await c.pwdLogin(1000, demo(1000).phone, demo(1000).password);
    expect(a.body.code).toBe(200);
    expect(a.body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.body.data.token).not.toBe(a.body.data.token);
    expect(a.body.data.user).toEqual({ id: expect.any(Number), phone: demo(1000).phone, username: null });
    const rows = await t.db
      .select()
      .from(memberSession)
      .where(eq(memberSession.memberId, a.body.data.user.id));
    expect(rows.map((r) => r.tokenHash)).toContain(tokenHashOf(a.body.data.token));
    expect(JSON.stringify(rows)).not.toContain(a.body.data.token);
  });

  it('logs the demo member of 10110 in by account', async () => {
    const { body } = await c.post<{ token: string; user: { username: string } }>(
      identityApi.accountLogin.path,
      {
        siteId: 10110,
        username: 'demo10110',
        password: c.enc('Demo10110'),
      },
    );
    expect(body.code).toBe(200);
    expect(body.data.user.username).toBe('demo10110');
  });

  it('answers a wrong password and an unknown phone alike, without telling which', async () => {
    const wrong = await c.pwdLogin(1000, demo(1000).phone, 'Wrong123');
    const unknown = await c.pwdLogin(1000, '13999999999', 'Wrong123');
    expect(wrong.body).toEqual({
      code: 500,
      msg: IDENTITY_MSG.wrongPhoneOrPassword,
      success: false,
      data: null,
    });
    expect(unknown.body).toEqual(wrong.body);
    const account = await c.post(identityApi.accountLogin.path, {
      siteId: 10110,
      username: 'nobody1',
      password: c.enc('x1'),
    });
    expect(account.body.msg).toBe(IDENTITY_MSG.wrongAccountOrPassword);
  });

  it('slows a guessing address down per account, never locking the owner out', async () => {
    const phone = '13700000001';
    await seedMember(t.db, { siteId: 1000, phone, password: 'Owner123' });
    const attacker = '10.66.0.1';
    const login = pwdLoginFrom(phone);
    for (let i = 0; i < 3; i += 1) expect((await login(`Guess${i}x`, attacker)).body.code).toBe(500);
    // The guessing address waits a few seconds, even with the right password ...
    const delayed = await login('Owner123', attacker);
    expect(delayed.body.code).toBe(429);
    expect(delayed.body.msg).toMatch(/^尝试次数过多，请[1-5]秒后再试$/);
    // ... while the owner, from their own address, gets in at once with the right password.
    expect((await login('Owner123', '10.66.0.2')).body.code).toBe(200);

    // Once the wait is over the guessing address needs an image code, and waits longer each time.
    await elapse(attacker, 6);
    expect((await login('Guess3x', attacker)).body).toMatchObject({
      code: 400,
      msg: IDENTITY_MSG.imageCodeRequired,
    });
    expect((await login('Guess3x', attacker, await c.captcha(1000))).body.code).toBe(500);
    expect((await login('Owner123', attacker)).body.msg).toMatch(/^尝试次数过多，请([6-9]|10)秒后再试$/);
  });

  it('asks everyone for an image code once an account fails from many addresses; the owner still gets in', async () => {
    const phone = '13700000002';
    await seedMember(t.db, { siteId: 1000, phone, password: 'Owner123' });
    const login = pwdLoginFrom(phone);
    for (let i = 0; i < 5; i += 1)
      expect((await login(`Guess${i}x`, `10.67.0.${i + 1}`)).body.code).toBe(500);
    const owner = '10.67.1.1';
    expect((await login('Owner123', owner)).body).toMatchObject({
      code: 400,
      msg: IDENTITY_MSG.imageCodeRequired,
    });
    expect((await login('Owner123', owner, { captchaId: 'x', imageCode: 'abcd' })).body).toMatchObject({
      code: 400,
      msg: IDENTITY_MSG.wrongImageCode,
    });
    expect((await login('Owner123', owner, await c.captcha(1000))).body.code).toBe(200);
    // The old lockout answer is gone: no account waits minutes because of someone else.
    expect((await login('Owner123', owner, await c.captcha(1000))).body.msg).not.toMatch(/分钟后再试/);
  });

  it('limits login calls per client IP', async () => {
    const ip = '10.200.0.1';
    let last = 0;
    for (let i = 0; i < 31; i += 1) {
      last = (
        await c.post(
          identityApi.pwdLogin.path,
          { siteId: 1000, phone: '13999999998', password: c.enc('x1') },
          undefined,
          ip,
        )
      ).body.code;
    }
    expect(last).toBe(429);
  });

  it('refuses SQL, script and over-long input with a clear msg and changes nothing', async () => {
    const before = await t.db.select({ n: sql<number>`count(*)::int` }).from(member);
    const attacks = [
      { siteId: 1000, phone: "13800001000' or '1'='1", password: c.enc('x1') },
      { siteId: 1000, phone: '<script>alert(1)</script>', password: c.enc('x1') },
      { siteId: 1000, phone: '1'.repeat(40), password: c.enc('x1') },
      { siteId: '1000; drop table member', phone: demo(1000).phone, password: c.enc('x1') },
      { siteId: 1000, phone: demo(1000).phone, password: 'A'.repeat(2000) },
    ];
    for (const payload of attacks) {
      const { status, body } = await c.post(identityApi.pwdLogin.path, payload);
      expect(status).toBe(200);
      expect(body.code).toBe(400);
      expect(body.msg).not.toMatch(/stack|select|error/i);
    }
    for (const username of ["admin'--", '<img src=x onerror=1>', 'a'.repeat(65)]) {
      const { body } = await c.post(identityApi.accountLogin.path, {
        siteId: 10110,
        username,
        password: c.enc('x1'),
      });
      expect(body.code).toBe(400);
    }
    expect(await t.db.select({ n: sql<number>`count(*)::int` }).from(member)).toEqual(before);
  });
});

describe('tokens and sessions (401 / 416)', () => {
  it('checkToken answers the member for a live token of its site', async () => {
    const token = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    const { body } = await checkToken(1000, token);
    expect(body).toMatchObject({ code: 200, data: { valid: true, user: { phone: demo(1000).phone } } });
    // The token may also come in the header.
    expect((await c.post(identityApi.checkToken.path, { siteId: 1000 }, token)).body.code).toBe(200);
  });

  it('answers 401 for a missing or unknown token', async () => {
    expect((await checkToken(1000)).body.code).toBe(401);
    expect((await checkToken(1000, 'x'.repeat(43))).body.code).toBe(401);
    expect((await checkToken(1000, "' or 1=1 --")).body.code).toBe(401);
    expect((await info('A'.repeat(43))).body.code).toBe(401);
    expect((await info('')).body.code).toBe(401);
  });

  it('a token of site 719 on site 10110 gets 416', async () => {
    const token = await c.tokenOf(719, demo(719).phone, demo(719).password);
    expect((await checkToken(719, token)).body.code).toBe(200);
    expect((await checkToken(10110, token)).body.code).toBe(416);
    expect((await info(token, 10110)).body.code).toBe(416);
    expect((await info(token, 719)).body.code).toBe(200);
  });

  it('exit invalidates the token on the server: reuse gets 416', async () => {
    const token = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    expect((await info(token)).body.code).toBe(200);
    const out = await c.post(identityApi.logout.path, { siteId: 1000 }, token);
    expect(out.body).toMatchObject({ code: 200, msg: IDENTITY_MSG.loggedOut });
    expect((await info(token)).body.code).toBe(416);
    expect((await checkToken(1000, token)).body.code).toBe(416);
    expect((await c.post(identityApi.logout.path, { siteId: 1000 }, token)).body.code).toBe(416);
    expect((await c.post(identityApi.logout.path, {})).body.code).toBe(401);
  });

  it('a new login supersedes the previous token (416)', async () => {
    const first = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    expect((await info(first)).body.code).toBe(200);
    const second = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    expect((await info(first)).body.code).toBe(416);
    expect((await info(second)).body.code).toBe(200);
  });

  it('ends a session at its absolute expiry and after idling', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const token = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    expect((await info(token)).body.code).toBe(200);
    vi.setSystemTime(Date.now() + 2 * 60 * 60_000 + 1000);
    expect((await info(token)).body.code).toBe(416);

    vi.useRealTimers();
    const other = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    await t.db
      .update(memberSession)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberSession.tokenHash, tokenHashOf(other)));
    await t.db.execute(sql`select pg_notify('sitemall_session_revoked', ${`t:${tokenHashOf(other)}`})`);
    await vi.waitFor(async () => expect((await info(other)).body.code).toBe(416));
  });

  it('drops a cached session when another process revokes it', async () => {
    const token = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    expect((await info(token)).body.code).toBe(200); // now cached
    // What another server process does on logout: update, then NOTIFY.
    await t.db
      .update(memberSession)
      .set({ revokedAt: new Date(), revokeReason: 'logout' })
      .where(eq(memberSession.tokenHash, tokenHashOf(token)));
    await t.db.execute(sql`select pg_notify('sitemall_session_revoked', ${`t:${tokenHashOf(token)}`})`);
    await vi.waitFor(async () => expect((await info(token)).body.code).toBe(416));
  });

  it('personal center data: id, phone, username and site of the member', async () => {
    const token = await c.tokenOf(1000, demo(1000).phone, demo(1000).password);
    const { body } = await info(token, 1000);
    expect(body.data).toMatchObject({
      siteId: 1000,
      phone: demo(1000).phone,
      username: null,
      hasPassword: true,
    });
    expect(Object.keys(body.data).sort()).toEqual([
      'createdAt',
      'hasPassword',
      'id',
      'phone',
      'siteId',
      'username',
    ]);
  });

  it('the same phone on two sites is two members', async () => {
    const phone = demo(719).phone;
    await seedMember(t.db, { siteId: 1000, phone, password: 'Other1000' });
    const on719 = await c.pwdLogin(719, phone, demo(719).password);
    const on1000 = await c.pwdLogin(1000, phone, 'Other1000');
    expect(on719.body.data.user.id).not.toBe(on1000.body.data.user.id);
    expect((await c.pwdLogin(1000, phone, demo(719).password)).body.code).toBe(500);
    expect((await checkToken(1000, on719.body.data.token)).body.code).toBe(416);
  });
});

describe('change password (uptPassword, section 5)', () => {
  const fresh = async (phone: string) => {
    await seedMember(t.db, { siteId: 1000, phone, password: 'Start123' });
    return c.tokenOf(1000, phone, 'Start123');
  };

  it('checks the fields in the dialog order with the spec messages', async () => {
    const token = await fresh('13700000010');
    const e = (v: string) => c.enc(v);
    expect((await uptPassword(token, { newPsw1: e('Next123'), newPsw2: e('Next123') })).msg).toBe(
      MSG.oldPasswordRequired,
    );
    expect((await uptPassword(token, { oldPsw: e('Start123'), newPsw2: e('Next123') })).msg).toBe(
      MSG.newPasswordRequired,
    );
    expect((await uptPassword(token, { oldPsw: e('Start123'), newPsw1: e('Next123') })).msg).toBe(
      MSG.confirmPasswordRequired,
    );
    expect(
      (await uptPassword(token, { oldPsw: e(''), newPsw1: e('Next123'), newPsw2: e('Next123') })).msg,
    ).toBe(MSG.oldPasswordRequired);
    expect(
      (await uptPassword(token, { oldPsw: e('Start123'), newPsw1: e('Next123'), newPsw2: e('Next124') })).msg,
    ).toBe(MSG.passwordsDiffer);
    for (const weak of ['abcdef', '123456', 'ab12', 'abc_123', `a1${'b'.repeat(19)}`]) {
      const answer = await uptPassword(token, { oldPsw: e('Start123'), newPsw1: e(weak), newPsw2: e(weak) });
      expect(answer).toEqual({ code: 400, msg: MSG.passwordRule, success: false, data: null });
    }
    const wrongOld = await uptPassword(token, {
      oldPsw: e('Wrong123'),
      newPsw1: e('Next123'),
      newPsw2: e('Next123'),
    });
    expect(wrongOld).toEqual({ code: 500, msg: IDENTITY_MSG.wrongOldPassword, success: false, data: null });
    // Nothing changed.
    expect((await c.pwdLogin(1000, '13700000010', 'Start123')).body.code).toBe(200);
  });

  it('changes the password (修改成功); the old one stops working', async () => {
    const token = await fresh('13700000011');
    const answer = await uptPassword(token, {
      oldPsw: c.enc('Start123'),
      newPsw1: c.enc('Next1234'),
      newPsw2: c.enc('Next1234'),
    });
    expect(answer).toEqual({ code: 200, msg: MSG.passwordChanged, success: true, data: null });
    expect((await info(token)).body.code).toBe(200); // this session stays
    expect((await c.pwdLogin(1000, '13700000011', 'Start123')).body.code).toBe(500);
    expect((await c.pwdLogin(1000, '13700000011', 'Next1234')).body.code).toBe(200);
  });

  it('ends the member’s other sessions', async () => {
    const phone = '13700000012';
    const token = await fresh(phone);
    // A session that exists beside the current one (e.g. issued before supersession existed).
    const otherHash = tokenHashOf('B'.repeat(43));
    const [row] = await t.db.select().from(member).where(eq(member.phone, phone));
    await t.db.insert(memberSession).values({
      tokenHash: otherHash,
      siteId: 1000,
      memberId: row!.id,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    expect((await info('B'.repeat(43))).body.code).toBe(200);
    await uptPassword(token, {
      oldPsw: c.enc('Start123'),
      newPsw1: c.enc('Next1234'),
      newPsw2: c.enc('Next1234'),
    });
    expect((await info('B'.repeat(43))).body.code).toBe(416);
    expect((await info(token)).body.code).toBe(200);
  });

  it('needs a token', async () => {
    expect((await uptPassword(undefined, { oldPsw: 'a', newPsw1: 'b', newPsw2: 'c' })).code).toBe(401);
  });
});
