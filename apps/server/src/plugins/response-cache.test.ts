import type { AddressInfo } from 'node:net';
import { catalogApi, shopUrl, siteApi } from '@sitemall/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { KEPT, serve } from '../lib/serve';
import { renameLabel } from '../modules/catalog/catalog.service';
import { updateSite } from '../modules/site/site.service';
import { type TestApp, testApp } from '../test/harness';
import { bodyPlugin } from './body';
import { createResponseCache } from './response-cache';

const listen = async (app: FastifyInstance) => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

const post = (
  base: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal,
  });

/** A promise held until `letGo` is called: an answer of the application kept waiting. */
function held() {
  let letGo = () => {};
  const promise = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  return { promise, letGo };
}

/** Lets the event loop turn until `done` holds (observed, not timed), a bounded number of times. */
async function turnsUntil(done: () => boolean | Promise<boolean>) {
  for (let turn = 0; turn < 100_000 && !(await done()); turn++)
    await new Promise((resolve) => setImmediate(resolve));
}

/** What /kept answered: the payload it got and how many answers it had given. */
type Echo = { got: unknown; n: number };
// biome-ignore lint/suspicious/noExplicitAny: the product's answers are read as the tests need them.
const json = async <T = any>(res: Response): Promise<T> => (await res.json()) as T;

/** Headers Node or Fastify write per exchange, not per answer. */
const PER_EXCHANGE = ['date', 'x-request-id', 'connection', 'keep-alive'];
/** The headers of an answer but the ones written per exchange. */
const keptHeaders = (res: Response) =>
  Object.fromEntries([...res.headers].filter(([name]) => !PER_EXCHANGE.includes(name)));

/**
 * A small app behind the response cache: `/kept` answers what it was sent, with an ETag, and
 * counts the answers the application itself gave.
 */
async function smallApp(options: { keptMs?: number } = {}) {
  const cache = createResponseCache(options);
  const app = Fastify({ serverFactory: cache.serverFactory });
  const metrics = new Registry();
  app.decorate('metrics', metrics);
  const observed: { route: string; status: number }[] = [];
  app.decorate('observeRequest', (_method: string, route: string, status: number) => {
    observed.push({ route, status });
  });
  await app.register(bodyPlugin);
  await app.register(cache.plugin);
  /** `during` runs in every answer of the application; a promise it answers holds that answer. */
  const state: { answered: number; during: () => unknown } = { answered: 0, during: () => {} };
  for (const kept of [true, false])
    app.post(kept ? '/kept' : '/not-kept', { config: { responseCache: kept } }, async (req, reply) => {
      state.answered++;
      await state.during();
      const json = JSON.stringify({ got: req.body, n: state.answered });
      if ((req.body as { fail?: boolean }).fail) return reply.code(200).send({ failed: true });
      return reply.header('etag', `"${state.answered}"`).type('application/json').send(json);
    });
  const base = await listen(app);
  const counts = async () => {
    const values = (await metrics.getSingleMetric('http_response_cache_total')?.get())?.values ?? [];
    const of = (result: string) => values.find((v) => v.labels.result === result)?.value ?? 0;
    return { hit: of('hit'), miss: of('miss'), joined: of('joined') };
  };
  return { app, cache, base, state, observed, counts };
}

