import { cartApi, catalogApi, shopUrl, siteApi } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../modules/identity/identity.fixtures';
import { type TestApp, testApp } from '../test/harness';
import { parsePayload } from './body';

const URL = shopUrl(siteApi.getSiteConfig);

describe('parsePayload', () => {
  it('reads JSON, a JSON string, URL-encoded text and repeated keys alike', () => {
    expect(parsePayload('{"siteId":719}', 'json')).toEqual({ siteId: 719 });
    expect(parsePayload('"{\\"siteId\\":719}"', 'json')).toEqual({ siteId: 719 });
    expect(parsePayload('siteId=719&a=1&a=2', 'form')).toEqual({ siteId: '719', a: ['1', '2'] });
    expect(parsePayload('{"siteId":719}', 'form')).toEqual({ siteId: 719 });
    expect(parsePayload('  ', 'json')).toEqual({});
  });

  it('drops keys that would reach a prototype, in JSON and URL-encoded text', () => {
    const json = parsePayload(
      '{"siteId":1,"__proto__":{"polluted":1},"a":{"constructor":{"prototype":{}}}}',
      'json',
    );
    expect(json).toEqual({ siteId: 1, a: {} });
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    // The same keys written with escapes are dropped too.
    const escaped = parsePayload(
      '{"siteId":1,"\\u005f_proto__":{"polluted":1},"\\u0063onstructor":2}',
      'json',
    );
    expect(escaped).toEqual({ siteId: 1 });
    const form = parsePayload('siteId=1&__proto__=x&__proto__=y&constructor=z', 'form');
    expect(form).toEqual({ siteId: '1' });
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses JSON that is not an object', () => {
    expect(() => parsePayload('[1,2]', 'json')).toThrow('请求体必须是一个对象');
    expect(() => parsePayload('{broken', 'json')).toThrow('请求体不是有效的 JSON');
    expect(() => parsePayload('42', 'json')).toThrow('请求体必须是一个对象');
  });
});

describe('every POST accepts all four encodings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  const siteNameOf = (res: { json(): unknown }) =>
    (res.json() as { data: { mallSite: { siteName: string } } | null }).data?.mallSite.siteName;

  it('JSON with a numeric string is coerced', async () => {
    const res = await t.app.inject({ method: 'POST', url: URL, payload: { siteId: '719' } });
    expect(siteNameOf(res)).toBe('汇通银行信用卡积分商城');
  });

  it('a raw JSON string, as JSON or as text', async () => {
    for (const contentType of ['application/json', 'text/plain']) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: { 'content-type': contentType },
        payload: JSON.stringify(JSON.stringify({ siteId: 10110 })),
      });
      expect(siteNameOf(res)).toBe('云企员工福利商城');
    }
  });

  it('URL-encoded form', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'siteId=1000',
    });
    expect(siteNameOf(res)).toBe('乐享积分商城');
  });

  it('multipart form data', async () => {
    const form = new FormData();
    form.append('siteId', '719');
    const request = new Request('http://x', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(siteNameOf(res)).toBe('汇通银行信用卡积分商城');
  });
});

describe('bad bodies answer the envelope, never a 5xx', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  const cases: [string, Record<string, string>, string | Buffer, number, string][] = [
    ['missing body', {}, '', 400, '缺少参数：siteId'],
    [
      'non-numeric siteId',
      { 'content-type': 'application/json' },
      '{"siteId":"abc"}',
      400,
      '参数 siteId 格式不正确',
    ],
    [
      'negative siteId',
      { 'content-type': 'application/json' },
      '{"siteId":-3}',
      400,
      '参数 siteId 超出允许范围',
    ],
    [
      'huge siteId',
      { 'content-type': 'application/json' },
      '{"siteId":99999999999999999999}',
      400,
      '参数 siteId 超出允许范围',
    ],
    ['broken JSON', { 'content-type': 'application/json' }, '{"siteId":', 400, '请求体不是有效的 JSON'],
    ['a JSON array', { 'content-type': 'application/json' }, '[719]', 400, '请求体必须是一个对象'],
    [
      'broken multipart',
      { 'content-type': 'multipart/form-data; boundary=----x' },
      '------x\r\nContent-Disposition: form-data; name="siteId"\r\n\r\n719',
      400,
      '',
    ],
    ['multipart without boundary', { 'content-type': 'multipart/form-data' }, 'siteId=1', 400, ''],
    [
      'a body over 1 MB',
      { 'content-type': 'application/json' },
      `{"siteId":719,"x":"${'a'.repeat(1_100_000)}"}`,
      413,
      '请求内容过大（上限 1 MB）',
    ],
  ];

  it.each(cases)('%s', async (_name, headers, payload, code, msg) => {
    const res = await t.app.inject({ method: 'POST', url: URL, headers, payload });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code, success: false, data: null });
    if (msg) expect(body.msg).toBe(msg);
    else expect(body.msg).toMatch(/\S/);
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});

