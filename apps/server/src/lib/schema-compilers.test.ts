import { shopUrl, siteApi } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../test/harness';
import { compileEverySchema, schemasNotYetCompiled } from './schema-compilers';

describe('route schemas compile on first use', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('a started app has compiled none of the routes it has not served', () => {
    // ~250 routes, each with a body or query schema and a response schema
    expect(schemasNotYetCompiled()).toBeGreaterThan(300);
  });

  it("a route's first request compiles its schemas: refusals keep Ajv's message, answers are serialised", async () => {
    const before = schemasNotYetCompiled();
    const url = shopUrl(siteApi.getSiteConfig);
    const refused = await t.app.inject({ method: 'POST', url, payload: { siteId: 'abc' } });
    expect(refused.json()).toMatchObject({ code: 400, msg: '参数 siteId 格式不正确', data: null });
    // coerced in place (Fastify hands Ajv the parent object through schemaEnv's presence)
    const served = await t.app.inject({
      method: 'POST',
      url,
      payload: 'siteId=719',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(served.json()).toMatchObject({ code: 200, data: { mallSite: { cashUnit: '积分' } } });
    expect(schemasNotYetCompiled()).toBeLessThan(before);
  });

  it("every route's schemas compile", () => {
    expect(() => compileEverySchema()).not.toThrow();
    expect(schemasNotYetCompiled()).toBe(0);
  });
});