describe('response cache (a small app)', () => {
  let s: Awaited<ReturnType<typeof smallApp>>;
  beforeAll(async () => {
    s = await smallApp();
  });
  afterEach(() => {
    s.cache.clear();
    s.state.answered = 0;
    s.state.during = () => {};
  });
  afterAll(() => s.app.close());

  it('answers the same request again from what the application answered, without asking it', async () => {
    const first = await post(s.base, '/kept', '{"siteId":719}');
    const second = await post(s.base, '/kept', '{"siteId":719}');
    expect(s.state.answered).toBe(1);
    expect(await second.text()).toBe(await first.text());
    expect(keptHeaders(second)).toEqual(keptHeaders(first));
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await s.counts()).toEqual({ hit: 1, miss: 1, joined: 0 });
    // The hit is in the request metrics like any answer.
    expect(s.observed.at(-1)).toEqual({ route: '/kept', status: 200 });
  });

  it('keeps answers apart by body, content type and URL, and hands the body to the application intact', async () => {
    const answers = await Promise.all(
      [
        ['/kept', '{"siteId":719}', 'application/json'],
        ['/kept', '{"siteId":1000}', 'application/json'],
        ['/kept', 'siteId=719', 'application/x-www-form-urlencoded'],
        ['/kept?x=1', '{"siteId":719}', 'application/json'],
        ['/kept', '{"name":"中秋礼盒"}', 'application/json'],
      ].map(async ([path, body, type]) =>
        json<Echo>(await post(s.base, path as string, body as string, { 'content-type': type as string })),
      ),
    );
    expect(answers.map((a) => a.got)).toEqual([
      { siteId: 719 },
      { siteId: 1000 },
      { siteId: '719' },
      { siteId: 719 },
      { name: '中秋礼盒' },
    ]);
    expect(s.state.answered).toBe(5);
  });

  it('answers 304 to a client that holds the ETag, and keeps only 200s that carry one', async () => {
    const first = await post(s.base, '/kept', '{"a":1}');
    const etag = first.headers.get('etag') as string;
    const held = await post(s.base, '/kept', '{"a":1}', { 'if-none-match': etag });
    expect(held.status).toBe(304);
    expect(held.headers.get('etag')).toBe(etag);
    expect(held.headers.get('content-type')).toBeNull();
    expect(await held.text()).toBe('');
    const other = await post(s.base, '/kept', '{"a":1}', { 'if-none-match': '"nope"' });
    expect(other.status).toBe(200);
    // An answer without an ETag is the application's every time.
    await post(s.base, '/kept', '{"fail":true}');
    await post(s.base, '/kept', '{"fail":true}');
    expect(s.state.answered).toBe(3);
  });

  it("leaves members' requests, long bodies and other routes to the application", async () => {
    for (let i = 0; i < 2; i++) {
      await post(s.base, '/kept', '{"siteId":719}', { token: 'a-member' });
      await post(s.base, '/kept', '{"siteId":719}', { authorization: 'Bearer x' });
      await post(s.base, '/kept', JSON.stringify({ text: 'x'.repeat(3000) }));
      await post(s.base, '/not-kept', '{"siteId":719}');
    }
    expect(s.state.answered).toBe(8);
  });

  it('leaves multipart bodies (read from the raw request) to the application, fields intact', async () => {
    const form = () => {
      const data = new FormData();
      data.append('siteId', '719');
      return data;
    };
    for (let i = 0; i < 2; i++) {
      const answer = await json<Echo>(await fetch(`${s.base}/kept`, { method: 'POST', body: form() }));
      expect(answer.got).toEqual({ siteId: '719' });
    }
    expect(s.state.answered).toBe(2);
  });

  it('keys a forwarded protocol with the address that sent it', async () => {
    await post(s.base, '/kept', '{"siteId":719}');
    const forwarded = (await (
      await post(s.base, '/kept', '{"siteId":719}', { 'x-forwarded-proto': 'https' })
    ).json()) as Echo;
    expect(forwarded.n).toBe(2);
  });

  it('does not keep an answer computed while a change was announced', async () => {
    s.state.during = () => s.cache.clear();
    await post(s.base, '/kept', '{"siteId":719}');
    s.state.during = () => {};
    await post(s.base, '/kept', '{"siteId":719}');
    await post(s.base, '/kept', '{"siteId":719}');
    expect(s.state.answered).toBe(2);
  });

  /** Posts `n` copies of a request while the application holds its answers, then lets them go. */
  async function togetherWhileHeld(n: number, body: string, until: (joined: number) => boolean) {
    const before = await s.counts();
    const { promise, letGo } = held();
    s.state.during = () => promise;
    const answers = Array.from({ length: n }, () => post(s.base, '/kept', body));
    // The requests are in (counted) before the held answer goes.
    await turnsUntil(async () => until((await s.counts()).joined - before.joined));
    letGo();
    const responses = await Promise.all(answers);
    const after = await s.counts();
    const counted = {
      hit: after.hit - before.hit,
      miss: after.miss - before.miss,
      joined: after.joined - before.joined,
    };
    return { responses, counted };
  }

  it('asks the application once for the same requests that come while it answers (single flight)', async () => {
    const { responses: answers, counted } = await togetherWhileHeld(5, '{"siteId":719}', (j) => j === 4);
    const texts = await Promise.all(answers.map((a) => a.text()));
    expect(s.state.answered).toBe(1);
    expect(new Set(texts).size).toBe(1);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.headers.get('x-request-id'))).size).toBe(5);
    expect(counted).toEqual({ hit: 0, miss: 1, joined: 4 });
  });

  it('hands the waiting requests to the application when the answer cannot be kept', async () => {
    // An answer without an ETag (here the application's failure) is nobody else's.
    const { responses: answers, counted } = await togetherWhileHeld(3, '{"fail":true}', (j) => j === 2);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(s.state.answered).toBe(3);
    expect(counted).toEqual({ hit: 0, miss: 3, joined: 2 });
  });

  it('hands the waiting requests on when a change is announced while the first is answered', async () => {
    const { responses, counted } = await togetherWhileHeld(3, '{"siteId":1}', (j) => {
      if (j === 2) s.cache.clear();
      return j === 2;
    });
    expect(responses.map((a) => a.status)).toEqual([200, 200, 200]);
    // The first answer was computed across the change: the two that waited are the application's own.
    expect(s.state.answered).toBe(3);
    expect(counted).toEqual({ hit: 0, miss: 3, joined: 2 });
  });

  it("lets the waiting requests go on when the first one's connection is lost", async () => {
    const before = await s.counts();
    const { promise, letGo } = held();
    let calls = 0;
    // Only the first answer is held (until the end): the others come only if they are let go.
    s.state.during = () => (calls++ === 0 ? promise : undefined);
    // Without the fallback under test the others never come: the test then fails at its timeout.
    onTestFinished(letGo);
    const abort = new AbortController();
    const first = post(s.base, '/kept', '{"siteId":2}', {}, abort.signal).catch(() => 'lost');
    await turnsUntil(() => calls === 1);
    const others = [post(s.base, '/kept', '{"siteId":2}'), post(s.base, '/kept', '{"siteId":2}')];
    await turnsUntil(async () => (await s.counts()).joined - before.joined === 2);
    abort.abort();
    const answers = await Promise.all(others);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(s.state.answered).toBe(3);
    letGo();
    expect(await first).toBe('lost');
  }, 20_000);

  it('answers a malformed body as the application does, and keeps nothing of it', async () => {
    const fromApp = await s.app.inject({
      method: 'POST',
      url: '/kept',
      headers: { 'content-type': 'application/json' },
      payload: '{"siteId":',
    });
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await post(s.base, '/kept', '{"siteId":')).status);
    expect(statuses).toEqual([fromApp.statusCode, fromApp.statusCode]);
    expect(s.state.answered).toBe(0);
  });
});

