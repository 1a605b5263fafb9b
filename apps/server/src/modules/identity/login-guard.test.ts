import { IDENTITY_MSG, identityApi, shopUrl } from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type TestApp, testApp } from '../../test/harness';
import { client } from './identity.fixtures';
import { loginFailure } from './identity.tables';
import { delayAfter, LOGIN_GUARD } from './login-guard';
import { seedMember } from './members';

/** Failed logins: per (account, address), kept in the database, spraying raises an alert. */
const logLines: Record<string, unknown>[] = [];
let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await testApp({
    logger: { level: 'info', stream: { write: (line: string) => logLines.push(JSON.parse(line)) } },
  });
  c = client(t);
});
afterAll(() => t.close());

const login = (
  phone: string,
  password: string,
  ip: string,
  options: { proof?: object; headers?: Record<string, string>; app?: TestApp['app'] } = {},
) =>
  (options.app ?? t.app)
    .inject({
      method: 'POST',
      url: shopUrl(identityApi.pwdLogin),
      payload: { siteId: 1000, phone, password: c.enc(password), ...options.proof },
      remoteAddress: ip,
      headers: options.headers,
    })
    .then((res) => res.json() as { code: number; msg: string });

const sprayMetric = async () => {
  // /metrics is served by the operators' listener, from this same registry.
  const text = await t.app.metrics.metrics();
  return Number(text.match(/^sitemall_login_spray_total (\d+)/m)?.[1] ?? Number.NaN);
};

describe('login failures', () => {
  it('delays a pair a little longer after each failure, up to a maximum', () => {
    expect([1, 2, 3, 4, 5].map(delayAfter)).toEqual([0, 0, 5, 10, 20]);
    expect(delayAfter(30)).toBe(LOGIN_GUARD.maxDelaySeconds);
  });

  it('alerts (warn log and counter) when one address fails on many accounts, and asks it for image codes', async () => {
    const ip = '10.70.0.1';
    expect(await sprayMetric()).toBe(0);
    for (let i = 0; i < LOGIN_GUARD.sprayAccounts - 1; i += 1)
      expect((await login(`1370000${String(1000 + i)}`, 'Guess123', ip)).code).toBe(500);
    expect(await sprayMetric()).toBe(0);
    expect((await login('13700009999', 'Guess123', ip)).code).toBe(500);
    expect(await sprayMetric()).toBe(1);
    const alert = logLines.find((l) => l.msg === 'login spraying: one address failing on many accounts');
    expect(alert).toMatchObject({ level: 40, ip, accounts: LOGIN_GUARD.sprayAccounts });
    // From now on this address needs an image code for any account ...
    expect(await login('13800001000', 'Demo1000', ip)).toMatchObject({
      code: 400,
      msg: IDENTITY_MSG.imageCodeRequired,
    });
    expect((await login('13800001000', 'Demo1000', ip, { proof: await c.captcha(1000) })).code).toBe(200);
    // ... while other addresses log in as usual.
    expect((await login('13800001000', 'Demo1000', '10.70.0.2')).code).toBe(200);
  });

  it('logs each login with its outcome and the client address, the phone masked', async () => {
    await login('13800001000', 'Wrong123', '10.71.0.1');
    const line = logLines.find((l) => l.msg === 'login' && l.ip === '10.71.0.1');
    expect(line).toMatchObject({ outcome: 'failed', siteId: 1000, account: 'p:138****1000' });
  });

  it('lets a burst of parallel guesses reach the password no more often than one after another', async () => {
    const phone = '13700008003';
    await seedMember(t.db, { siteId: 1000, phone, password: 'Owner123' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => login(phone, 'Guess123', '10.74.0.1')),
    );
    const checked = answers.filter((a) => a.code === 500);
    expect(checked).toHaveLength(LOGIN_GUARD.pairCaptchaAfter);
    expect(answers.filter((a) => a.code === 429)).toHaveLength(12 - LOGIN_GUARD.pairCaptchaAfter);
    // The turned-away tries were not counted: the pair waits the delay of its real failures.
    const next = await login(phone, 'Owner123', '10.74.0.1');
    const seconds = Number(next.msg.match(/^尝试次数过多，请(\d+)秒后再试$/)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(delayAfter(LOGIN_GUARD.pairCaptchaAfter));
  });

  it('keeps the failures across a restart (no Redis needed)', async () => {
    const phone = '13700008001';
    await seedMember(t.db, { siteId: 1000, phone, password: 'Owner123' });
    const ip = '10.72.0.1';
    // Started before the failures: it cannot have seen them in memory.
    const restarted = await buildApp({
      database: t.database,
      secrets: t.secrets,
      sites: t.sites,
      catalogs: t.catalogs,
    });
    try {
      for (let i = 0; i < LOGIN_GUARD.pairCaptchaAfter; i += 1) await login(phone, 'Guess123', ip);
      // However long a busy machine took over them, the failures are a moment old.
      await t.db.update(loginFailure).set({ lastFailedAt: sql`now()` }).where(eq(loginFailure.ip, ip));
      expect((await login(phone, 'Owner123', ip, { app: restarted })).msg).toMatch(
        /^尝试次数过多，请\d+秒后再试$/,
      );
    } finally {
      await restarted.close();
    }
  });

  it('behind TRUST_PROXY, tells shoppers apart by the forwarded address', async () => {
    const phone = '13700008002';
    await seedMember(t.db, { siteId: 1000, phone, password: 'Owner123' });
    const behindProxy = await buildApp({
      database: t.database,
      secrets: t.secrets,
      sites: t.sites,
      catalogs: t.catalogs,
      trustProxy: ['10.73.0.1'],
    });
    try {
      const via = (client: string) => ({ app: behindProxy, headers: { 'x-forwarded-for': client } });
      for (let i = 0; i < LOGIN_GUARD.pairCaptchaAfter; i += 1)
        await login(phone, 'Guess123', '10.73.0.1', via('203.0.113.7'));
      expect((await login(phone, 'Owner123', '10.73.0.1', via('203.0.113.7'))).code).toBe(429);
      // The owner behind the same load balancer is another client.
      expect((await login(phone, 'Owner123', '10.73.0.1', via('203.0.113.8'))).code).toBe(200);
    } finally {
      await behindProxy.close();
    }
  });
});
