import { batchApi, catalogApi, shopUrl, siteApi } from '@sitemall/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getItem, LOCAL_KEYS, SESSION_KEYS, session, setItem, setSiteId } from '../site/storage.ts';
import { call } from './client.ts';
import { configureRequest, download, encodeBody, request, resetRequest } from './request.ts';

interface FakeAnswer {
  status?: number;
  body?: unknown;
  raw?: string;
}

function fakeResponse({ status = 200, body, raw }: FakeAnswer): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    json: async () => (raw !== undefined ? JSON.parse(raw) : body),
  } as Response;
}

const envelope = (code: number, data: unknown = null, msg = '') => ({
  code,
  msg,
  success: code === 200,
  data,
});

let fetchMock: ReturnType<typeof vi.fn>;
let navigate: ReturnType<typeof vi.fn>;
let toast: ReturnType<typeof vi.fn>;

function answer(next: FakeAnswer | (() => Promise<Response>)) {
  fetchMock.mockImplementation(typeof next === 'function' ? next : async () => fakeResponse(next));
}

const lastInit = (): RequestInit => fetchMock.mock.calls.at(-1)?.[1] as RequestInit;
const lastHeaders = (): Record<string, string> => lastInit().headers as Record<string, string>;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetRequest();
  fetchMock = vi.fn();
  navigate = vi.fn();
  toast = vi.fn();
  configureRequest({
    fetch: fetchMock as unknown as typeof fetch,
    navigate,
    toast,
    currentPath: () => '/myOrder?siteId=719',
    address: () => 'http://127.0.0.1/shoppingmall/myOrder?siteId=719',
  });
});

afterEach(() => resetRequest());

describe('encodings', () => {
  it('sends multipart form data by default, nested values as JSON, without a content type', async () => {
    answer({ body: envelope(200) });
    await request('/api/x', { siteId: 719, productInfo: [{ productId: 1, num: 2 }], skip: undefined });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/front-mall-api/api/x');
    const init = lastInit();
    expect(init.method).toBe('POST');
    expect(init.body).toBeInstanceOf(FormData);
    const form = init.body as FormData;
    expect(form.get('siteId')).toBe('719');
    expect(form.get('productInfo')).toBe('[{"productId":1,"num":2}]');
    expect(form.has('skip')).toBe(false);
    expect(lastHeaders()['content-type']).toBeUndefined();
  });

  it('sends a file as a multipart part of its own', async () => {
    answer({ body: envelope(200) });
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'licence.png', { type: 'image/png' });
    await request('/api/upload', { siteId: 719, file }, { repeat: true });
    const form = lastInit().body as FormData;
    expect(form.get('siteId')).toBe('719');
    const sent = form.get('file') as File;
    expect(sent.name).toBe('licence.png');
    expect(sent.size).toBe(4);
  });

  it('sends JSON with application/json', async () => {
    answer({ body: envelope(200) });
    await request('/api/x', { siteId: 719 }, { encoding: 'json' });
    expect(lastInit().body).toBe('{"siteId":719}');
    expect(lastHeaders()['content-type']).toBe('application/json');
  });

  it('sends URL-encoded fields', async () => {
    answer({ body: envelope(200) });
    await request('/api/x', { siteId: 719, name: 'a b' }, { encoding: 'urlencoded' });
    expect(lastInit().body).toBe('siteId=719&name=a+b');
    expect(lastHeaders()['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
  });

  it('sends raw as a JSON string with text/plain', async () => {
    answer({ body: envelope(200) });
    await request('/api/x', { siteId: 719 }, { encoding: 'raw' });
    expect(lastInit().body).toBe('{"siteId":719}');
    expect(lastHeaders()['content-type']).toMatch(/^text\/plain/);
  });

  it('puts the payload in the query string for GET', async () => {
    answer({ body: envelope(200) });
    await request(siteApi.clientKeys.path, { siteId: 719 }, { method: 'GET' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`${shopUrl(siteApi.clientKeys)}?siteId=719`);
    expect(lastInit().method).toBe('GET');
    expect(lastInit().body).toBeUndefined();
  });

  it('posts the public reads as JSON: the same call is the same body, which the server answers again', async () => {
    answer({ body: envelope(200, {}) });
    for (let i = 0; i < 2; i++) await call(catalogApi.search, { siteId: '719', itemName: '茶' });
    const [first, second] = fetchMock.mock.calls.map(([, init]) => init as RequestInit);
    expect(first?.body).toBe('{"siteId":"719","itemName":"茶"}');
    expect(second?.body).toBe(first?.body);
    expect(lastHeaders()['content-type']).toBe('application/json');
  });

  it('encodeBody is exported for the forms that need it', () => {
    expect(encodeBody({ a: 1 }, 'json')).toEqual({ body: '{"a":1}', contentType: 'application/json' });
  });
});

describe('token header', () => {
  it('sends the stored token of the current site', async () => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 'tok-719');
    answer({ body: envelope(200) });
    await request('/api/x');
    expect(lastHeaders().token).toBe('tok-719');
  });

  it('sends no token header when logged out', async () => {
    answer({ body: envelope(200) });
    await request('/api/x');
    expect(lastHeaders().token).toBeUndefined();
  });
});

