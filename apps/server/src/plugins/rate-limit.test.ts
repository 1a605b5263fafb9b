import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { catalogApi, IDENTITY_MSG, identityApi, type MerchantApplication, shopUrl } from '@sitemall/contract';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { merchantApplication, serviceMessage, uploadDay } from '../db/schema';
import { client } from '../modules/identity/identity.fixtures';
import { IMAGES } from '../modules/media/media.fixtures';
import { UPLOAD_DAY_QUOTA_BYTES, UPLOAD_QUOTA_MSG } from '../modules/media/uploads';
import { uploadLicenceFile } from '../modules/merchant/merchant.fixtures';
import { type TestApp, testApp } from '../test/harness';

/**
 * Anonymous writes and look-ups are limited per client address (@fastify/rate-limit over the
 * app's limiter: the database, or Redis), uploads also by a daily quota, and look-ups by phone
 * answer only a person who solved an image code.
 */
let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await testApp();
  c = client(t);
});
afterAll(() => t.close());

const count = async (table: typeof serviceMessage | typeof merchantApplication) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
const licenceFiles = async () => {
  try {
    return (await readdir(path.join(t.dataDir, 'uploads', 'licence'))).length;
  } catch {
    return 0;
  }
};
const message = (ip: string, headers: Record<string, string> = {}, app = t.app) =>
  app
    .inject({
      method: 'POST',
      url: shopUrl(catalogApi.serviceMessage),
      payload: {
        siteId: 10110,
        name: '李四',
        phone: '13900000000',
        topic: '其他',
        content: '请联系我，谢谢。',
      },
      remoteAddress: ip,
      headers,
    })
    .then((res) => res.json() as { code: number; msg: string });

describe('anonymous writes', () => {
  it('limits licence uploads per address and writes nothing once refused', async () => {
    const ip = '10.81.0.1';
    for (let i = 0; i < 10; i += 1)
      expect((await uploadLicenceFile(t.app, IMAGES.png, { ip })).body.code).toBe(200);
    const files = await licenceFiles();
    const refused = await uploadLicenceFile(t.app, IMAGES.png, { ip });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ code: 429, success: false, data: null });
    expect(refused.body.msg).toMatch(/^上传过于频繁，请\d+分钟后再试$/);
    expect(await licenceFiles()).toBe(files);
    // Another address is not affected.
    expect((await uploadLicenceFile(t.app, IMAGES.png, { ip: '10.81.0.2' })).body.code).toBe(200);
  });

  it('stops uploads for the day once the disk quota is used up', async () => {
    await t.db
      .insert(uploadDay)
      .values({ day: sql`(now() at time zone 'utc')::date`, bytes: UPLOAD_DAY_QUOTA_BYTES - 10 })
      .onConflictDoUpdate({ target: uploadDay.day, set: { bytes: UPLOAD_DAY_QUOTA_BYTES - 10 } });
    const files = await licenceFiles();
    const refused = await uploadLicenceFile(t.app, IMAGES.jpg, { ip: '10.81.1.1' });
    expect(refused.body).toMatchObject({ code: 429, msg: UPLOAD_QUOTA_MSG });
    expect(await licenceFiles()).toBe(files);
    await t.db.delete(uploadDay);
  });

  it('limits merchant applications per address', async () => {
    const ip = '10.82.0.1';
    const { url } = (await uploadLicenceFile(t.app, IMAGES.png, { ip: '10.82.9.9' })).body.data!;
    const apply = (i: number) =>
      c.post<MerchantApplication>(
        catalogApi.merchantApply.path,
        {
          siteId: 719,
          phone: `1380000${String(1000 + i)}`,
          contactName: '张三',
          companyName: '杭州好物贸易有限公司',
          shopName: '好物优选',
          creditCode: '91330100MA2A777717',
          licenceUrl: url,
          mainCategory: '食品酒水',
        },
        undefined,
        ip,
      );
    for (let i = 0; i < 10; i += 1) expect((await apply(i)).body.code).toBe(200);
    const before = await count(merchantApplication);
    const refused = await apply(10);
    expect(refused.body.code).toBe(429);
    expect(refused.body.msg).toMatch(/^提交过于频繁，请\d+分钟后再试$/);
    expect(await count(merchantApplication)).toBe(before);
  });

  it('limits customer-service messages per address', async () => {
    const ip = '10.83.0.1';
    for (let i = 0; i < 5; i += 1) expect((await message(ip)).code).toBe(200);
    const before = await count(serviceMessage);
    const refused = await message(ip);
    expect(refused.code).toBe(429);
    expect(refused.msg).toMatch(/^留言过于频繁，请\d+分钟后再试$/);
    expect(await count(serviceMessage)).toBe(before);
  });

  it('limits SMS sends per address per minute before the hourly caps', async () => {
    const ip = '10.84.0.1';
    for (let i = 0; i < 10; i += 1) {
      const sent = await c.post(
        identityApi.sendSmsCode.path,
        { siteId: 719, phone: `1360000${String(2000 + i)}`, purpose: 'login', ...(await c.captcha(719)) },
        undefined,
        ip,
      );
      expect(sent.body.code).toBe(200);
    }
    const refused = await c.post(
      identityApi.sendSmsCode.path,
      { siteId: 719, phone: '13600002010', purpose: 'login', ...(await c.captcha(719)) },
      undefined,
      ip,
    );
    expect(refused.body).toMatchObject({ code: 429, msg: IDENTITY_MSG.tooManyRequests });
  });
});

