import { FINITE_KEYWORD } from '@sitemall/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buyer } from './modules/order/order.fixtures';
import {
  BAD_BODIES,
  BAD_VALUES,
  ENCODINGS,
  encode,
  encodeRaw,
  type FieldValue,
  type JsonSchema,
  plausible,
  seededRandom,
} from './test/fuzz';
import { type TestApp, testApp } from './test/harness';

/**
 * Every POST route of the served OpenAPI, every field of its body, malformed values in all four
 * encodings, as a visitor and as a member: no answer is a 5xx, every JSON answer is the
 * envelope, and nothing is logged at error level (a client value never reaches a database
 * error). Deterministic: the rotation of encodings and callers is seeded.
 */

const SITE = 719;
/** A few seconds alone; over two minutes on a 2-core machine shared with other work. */
const FUZZ_TIMEOUT_MS = 300_000;
const PLACEHOLDER = '__bad__';
/** Inner fields of lines get the numeric and type confusions (the rest is the same parser). */
const NESTED_BAD = BAD_VALUES.filter((b) => !['huge string', 'nested', 'lone surrogate'].includes(b.name));
const ENVELOPE_KEYS = ['code', 'data', 'msg', 'success'];

interface Operation {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** A lone surrogate cannot be URI-encoded: its CESU-8 bytes are sent, which is no UTF-8 at all. */
const pathSegment = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

/** Routes whose call ends the member's session: fuzzed last so the token lives until then. */
const ENDS_SESSION = /logout/;

describe('malformed input never reaches a 5xx', () => {
  let t: TestApp;
  let token: string;
  const logs: string[] = [];
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    t = await testApp({
      logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } },
    });
    ({ token } = await buyer(t, SITE, 100_000));
    const docs = await t.app.inject({ method: 'GET', url: '/front-mall-api/docs/json' });
    paths = docs.json().paths;
  });
  afterAll(async () => {
    await t?.close();
  });

  let failures: string[] = [];
  beforeEach(() => {
    failures = [];
  });
  function check(res: LightMyRequestResponse, label: string) {
    if (res.statusCode >= 500) {
      failures.push(`${label}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
      return;
    }
    const type = String(res.headers['content-type'] ?? '');
    if (!type.includes('application/json')) {
      // Downloads (xlsx) are the only answers that are not the envelope.
      if (res.statusCode !== 200 || !res.headers['content-disposition'])
        failures.push(`${label}: HTTP ${res.statusCode} ${type} is neither the envelope nor a download`);
      return;
    }
    const body = res.json() as Record<string, unknown>;
    const keys = Object.keys(body).sort();
    if (
      keys.join() !== ENVELOPE_KEYS.join() ||
      typeof body.code !== 'number' ||
      typeof body.msg !== 'string' ||
      typeof body.success !== 'boolean'
    )
      failures.push(`${label}: not the envelope: ${res.body.slice(0, 200)}`);
  }
  const errorLogs = () =>
    logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50).map((l) => l.slice(0, 400));

  it(
    'POST routes: each field malformed, in every encoding, as visitor and member',
    async () => {
      const random = seededRandom(20_261_123);
      const routes = Object.entries(paths)
        .filter(([path, ops]) => path.startsWith('/front-mall-api/') && ops.post)
        .map(([path, ops]) => ({ path, op: ops.post as Operation }))
        .sort((a, b) => Number(ENDS_SESSION.test(a.path)) - Number(ENDS_SESSION.test(b.path)));
      expect(routes.length).toBeGreaterThan(80);

      let sent = 0;
      for (const { path, op } of routes) {
        const content = op.requestBody?.content;
        const schema = content ? Object.values(content)[0]?.schema : undefined;
        const properties = schema?.properties ?? { siteId: { type: 'integer' } };
        const required = new Set(schema?.required ?? []);
        const base: Record<string, FieldValue> = {};
        for (const [name, prop] of Object.entries(properties))
          if (required.has(name) || name === 'siteId') base[name] = { ok: plausible(prop, name, SITE) };

        // Member routes answer a visitor 401 only once the payload validates: their malformed
        // values are sent as the member (so they reach the services), a couple as a visitor.
        const probe = await t.app.inject({
          method: 'POST',
          url: path,
          payload: encode(base, 'json').payload,
        });
        const memberOnly = probe.json().code === 401;
        for (const field of Object.keys(properties)) {
          // Each field sees every encoding and both callers, starting at a seeded offset.
          const offset = Math.floor(random() * 8);
          for (const [i, bad] of BAD_VALUES.entries()) {
            const callers = memberOnly ? (i < 2 ? [false, true] : [true]) : [(offset + i) % 2 === 0];
            for (const asMember of callers) {
              const encoding = ENCODINGS[(offset + i + Number(asMember)) % ENCODINGS.length] ?? 'json';
              const { payload, contentType } = encode({ ...base, [field]: { bad } }, encoding);
              const res = await t.app.inject({
                method: 'POST',
                url: path,
                payload,
                headers: { 'content-type': contentType, ...(asMember ? { token } : {}) },
              });
              sent += 1;
              check(res, `${path} ${field}=${bad.name} (${encoding}${asMember ? ', member' : ''})`);
            }
          }
        }
        // Lines sent as a list of objects or as its JSON text: each inner field malformed.
        for (const field of Object.keys(properties)) {
          const sample = plausible(properties[field] ?? {}, field, SITE);
          const item = Array.isArray(sample) ? sample[0] : sample;
          if (!item || typeof item !== 'object') continue;
          for (const key of Object.keys(item)) {
            for (const [i, bad] of NESTED_BAD.entries()) {
              const text = `[${JSON.stringify({ ...item, [key]: PLACEHOLDER }).replace(`"${PLACEHOLDER}"`, bad.json)}]`;
              const encoding = ENCODINGS[i % ENCODINGS.length] ?? 'json';
              const { payload, contentType } = encode(
                { ...base, [field]: { bad: { name: bad.name, json: text, form: text } } },
                encoding,
              );
              const res = await t.app.inject({
                method: 'POST',
                url: path,
                payload,
                headers: { 'content-type': contentType, ...(memberOnly || i % 2 ? { token } : {}) },
              });
              sent += 1;
              check(res, `${path} ${field}[].${key}=${bad.name} (${encoding})`);
            }
          }
        }
        for (const [i, body] of BAD_BODIES.entries()) {
          const encoding = ENCODINGS[i % ENCODINGS.length] ?? 'json';
          const { payload, contentType } = encodeRaw(body, encoding);
          const res = await t.app.inject({
            method: 'POST',
            url: path,
            payload,
            headers: { 'content-type': contentType, ...(i % 2 ? { token } : {}) },
          });
          sent += 1;
          check(res, `${path} body ${JSON.stringify(body)} (${encoding})`);
        }
      }
      // The logout routes ended the session: the tests after this one get a fresh member.
      ({ token } = await buyer(t, SITE, 100_000));
      expect(failures).toEqual([]);
      expect(errorLogs()).toEqual([]);
      expect(sent).toBeGreaterThan(2000);
    },
    FUZZ_TIMEOUT_MS,
  );

  it('upload routes: files that are empty, random, broken zips or not what they claim', async () => {
    const random = seededRandom(7);
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
    const files: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['random', bytes(4096)],
      ['zip header and junk', Buffer.concat([Buffer.from('PK\u0003\u0004'), bytes(2048)])],
      ['PNG header and junk', Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), bytes(512)])],
      ['JPEG header only', Buffer.from('ffd8ff', 'hex')],
      ['csv with NUL', Buffer.from('商品ID或名称,数量\r\n1\u0000,1\r\n')],
      ['csv header only', Buffer.from('\ufeff商品ID或名称,规格,数量,收货人,手机号,省,市,区/县,详细地址\r\n')],
      ['csv of formulas', Buffer.from('=1+1,@SUM(A1),+1,-1\r\n'.repeat(50))],
      ['over the limit', Buffer.alloc(2 * 1024 * 1024 + 10, 0x41)],
    ];
    const boundary = '----sitemallfile';
    for (const [path, ops] of Object.entries(paths)) {
      const schema = Object.values(ops.post?.requestBody?.content ?? {})[0]?.schema;
      if (!path.startsWith('/front-mall-api/') || !schema?.properties?.file) continue;
      for (const [i, [name, file]] of files.entries()) {
        const payload = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="siteId"\r\n\r\n${SITE}\r\n` +
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.xlsx"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\n',
          ),
          file,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        const res = await t.app.inject({
          method: 'POST',
          url: path,
          payload,
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            ...(i % 3 ? { token } : {}),
          },
        });
        check(res, `${path} file ${name}`);
      }
    }
    expect(failures).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it('POST routes: malformed tokens in the token and Authorization headers', async () => {
    const tokens = [
      'x'.repeat(8000),
      'Infinity',
      '１２３',
      'null',
      '%00',
      'a b',
      `${token}x`,
      token.slice(1),
    ];
    for (const [path, ops] of Object.entries(paths)) {
      if (!path.startsWith('/front-mall-api/') || !ops.post) continue;
      for (const [i, bad] of tokens.entries()) {
        const headers = i % 2 ? { token: bad } : { authorization: `Bearer ${bad}` };
        const res = await t.app.inject({ method: 'POST', url: path, payload: { siteId: SITE }, headers });
        check(res, `${path} token ${bad.slice(0, 20)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it('GET routes (and the demo simulators): each query or path parameter malformed', async () => {
    for (const [path, ops] of Object.entries(paths)) {
      const simulator = path.startsWith('/simulator/');
      if (!path.startsWith('/front-mall-api/') && !simulator) continue;
      for (const [method, op] of Object.entries(ops)) {
        const params = op.parameters ?? [];
        for (const param of params) {
          for (const bad of BAD_VALUES) {
            const query = new URLSearchParams({ siteId: String(SITE) });
            const values = Array.isArray(bad.form) ? bad.form : [bad.form];
            let url = path;
            if (param.in === 'path') url = path.replace(`{${param.name}}`, pathSegment(values[0] ?? ''));
            else {
              query.delete(param.name);
              for (const v of values) query.append(param.name, v);
            }
            const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url: `${url}?${query}` });
            // The simulators speak their partners' formats; only the mall's own calls owe the envelope.
            if (simulator) {
              if (res.statusCode >= 500)
                failures.push(`${method} ${path} ${param.name}=${bad.name}: HTTP ${res.statusCode}`);
            } else check(res, `${method} ${path} ${param.name}=${bad.name}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it('media routes (not in the OpenAPI): ids out of range never reach the database', async () => {
    const names = [
      '9999999999.svg',
      '2147483648-2.svg',
      '0.svg',
      'banner-99999999999999999999.svg',
      'logo-2147483648.svg',
      'qr-0.svg',
      `${'9'.repeat(76)}.svg`,
      '%00.svg',
      '1e400.svg',
    ];
    for (const kind of ['demo', 'product', 'shop'])
      for (const name of names) {
        const res = await t.app.inject({ method: 'GET', url: `/media/${kind}/${name}` });
        if (res.statusCode >= 500) failures.push(`/media/${kind}/${name}: HTTP ${res.statusCode}`);
      }
    expect(failures).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it('the WeChat Pay simulator (served in demo mode): garbage never answers a 5xx', async () => {
    const base = '/simulator/wechatpay';
    const ids = ['x', '%00', 'a%00b', '9'.repeat(300), '%ED%A0%80'];
    const bodies = [
      '',
      '{}',
      '[]',
      '{"mchid":"a\\u0000b","appid":1e400}',
      '{"mchid":["x"],"amount":{"total":"Infinity"}}',
    ];
    const authorization =
      'WECHATPAY2-SHA256-RSA2048 mchid="a\u0001",nonce_str="x",signature="x",timestamp="Infinity",serial_no="x"';
    for (const id of ids) {
      for (const body of bodies) {
        for (const [method, url] of [
          ['POST', `${base}/v3/pay/transactions/native`],
          ['POST', `${base}/v3/pay/transactions/out-trade-no/${id}/close`],
          ['POST', `${base}/v3/refund/domestic/refunds`],
          ['GET', `${base}/v3/pay/transactions/out-trade-no/${id}?mchid=${id}`],
          ['GET', `${base}/v3/refund/domestic/refunds/${id}`],
          ['GET', `${base}/scan?code=${id}`],
          ['POST', `${base}/scan/${id}/pay`],
          ['POST', `${base}/scan/${id}/fail`],
        ] as const) {
          const res = await t.app.inject({
            method,
            url,
            headers: { 'content-type': 'application/json', authorization },
            ...(method === 'POST' ? { payload: body } : {}),
          });
          if (res.statusCode >= 500) failures.push(`${method} ${url} ${body}: HTTP ${res.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it('WeChat Pay notify routes (their own protocol): garbage never answers a 5xx', async () => {
    const siteIds = ['719', '1000', '0', '-1', 'Infinity', '2147483648', '12345678901234567890', 'x'];
    const bodies = [
      '',
      '{}',
      '[]',
      'null',
      '{"id":"x","resource":{}}',
      'a\u0000b',
      '{"id":1e400}',
      'x'.repeat(70_000),
    ];
    for (const kind of ['notify', 'refund-notify']) {
      for (const [i, siteId] of siteIds.entries()) {
        for (const body of bodies) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/front-mall-api/api/pay/wechat/${kind}/${siteId}`,
            payload: body,
            headers: {
              'content-type': 'application/json',
              'wechatpay-timestamp': i % 2 ? 'Infinity' : String(Math.floor(Date.now() / 1000)),
              'wechatpay-nonce': 'n',
              'wechatpay-signature': 'c2ln',
              'wechatpay-serial': 'x'.repeat(i * 10),
            },
          });
          if (res.statusCode >= 500)
            failures.push(`${kind}/${siteId} ${JSON.stringify(body.slice(0, 30))}: HTTP ${res.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(errorLogs()).toEqual([]);
  });

  it('request schemas as served bound every integer (x-finite, minimum, maximum) and every string', () => {
    const unbounded: string[] = [];
    const walk = (schema: JsonSchema | undefined, where: string) => {
      if (!schema) return;
      const type = schema.type;
      if (type === 'integer' || type === 'number') {
        if (schema[FINITE_KEYWORD] !== true || schema.minimum === undefined || schema.maximum === undefined)
          unbounded.push(where);
      }
      if (
        type === 'string' &&
        schema.maxLength === undefined &&
        !schema.pattern &&
        !schema.format &&
        !schema.enum &&
        schema.const === undefined
      )
        unbounded.push(where);
      for (const [k, s] of Object.entries(schema.properties ?? {})) walk(s, `${where}.${k}`);
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const s of schema.anyOf ?? []) walk(s, `${where}|`);
    };
    for (const [path, ops] of Object.entries(paths)) {
      if (!path.startsWith('/front-mall-api/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        for (const [type, c] of Object.entries(op.requestBody?.content ?? {}))
          walk(c.schema, `${method} ${path} ${type}`);
        for (const p of op.parameters ?? []) walk(p.schema, `${method} ${path} ${p.in}:${p.name}`);
      }
    }
    expect(unbounded).toEqual([]);
  });
});