describe('answer codes', () => {
  it('resolves with the envelope', async () => {
    answer({ body: envelope(200, { siteName: 'A' }) });
    const result = await request<{ siteName: string }>('/api/x');
    expect(result).toEqual({ code: 200, msg: '', success: true, data: { siteName: 'A' } });
  });

  it('rewrites code 0 to 200 with success true', async () => {
    answer({ body: { code: 0, msg: 'ok', success: false, data: 1 } });
    const result = await request('/api/x', {}, { warn: true });
    expect(result.code).toBe(200);
    expect(result.success).toBe(true);
    expect(toast).not.toHaveBeenCalled();
  });

  it.each([400, 222, 200, 1])('treats code %i as normal: no toast even with warn', async (code) => {
    answer({ body: envelope(code, null, 'something') });
    await request('/api/x', {}, { warn: true });
    expect(toast).not.toHaveBeenCalled();
  });

  it('toasts the msg of other codes when warn is set', async () => {
    answer({ body: envelope(500, null, '库存不足') });
    const result = await request('/api/x', {}, { warn: true });
    expect(result.code).toBe(500);
    expect(toast).toHaveBeenCalledWith('库存不足');
  });

  it('stays quiet about failures without warn', async () => {
    answer({ body: envelope(500, null, '库存不足') });
    await request('/api/x');
    expect(toast).not.toHaveBeenCalled();
  });
});