it('keeps an answer a second at most (here 50 ms)', async () => {
  const s = await smallApp({ keptMs: 50 });
  try {
    await post(s.base, '/kept', '{}');
    await post(s.base, '/kept', '{}');
    await new Promise((resolve) => setTimeout(resolve, 80));
    await post(s.base, '/kept', '{}');
    expect(s.state.answered).toBe(2);
  } finally {
    await s.app.close();
  }
});

describe('response cache (declarations)', () => {
  it('keeps POSTs only of endpoints the storefront calls with JSON: a multipart body never repeats', () => {
    const app = Fastify();
    expect(() => serve(app, catalogApi.listByIds, async () => ({}) as never, KEPT)).toThrow(
      /a kept POST is called with JSON/,
    );
    for (const declared of [siteApi.getSiteConfig, catalogApi.search, catalogApi.productDetail])
      expect(declared.encoding).toBe('json');
    expect(() => serve(app, catalogApi.search, async () => ({}) as never, KEPT)).not.toThrow();
  });
});

describe('response cache (the product)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await testApp({ trustProxy: ['127.0.0.1'] });
    base = await listen(t.app);
  });
  afterAll(() => t.close());

  const siteName = async () =>
    (await json(await post(base, shopUrl(siteApi.getSiteConfig), '{"siteId":719}'))).data.mallSite.siteName;

  it("writes the application's own headers, and its 304", async () => {
    const path = shopUrl(siteApi.getSiteConfig);
    const payload = { siteId: 719 };
    const fromApp = await t.app.inject({ method: 'POST', url: path, payload });
    await post(base, path, JSON.stringify(payload));
    const kept = await post(base, path, JSON.stringify(payload));
    const appHeaders = Object.fromEntries(
      Object.entries(fromApp.headers).filter(([n]) => !PER_EXCHANGE.includes(n)),
    );
    expect(keptHeaders(kept)).toMatchObject(appHeaders);
    expect(await kept.text()).toBe(fromApp.body);

    const etag = String(fromApp.headers.etag);
    const held = await t.app.inject({
      method: 'POST',
      url: path,
      payload,
      headers: { 'if-none-match': etag },
    });
    const keptHeld = await post(base, path, JSON.stringify(payload), { 'if-none-match': etag });
    expect(keptHeld.status).toBe(held.statusCode);
    expect(Object.keys(keptHeaders(keptHeld)).sort()).toEqual(
      Object.keys(held.headers)
        .filter((n) => !PER_EXCHANGE.includes(n))
        .sort(),
    );
  });

  it('never answers from before a change of the site or its catalogue', async () => {
    expect(await siteName()).toBe(await siteName());
    await updateSite(t.db, 719, { siteName: '改名后的商城' });
    // What the NOTIFY does in every process, here at once.
    t.sites.invalidate(719);
    expect(await siteName()).toBe('改名后的商城');

    const labels = async () =>
      (await json(await post(base, shopUrl(catalogApi.lableList), '{"siteId":1000}'))).data.mallCateLables;
    const [label] = await labels();
    await labels();
    await renameLabel(t.db, 1000, label.id, '改名的标签');
    t.catalogs.invalidate(1000);
    expect((await labels())[0].lableName).toBe('改名的标签');
  });

  it('keeps the HSTS of a request a trusted proxy forwarded over TLS to that request', async () => {
    const path = shopUrl(siteApi.pcInfo);
    const plain = await post(base, path, '{"id":10110}');
    const viaTls = await post(base, path, '{"id":10110}', { 'x-forwarded-proto': 'https' });
    const plainAgain = await post(base, path, '{"id":10110}');
    expect(viaTls.headers.get('strict-transport-security')).toContain('max-age');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    expect(plainAgain.headers.get('strict-transport-security')).toBeNull();
  });
});
