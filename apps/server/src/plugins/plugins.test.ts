import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { shopUrl, siteApi } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResolver } from '../context';
import { AppError } from '../lib/errors';
import { type TestApp, testApp } from '../test/harness';

describe('envelope and error mapping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
    t.app.post('/front-mall-api/test/business', async () => {
      throw new AppError(500, '库存不足');
    });
    t.app.post('/front-mall-api/test/fault', async () => {
      throw new Error('relation "secret_table" does not exist');
    });
  });
  afterAll(() => t.close());

  it('maps the one error type into the envelope with HTTP 200', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/front-mall-api/test/business', payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 500, msg: '库存不足', success: false, data: null });
  });

  it('hides unexpected faults behind a generic msg, with a request id to find the log', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/front-mall-api/test/fault',
      payload: {},
      headers: { 'x-request-id': 'req-42' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, msg: '服务器繁忙，请稍后再试', success: false, data: null });
    expect(res.body).not.toContain('secret_table');
    expect(res.headers['x-request-id']).toBe('req-42');
  });

  it('answers an unknown API path with an envelope 404', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/front-mall-api/nope?x=1', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 404,
      msg: '接口不存在：POST /front-mall-api/nope',
      success: false,
      data: null,
    });
  });

  it('gives every response a request id, generated when the client sends none or a bad one', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    const b = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': '<script>' } });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('auth hook', () => {
  let t: TestApp;
  const member = { id: 7, siteId: 719, phone: '13800000000', username: null };
  const resolveToken: TokenResolver = async (_db, token) =>
    token === 'good'
      ? { status: 'ok', member }
      : token === 'stale'
        ? { status: 'invalid' }
        : { status: 'unknown' };

  beforeAll(async () => {
    t = await testApp({ resolveToken });
    t.app.post('/front-mall-api/test/me', { config: { auth: 'required' } }, async (req) => ({
      member: req.ctx.member,
      site: req.ctx.site?.row.id,
    }));
    t.app.post('/front-mall-api/test/maybe', async (req) => ({ member: req.ctx.member ?? null }));
    t.app.post(
      '/front-mall-api/test/typed',
      {
        config: { auth: 'required' },
        schema: {
          body: { type: 'object', required: ['orderNo'], properties: { orderNo: { type: 'integer' } } },
        },
      },
      async () => ({ ok: true }),
    );
  });
  afterAll(() => t.close());

  const me = (headers: Record<string, string>) =>
    t.app
      .inject({ method: 'POST', url: '/front-mall-api/test/me', payload: { siteId: 719 }, headers })
      .then((r) => r.json());

  it('answers 401 without a token or with an unknown one, 416 with one no longer valid', async () => {
    expect(await me({})).toMatchObject({ code: 401, success: false });
    expect(await me({ token: 'who' })).toMatchObject({ code: 401, success: false });
    expect(await me({ token: 'stale' })).toMatchObject({ code: 416, success: false });
  });

  it('reads the token header or a bearer authorization, and resolves the site', async () => {
    expect(await me({ token: 'good' })).toEqual({ member, site: 719 });
    expect(await me({ authorization: 'Bearer good' })).toEqual({ member, site: 719 });
  });

  it('checks the member before the body, so a visitor is sent to login whatever they sent', async () => {
    const typed = (headers: Record<string, string>) =>
      t.app
        .inject({ method: 'POST', url: '/front-mall-api/test/typed', payload: { orderNo: 'x' }, headers })
        .then((r) => r.json());
    expect(await typed({})).toMatchObject({ code: 401, success: false });
    expect(await typed({ token: 'stale' })).toMatchObject({ code: 416, success: false });
    expect(await typed({ token: 'good' })).toMatchObject({ code: 400, success: false });
  });

  it('treats a bad token on an open route as a visitor', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/front-mall-api/test/maybe',
      payload: {},
      headers: { token: 'stale' },
    });
    expect(res.json()).toEqual({ member: null });
  });
});

describe('health, readiness and docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  it('reports health and database readiness', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });

  it('publishes OpenAPI generated from the route schemas', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/front-mall-api/docs/json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([shopUrl(siteApi.getSiteConfig), shopUrl(siteApi.pcInfo)]),
    );
    expect(spec.paths[shopUrl(siteApi.getSiteConfig)].post.requestBody).toBeDefined();
    const page = await t.app.inject({ method: 'GET', url: '/front-mall-api/docs/' });
    expect(page.statusCode).toBe(200);
  });
});

describe('storefront', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'sitemall-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(dist, 'version.js'), 'window.__SITEMALL_VERSION__="v1"');
    // What the build writes: a hashed asset with its brotli and gzip siblings.
    const asset = 'console.log("the storefront");'.repeat(100);
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'assets/app-1234.js'), asset);
    await writeFile(path.join(dist, 'assets/app-1234.js.br'), brotliCompressSync(asset));
    await writeFile(path.join(dist, 'assets/app-1234.js.gz'), gzipSync(asset));
    t = await testApp({ webDist: dist });
  });
  afterAll(() => t.close());

  it('serves the app under /shoppingmall/ with the history fallback', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/shoppingmall/productDetails?siteId=719&id=5' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-store');
    const version = await t.app.inject({ method: 'GET', url: '/shoppingmall/version.js?t=123' });
    expect(version.body).toContain('__SITEMALL_VERSION__');
    expect(version.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/shoppingmall/assets/gone-1234.js' })).statusCode).toBe(
      404,
    );
    const root = await t.app.inject({ method: 'GET', url: '/' });
    expect(root.headers.location).toBe('/shoppingmall/home');
  });

  it('redirects / and /shoppingmall to the home page with the query it was given (the site)', async () => {
    for (const url of ['/?siteId=719', '/shoppingmall?siteId=719']) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe('/shoppingmall/home?siteId=719');
    }
    expect((await t.app.inject({ method: 'GET', url: '/shoppingmall' })).headers.location).toBe(
      '/shoppingmall/home',
    );
  });

  it('sends the build’s brotli or gzip sibling of an asset to a browser that accepts it', async () => {
    const get = (encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/shoppingmall/assets/app-1234.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('the storefront');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('the storefront');
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('the storefront');
  });

  it('answers old IE with a notice; a bank site sends it to the bank app', async () => {
    const ie = 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)';
    const bank = await t.app.inject({
      method: 'GET',
      url: '/shoppingmall/home?siteId=719',
      headers: { 'user-agent': ie },
    });
    expect(bank.statusCode).toBe(200);
    expect(bank.body).toContain('汇通银行手机银行 App 或微信公众号');
    expect(bank.body).not.toContain('id="root"');
    const plain = await t.app.inject({
      method: 'GET',
      url: '/shoppingmall/home?siteId=1000',
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko' },
    });
    expect(plain.body).toContain('请更换其他浏览器');
    const chrome = await t.app.inject({
      method: 'GET',
      url: '/shoppingmall/home?siteId=719',
      headers: { 'user-agent': 'Mozilla/5.0 Chrome/140.0' },
    });
    expect(chrome.body).toContain('id="root"');
  });
});