describe('in-flight calls', () => {
  it('shares one promise between identical calls in flight', async () => {
    let release: (r: Response) => void = () => {};
    answer(
      () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    );
    const first = request(catalogApi.lableList.path, { siteId: 719, a: 1 });
    const second = request(catalogApi.lableList.path, { a: 1, siteId: 719 });
    expect(second).toBe(first);
    release(fakeResponse({ body: envelope(200) }));
    await Promise.all([first, second]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends again once the first call has finished', async () => {
    answer({ body: envelope(200) });
    await request(catalogApi.lableList.path, { siteId: 719 });
    await request(catalogApi.lableList.path, { siteId: 719 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not share calls with a different payload', async () => {
    answer({ body: envelope(200) });
    await Promise.all([request('/api/x', { siteId: 1 }), request('/api/x', { siteId: 2 })]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('sends identical calls separately with repeat', async () => {
    answer({ body: envelope(200) });
    const first = request('/api/x', { siteId: 719 }, { repeat: true });
    const second = request('/api/x', { siteId: 719 }, { repeat: true });
    expect(second).not.toBe(first);
    await Promise.all([first, second]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('401 and 416', () => {
  beforeEach(() => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 'tok');
    setItem(LOCAL_KEYS.user, { phone: '13800000000' });
  });

  it.each([401, 416])('code %i clears token and user, remembers the path and goes to login', async (code) => {
    answer({ body: envelope(code, null, '请先登录') });
    const result = await request('/api/x');
    expect(result.code).toBe(code);
    expect(getItem(LOCAL_KEYS.token)).toBeNull();
    expect(getItem(LOCAL_KEYS.user)).toBeNull();
    expect(session.get(SESSION_KEYS.loginSuccessBackPath)).toBe('/myOrder?siteId=719');
    expect(navigate).toHaveBeenCalledWith('/login?siteId=719');
  });

  it('keeps the page to return to when a late answer arrives on the login page', async () => {
    session.set(SESSION_KEYS.loginSuccessBackPath, '/personalCenter?siteId=719');
    configureRequest({ currentPath: () => '/PwdLogin?siteId=719' });
    answer({ body: envelope(401) });
    await request('/api/x');
    expect(getItem(LOCAL_KEYS.token)).toBeNull();
    expect(session.get(SESSION_KEYS.loginSuccessBackPath)).toBe('/personalCenter?siteId=719');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('goes to the login page of the stored login mode', async () => {
    setItem(LOCAL_KEYS.loginWay, 2);
    answer({ body: envelope(401) });
    await request('/api/x');
    expect(navigate).toHaveBeenCalledWith('/CodeLogin?siteId=719');
  });

  it('remembers the home page of the site when the path lacks the siteId of the address', async () => {
    configureRequest({
      currentPath: () => '/orderDetail',
      address: () => 'http://127.0.0.1/shoppingmall/orderDetail?siteId=10110',
    });
    answer({ body: envelope(416) });
    await request('/api/x');
    expect(session.get(SESSION_KEYS.loginSuccessBackPath)).toBe('/home?siteId=10110');
  });

  it('remembers the plain path when the address carries no siteId', async () => {
    configureRequest({
      currentPath: () => '/myOrder',
      address: () => 'http://127.0.0.1/shoppingmall/myOrder',
    });
    answer({ body: envelope(401) });
    await request('/api/x');
    expect(session.get(SESSION_KEYS.loginSuccessBackPath)).toBe('/myOrder');
  });

  it('does nothing of that with unReplaceLogin', async () => {
    answer({ body: envelope(401) });
    await request('/api/x', {}, { unReplaceLogin: true });
    expect(getItem(LOCAL_KEYS.token)).toBe('tok');
    expect(session.get(SESSION_KEYS.loginSuccessBackPath)).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('transport failure', () => {
  it('rejects with "Error" when fetch throws', async () => {
    answer(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(request('/api/x')).rejects.toThrow(/^Error$/);
  });

  it('rejects with the answer msg on an HTTP error carrying an envelope', async () => {
    answer({ status: 500, body: envelope(500, null, '服务器繁忙，请稍后再试') });
    await expect(request('/api/x')).rejects.toThrow('服务器繁忙，请稍后再试');
  });

  it('rejects with "Error" on an HTTP error without an envelope', async () => {
    answer({ status: 404, raw: 'not json' });
    await expect(request(catalogApi.lableList.path)).rejects.toThrow(/^Error$/);
  });

  it('rejects with "Error" when the answer is not an envelope', async () => {
    answer({ body: '<html></html>' });
    await expect(request('/api/x')).rejects.toThrow(/^Error$/);
  });

  it('toasts the failure with warn', async () => {
    answer(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(request('/api/x', {}, { warn: true })).rejects.toThrow('Error');
    expect(toast).toHaveBeenCalledWith('Error');
  });

  it('frees the in-flight slot after a failure', async () => {
    answer(() => Promise.reject(new TypeError('down')));
    await expect(request('/api/x')).rejects.toThrow();
    answer({ body: envelope(200) });
    await expect(request('/api/x')).resolves.toMatchObject({ code: 200 });
  });
});

describe('download', () => {
  const fileResponse = (headers: Record<string, string>, body: BodyInit, status = 200) =>
    new Response(body, { status, headers });

  it('answers the file as a Blob with its name, sending the token and form payload', async () => {
    setSiteId('719');
    setItem(LOCAL_KEYS.token, 'tok');
    fetchMock.mockResolvedValue(
      fileResponse(
        {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': `attachment; filename="t.xlsx"; filename*=UTF-8''${encodeURIComponent('模板.xlsx')}`,
        },
        'PK-bytes',
      ),
    );
    const file = await download(batchApi.template.path, { siteId: 719 });
    expect(file.fileName).toBe('模板.xlsx');
    expect(await file.blob.text()).toBe('PK-bytes');
    expect(lastHeaders().token).toBe('tok');
    expect(lastInit().body).toBeInstanceOf(FormData);
  });

  it('rejects with the msg of an envelope answer and toasts it with warn', async () => {
    fetchMock.mockResolvedValue(
      fileResponse(
        { 'content-type': 'application/json' },
        JSON.stringify(envelope(500, null, '文件不能超过 1 MB')),
      ),
    );
    await expect(download('/api/x', {}, { warn: true })).rejects.toThrow('文件不能超过 1 MB');
    expect(toast).toHaveBeenCalledWith('文件不能超过 1 MB');
  });

  it('goes to login on 401 like request', async () => {
    fetchMock.mockResolvedValue(
      fileResponse({ 'content-type': 'application/json' }, JSON.stringify(envelope(401, null, '请先登录'))),
    );
    await expect(download('/api/x')).rejects.toThrow('请先登录');
    expect(navigate).toHaveBeenCalled();
  });

  it('rejects with "Error" on a transport failure', async () => {
    fetchMock.mockRejectedValue(new TypeError('offline'));
    await expect(download('/api/x')).rejects.toThrow('Error');
  });
});