describe('malformed numbers are a 400 in every encoding (contract numbers.ts)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  const BOUNDARY = '----n';
  const encodings: [string, (field: string, value: string) => { contentType: string; payload: string }][] = [
    ['JSON', (f, v) => ({ contentType: 'application/json', payload: `{"${f}":${JSON.stringify(v)}}` })],
    ['JSON number', (f, v) => ({ contentType: 'application/json', payload: `{"${f}":${v}}` })],
    ['JSON string', (f, v) => ({ contentType: 'text/plain', payload: JSON.stringify(`{"${f}":"${v}"}`) })],
    [
      'URL-encoded',
      (f, v) => ({
        contentType: 'application/x-www-form-urlencoded',
        payload: `${f}=${encodeURIComponent(v)}`,
      }),
    ],
    [
      'multipart',
      (f, v) => ({
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
        payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${f}"\r\n\r\n${v}\r\n--${BOUNDARY}--\r\n`,
      }),
    ],
  ];
  const cases: [string, string][] = [
    ['Infinity', '参数 siteId 格式不正确'],
    ['-Infinity', '参数 siteId 格式不正确'],
    // Digits only, but AJV's coercion makes Infinity of them: the x-finite keyword refuses it.
    ['9'.repeat(400), '参数 siteId 超出允许范围'],
    ['1e400', '参数 siteId 格式不正确'],
    ['12345678901234567890', '参数 siteId 超出允许范围'],
    ['2147483648', '参数 siteId 超出允许范围'],
    ['0x2CF', '参数 siteId 格式不正确'],
    ['7.19e2', '参数 siteId 格式不正确'],
    [' 719', '参数 siteId 格式不正确'],
  ];

  it.each(cases)('siteId=%.30s', async (value, msg) => {
    for (const [name, encode] of encodings) {
      // A bare Infinity or hex literal is not JSON: the JSON parser's own message answers it.
      if (name === 'JSON number' && !/^-?\d+$/.test(value)) continue;
      const { contentType, payload } = encode('siteId', value);
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        headers: { 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, name).toBe(200);
      const body = res.json();
      expect(body, name).toMatchObject({ code: 400, success: false, data: null });
      // A JSON number too large parses as Infinity, which is no integer at all.
      const jsonInfinity = name === 'JSON number' && !Number.isFinite(Number(value));
      expect(body.msg, name).toBe(jsonInfinity ? '参数 siteId 格式不正确' : msg);
    }
  });

  it('lines sent as a JSON text follow the same rule inside (no truncation of 1.9 or 1e400)', async () => {
    const stock = (productId: string) =>
      t.app.inject({
        method: 'POST',
        url: shopUrl(catalogApi.combinedStock),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          siteId: '719',
          productInfos: `[{"productId":${productId},"specificationId":"1","num":1}]`,
        }).toString(),
      });
    expect((await stock('"1"')).json()).toMatchObject({ code: 200, success: true });
    for (const bad of ['"1e400"', '1e400', '"0x1"', '1.9', 'true', '"1.0"', '" 1"']) {
      const res = await stock(bad);
      expect(res.json(), bad).toMatchObject({ code: 400, msg: '参数 productInfos 格式不正确' });
    }
  });

  it('a member route: cart quantity and line id', async () => {
    // The member check comes before the body's (issue 11): a member sends these.
    const token = await client(t).tokenOf(719, '13800000719', 'Demo0719');
    for (const [field, value] of [
      ['id', 'Infinity'],
      ['num', '1e400'],
      ['id', '99999999999999999999'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: shopUrl(cartApi.updateNum),
        headers: { 'content-type': 'application/x-www-form-urlencoded', token },
        payload: `siteId=719&id=1&num=1&${field}=${value}`,
      });
      expect(res.json()).toMatchObject({ code: 400, success: false });
    }
  });
});