describe('look-ups by phone', () => {
  it('isRegistered answers a person only, the same shape for unknown numbers', async () => {
    const ask = async (phone: string, proof: object, token?: string) =>
      (
        await c.post<{ registered: boolean }>(
          identityApi.isRegistered.path,
          { siteId: 719, phone, ...proof },
          token,
        )
      ).body;
    expect(await ask('13800000719', {})).toMatchObject({ code: 400, msg: IDENTITY_MSG.imageCodeRequired });
    expect(await ask('13800000719', { captchaId: 'x', imageCode: 'abcd' })).toMatchObject({
      code: 400,
      msg: IDENTITY_MSG.wrongImageCode,
    });
    const known = await ask('13800000719', await c.captcha(719));
    const unknown = await ask('13899999999', await c.captcha(719));
    expect(known).toEqual({ code: 200, msg: 'success', success: true, data: { registered: true } });
    expect(unknown).toEqual({ ...known, data: { registered: false } });
    // An image code answers one question.
    const once = await c.captcha(719);
    expect((await ask('13800000719', once)).code).toBe(200);
    expect((await ask('13800000719', once)).msg).toBe(IDENTITY_MSG.wrongImageCode);
    // The member asking about their own (SMS-verified) phone needs no image code.
    const token = await c.tokenOf(719, '13800000719', 'Demo0719');
    expect((await ask('13800000719', {}, token)).data).toEqual({ registered: true });
  });

  it('isRegistered is limited per address', async () => {
    const ip = '10.85.0.1';
    const ask = () =>
      c.post(identityApi.isRegistered.path, { siteId: 719, phone: '13800000719' }, undefined, ip);
    for (let i = 0; i < 10; i += 1) expect((await ask()).body.code).toBe(400);
    expect((await ask()).body).toMatchObject({ code: 429, msg: IDENTITY_MSG.tooManyRequests });
  });

  it('applyStatus by phone answers a person only, the same shape for unknown numbers', async () => {
    const { url } = (await uploadLicenceFile(t.app, IMAGES.png, { ip: '10.86.9.9' })).body.data!;
    const phone = '13800003001';
    await c.post(catalogApi.merchantApply.path, {
      siteId: 719,
      phone,
      contactName: '王五',
      companyName: '杭州示例科技有限公司',
      shopName: '示例小店',
      creditCode: '91330100MA2A777717',
      licenceUrl: url,
      mainCategory: '数码家电',
    });
    const status = async (body: object) =>
      (
        await c.post<{ list: MerchantApplication[] }>(catalogApi.merchantStatus.path, {
          siteId: 719,
          ...body,
        })
      ).body;
    expect(await status({ phone })).toMatchObject({
      code: 400,
      msg: IDENTITY_MSG.imageCodeRequired,
      data: null,
    });
    const known = await status({ phone, ...(await c.captcha(719)) });
    expect(known.data.list.map((a) => a.shopName)).toEqual(['示例小店']);
    const unknown = await status({ phone: '13800003002', ...(await c.captcha(719)) });
    expect(unknown).toEqual({ ...known, data: { list: [] } });
  });
});

