import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../test/harness';

describe('operator console app beside the storefront', () => {
  let t: TestApp;
  beforeAll(async () => {
    const make = async (marker: string) => {
      const dist = await mkdtemp(path.join(tmpdir(), 'sitemall-dist-'));
      await writeFile(path.join(dist, 'index.html'), `<!doctype html><div id="${marker}"></div>`);
      return dist;
    };
    t = await testApp({ webDist: await make('store'), adminDist: await make('console') });
  });
  afterAll(() => t.close());

  it('serves each app under its own base with the history fallback', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/admin/orders?siteId=719' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="console"');
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/admin/assets/gone-1234.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/admin' })).headers.location).toBe('/admin/');
    const store = await t.app.inject({ method: 'GET', url: '/shoppingmall/home' });
    expect(store.body).toContain('id="store"');
  });

  it('says how to build the console when it is not built', async () => {
    const bare = await testApp({ adminDist: path.join(tmpdir(), 'sitemall-no-such-dist') });
    const answer = await bare.app.inject({ method: 'GET', url: '/admin/' });
    expect(answer.statusCode).toBe(503);
    expect(answer.body).toContain('npm run build -w @sitemall/admin');
    await bare.close();
  });
});
