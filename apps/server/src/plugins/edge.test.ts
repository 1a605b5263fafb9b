import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { identityApi, shopUrl, siteApi } from '@sitemall/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { DEMO_BANNER, DEMO_HEADER } from '../simulators/demo';
import { type TestApp, testApp } from '../test/harness';
import { createOpsApp, observabilityPlugin } from './observability';
import { HSTS, securityHeadersPlugin } from './security-headers';

/** Directives of a Content-Security-Policy header by name. */
function csp(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

/** What every answer must carry, whatever it is. */
function expectSecurityHeaders(headers: Record<string, unknown>) {
  const policy = csp(headers['content-security-policy']);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:']));
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  // Plain HTTP: no HSTS.
  expect(headers['strict-transport-security']).toBeUndefined();
}

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'sitemall-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await testApp({ webDist: dist });
  });
  afterAll(() => t.close());

  it('protect the storefront and the pay page: no inline script, no framing, nosniff, referrer policy', async () => {
    for (const url of [
      '/shoppingmall/home?siteId=719',
      '/shoppingmall/selectPayWay?orderNo=SO1&siteId=719',
    ]) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('id="root"');
      expectSecurityHeaders(page.headers);
    }
  });

  it('cover API answers, unknown paths, the old-IE notice and the simulator pages too', async () => {
    const api = await t.app.inject({
      method: 'POST',
      url: shopUrl(siteApi.getSiteConfig),
      payload: { siteId: 719 },
    });
    expectSecurityHeaders(api.headers);
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/nope' })).headers);
    const ie = await t.app.inject({
      method: 'GET',
      url: '/shoppingmall/home?siteId=719',
      headers: { 'user-agent': 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)' },
    });
    expect(ie.body).toContain('浏览器版本过低');
    expectSecurityHeaders(ie.headers);
    const scan = await t.app.inject({ method: 'GET', url: '/simulator/wechatpay/scan?pr=nope' });
    expectSecurityHeaders(scan.headers);
    const docs = await t.app.inject({ method: 'GET', url: '/front-mall-api/docs/' });
    expect(docs.statusCode).toBe(200);
    expectSecurityHeaders(docs.headers);
  });

  it('do not send HSTS for an X-Forwarded-Proto that no trusted proxy vouches for', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/shoppingmall/home',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('HSTS', () => {
  /** The plugin on a bare server that trusts (or not) its proxy, as TRUST_PROXY sets it. */
  async function server(trustProxy: boolean) {
    const app = Fastify({ trustProxy });
    await app.register(securityHeadersPlugin);
    app.get('/', async () => 'ok');
    return app;
  }
  const hsts = async (app: FastifyInstance, proto?: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/',
        headers: proto ? { 'x-forwarded-proto': proto } : {},
      })
    ).headers['strict-transport-security'];

  it('is sent only when a trusted proxy says the request came over TLS', async () => {
    const behindProxy = await server(true);
    expect(await hsts(behindProxy, 'https')).toBe(HSTS);
    expect(await hsts(behindProxy, 'http')).toBeUndefined();
    expect(await hsts(behindProxy)).toBeUndefined();
    const direct = await server(false);
    expect(await hsts(direct, 'https')).toBeUndefined();
  });
});

describe('operational endpoints', () => {
  let t: TestApp;
  let ops: FastifyInstance;
  beforeAll(async () => {
    t = await testApp();
    ops = await createOpsApp({ database: t.database, registry: t.app.metrics });
  });
  afterAll(async () => {
    await ops.close();
    await t.close();
  });

  it('serve metrics on the operators listener only', async () => {
    await t.post(shopUrl(siteApi.getSiteConfig), { siteId: 719 });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const res = await ops.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/front-mall-api\/mall\/mallsite\/getSiteConfig",status="200"\} \d+/,
    );
  });

  it('keep /healthz and a bare /readyz public', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
    expect((await ops.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });

  it('list no simulator route in the public OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/front-mall-api/docs/json' })).json();
    const paths = Object.keys(spec.paths);
    expect(paths).toContain(shopUrl(identityApi.haersLogin));
    expect(paths.filter((p) => p.startsWith('/simulator'))).toEqual([]);
    expect(JSON.stringify(spec)).not.toContain('模拟');
    // The simulators still answer on this loopback test app.
    expect((await t.app.inject({ method: 'GET', url: '/simulator/sms/outbox?phone=1' })).statusCode).toBe(
      200,
    );
  });
});

describe('readiness when the database cannot serve', () => {
  let database: Database;
  let app: FastifyInstance;
  let ops: FastifyInstance;
  beforeAll(async () => {
    database = await openDatabase({});
    await database.close();
    app = Fastify();
    await app.register(observabilityPlugin, { database });
    ops = await createOpsApp({ database, registry: app.metrics });
  });
  afterAll(async () => {
    await ops.close();
    await app.close();
  });

  it('answers 503 publicly without the reason, and with it to operators', async () => {
    const pub = await app.inject({ method: 'GET', url: '/readyz' });
    expect(pub.statusCode).toBe(503);
    expect(pub.json()).toEqual({
      code: 503,
      msg: '数据库暂时不可用，服务尚未就绪',
      success: false,
      data: null,
    });
    const detailed = await ops.inject({ method: 'GET', url: '/readyz' });
    expect(detailed.statusCode).toBe(503);
    expect(detailed.json()).toMatchObject({ status: 'unavailable', database: expect.any(String) });
    expect(detailed.json().database).not.toBe('');
  });
});

describe('simulators announce the demo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  it('with a header on their JSON answers and a banner on their pages', async () => {
    const outbox = await t.app.inject({ method: 'GET', url: '/simulator/sms/outbox?phone=13800000719' });
    expect(outbox.statusCode).toBe(200);
    expect(outbox.headers[DEMO_HEADER]).toMatch(/simulator/);
    const ticket = await t.app.inject({ method: 'GET', url: '/simulator/bank/ticket?siteId=719&userId=u1' });
    expect(ticket.headers[DEMO_HEADER]).toMatch(/simulator/);
    const scan = await t.app.inject({ method: 'GET', url: '/simulator/wechatpay/scan?pr=nope' });
    expect(scan.body).toContain(DEMO_BANNER);
    expect(scan.headers[DEMO_HEADER]).toMatch(/simulator/);
    // The mall's own answers carry no such header.
    const site = await t.app.inject({
      method: 'POST',
      url: shopUrl(siteApi.getSiteConfig),
      payload: { siteId: 719 },
    });
    expect(site.headers[DEMO_HEADER]).toBeUndefined();
  });
});