describe('counters outlive the process and follow TRUST_PROXY', () => {
  it('keeps counting after a restart without Redis (the database holds the windows)', async () => {
    const ip = '10.87.0.1';
    for (let i = 0; i < 5; i += 1) expect((await message(ip)).code).toBe(200);
    const restarted = await buildApp({
      database: t.database,
      secrets: t.secrets,
      sites: t.sites,
      catalogs: t.catalogs,
      dataDir: t.dataDir,
    });
    try {
      expect((await message(ip, {}, restarted)).code).toBe(429);
    } finally {
      await restarted.close();
    }
  });

  it('without TRUST_PROXY ignores X-Forwarded-For; with it, counts each forwarded client', async () => {
    const proxy = '10.88.0.1';
    for (let i = 0; i < 5; i += 1)
      expect((await message(proxy, { 'x-forwarded-for': `203.0.113.${i}` })).code).toBe(200);
    // Forged headers do not buy a direct client new addresses.
    expect((await message(proxy, { 'x-forwarded-for': '203.0.113.99' })).code).toBe(429);

    const behindProxy = await buildApp({
      database: t.database,
      secrets: t.secrets,
      sites: t.sites,
      catalogs: t.catalogs,
      dataDir: t.dataDir,
      trustProxy: ['10.89.0.0/16'],
    });
    try {
      const lb = '10.89.0.1';
      // Behind the load balancer every shopper has an own count ...
      for (let i = 0; i < 6; i += 1)
        expect((await message(lb, { 'x-forwarded-for': `198.51.100.${i}` }, behindProxy)).code).toBe(200);
      // ... and one shopper still meets the limit.
      for (let i = 0; i < 4; i += 1) await message(lb, { 'x-forwarded-for': '198.51.100.0' }, behindProxy);
      expect((await message(lb, { 'x-forwarded-for': '198.51.100.0' }, behindProxy)).code).toBe(429);
      // A client that is not the proxy cannot pick its address.
      for (let i = 0; i < 5; i += 1)
        await message('10.90.0.1', { 'x-forwarded-for': `192.0.2.${i}` }, behindProxy);
      expect((await message('10.90.0.1', { 'x-forwarded-for': '192.0.2.200' }, behindProxy)).code).toBe(429);
    } finally {
      await behindProxy.close();
    }
  });

  it('a hop count trusts the nearest proxies only', async () => {
    const hops = await buildApp({
      database: t.database,
      secrets: t.secrets,
      sites: t.sites,
      catalogs: t.catalogs,
      dataDir: t.dataDir,
      trustProxy: 1,
    });
    try {
      // One hop: the address the proxy appended is the client, what the client claimed is not.
      for (let i = 0; i < 5; i += 1)
        expect(
          (await message('10.91.0.1', { 'x-forwarded-for': `192.0.2.${i}, 198.18.0.1` }, hops)).code,
        ).toBe(200);
      expect((await message('10.91.0.1', { 'x-forwarded-for': '192.0.2.77, 198.18.0.1' }, hops)).code).toBe(
        429,
      );
      expect((await message('10.91.0.1', { 'x-forwarded-for': '198.18.0.2' }, hops)).code).toBe(200);
    } finally {
      await hops.close();
    }
  });
});

// Redis: run with TEST_REDIS_URL=redis://127.0.0.1:6379 (CI sets it; without it this is skipped).
const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('with Redis (REDIS_URL)', () => {
  it('shares the per-address counts between two server processes', async () => {
    const redis = new Redis(redisUrl as string);
    const deps = {
      database: t.database,
      secrets: t.secrets,
      sites: t.sites,
      catalogs: t.catalogs,
      dataDir: t.dataDir,
      redis,
    };
    const a = await buildApp(deps);
    const b = await buildApp(deps);
    try {
      const ip = `10.92.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      await redis.del(`sitemall:limit:rl:serviceMessage:${ip}`);
      for (let i = 0; i < 5; i += 1) expect((await message(ip, {}, i % 2 ? a : b)).code).toBe(200);
      expect((await message(ip, {}, a)).code).toBe(429);
      expect((await message(ip, {}, b)).code).toBe(429);
      // Redis, not the database, held the count.
      expect(await redis.get(`sitemall:limit:rl:serviceMessage:${ip}`)).toBe('7');
    } finally {
      await a.close();
      await b.close();
      await redis.quit();
    }
  });
});
