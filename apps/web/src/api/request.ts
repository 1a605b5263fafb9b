import { CODE, type EnvelopeOf, LOGIN_CODES, QUIET_CODES, SHOP_API_PREFIX } from '@sitemall/contract';
import { isLoginPath, loginRouteFor, returnPathFor } from '../site/routing.ts';
import {
  getLoginWay,
  getSiteId,
  getToken,
  LOCAL_KEYS,
  removeItem,
  SESSION_KEYS,
  session,
} from '../site/storage.ts';

/**
 * The request layer (architecture "The request layer"; spec sections 4, 7, 8). Every call of
 * the storefront goes through `request`; pages never call fetch.
 */

export type Encoding = 'form' | 'json' | 'urlencoded' | 'raw';

export interface RequestOptions {
  /** form (default): multipart form data; json; urlencoded; raw: a JSON string as text/plain. */
  encoding?: Encoding;
  /** Toast the answer's msg when the code is not a normal one. */
  warn?: boolean;
  /** Allow an identical call while one is in flight (otherwise identical calls share one promise). */
  repeat?: boolean;
  /** Do not send the visitor to login on 401/416. */
  unReplaceLogin?: boolean;
  method?: 'POST' | 'GET';
}

export type Payload = Record<string, unknown>;

export interface RequestHooks {
  /** Router navigation (replace); set by the router at start-up. */
  navigate: (to: string) => void;
  /** The current router path without basename, e.g. `/myOrder?siteId=719`. */
  currentPath: () => string;
  /** The full address the browser shows. */
  address: () => string;
  toast: (text: string) => void;
  fetch: typeof fetch;
}

const BASENAME = '/shoppingmall';

const defaultHooks = (): RequestHooks => ({
  navigate: (to) => window.location.assign(`${BASENAME}${to}`),
  currentPath: () => {
    const { pathname, search } = window.location;
    const path = pathname.startsWith(BASENAME) ? pathname.slice(BASENAME.length) || '/' : pathname;
    return `${path}${search}`;
  },
  address: () => window.location.href,
  // Until the app's themed toasts take over (layout/Frame.tsx): antd's message, loaded on use.
  toast: (text) => {
    void import('antd/es/message').then(({ default: message }) => message.warning(text));
  },
  fetch: (...args) => globalThis.fetch(...args),
});

let hooks: RequestHooks = defaultHooks();

export function configureRequest(overrides: Partial<RequestHooks>): void {
  hooks = { ...hooks, ...overrides };
}

export function resetRequest(): void {
  hooks = defaultHooks();
  inFlight.clear();
}

const inFlight = new Map<string, Promise<EnvelopeOf<unknown>>>();

/** Stable JSON (sorted keys) so that {a,b} and {b,a} are the same call. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const fieldValue = (value: unknown): string =>
  typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Fields of a payload as form values: nested values travel as JSON, null/undefined are left out. */
function formFields(payload: Payload): [string, string][] {
  return Object.entries(payload)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => [key, fieldValue(value)]);
}

export function encodeBody(payload: Payload, encoding: Encoding): { body: BodyInit; contentType?: string } {
  switch (encoding) {
    case 'json':
      return { body: JSON.stringify(payload), contentType: 'application/json' };
    case 'raw':
      return { body: JSON.stringify(payload), contentType: 'text/plain;charset=UTF-8' };
    case 'urlencoded':
      return {
        body: new URLSearchParams(formFields(payload)).toString(),
        contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
      };
    default: {
      const form = new FormData();
      // Files travel as multipart parts of their own; every other value as text.
      const files = Object.entries(payload).filter(
        (entry): entry is [string, Blob] => entry[1] instanceof Blob,
      );
      const fields = formFields(
        Object.fromEntries(Object.entries(payload).filter(([, v]) => !(v instanceof Blob))),
      );
      for (const [key, value] of fields) form.append(key, value);
      for (const [key, file] of files) form.append(key, file);
      // No content type: the browser writes multipart/form-data with its boundary.
      return { body: form };
    }
  }
}

/** 401/416: the session is over; forget it, remember where the visitor was, go to login. */
function sendToLogin(): void {
  removeItem(LOCAL_KEYS.token);
  removeItem(LOCAL_KEYS.user);
  // A late answer of a call made before the redirect must not replace the page to return to.
  if (isLoginPath(hooks.currentPath().split(/[?#]/)[0] ?? '')) return;
  session.set(
    SESSION_KEYS.loginSuccessBackPath,
    returnPathFor({ address: hooks.address(), path: hooks.currentPath() }),
  );
  hooks.navigate(loginRouteFor(getLoginWay(), getSiteId()));
}

function isEnvelope(value: unknown): value is EnvelopeOf<unknown> {
  return !!value && typeof value === 'object' && 'code' in value;
}

/** The URL and init of a call: token header, payload encoded or in the query for GET. */
function prepare(
  path: string,
  payload: Payload,
  options: RequestOptions,
): { url: string; init: RequestInit } {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.token = token;

  let url = `${SHOP_API_PREFIX}${path}`;
  let body: BodyInit | undefined;
  if (method === 'GET') {
    const query = new URLSearchParams(formFields(payload)).toString();
    if (query) url += `${url.includes('?') ? '&' : '?'}${query}`;
  } else {
    const encoded = encodeBody(payload, options.encoding ?? 'form');
    body = encoded.body;
    if (encoded.contentType) headers['content-type'] = encoded.contentType;
  }
  return { url, init: { method, headers, body } };
}

/** Code 0 rewritten, the warning toast and the 401/416 redirect, for any envelope answer. */
function settle<T>(envelope: EnvelopeOf<T>, options: RequestOptions): EnvelopeOf<T> {
  if (envelope.code === CODE.okLegacy) {
    envelope.code = CODE.ok;
    envelope.success = true;
  }
  if (options.warn && !QUIET_CODES.includes(envelope.code) && envelope.msg) hooks.toast(envelope.msg);
  if (LOGIN_CODES.includes(envelope.code) && !options.unReplaceLogin) sendToLogin();
  return envelope;
}

/** Sends the call; no answer at all (the network, a blocked request) is a transport error. */
async function fetchAnswer(path: string, payload: Payload, options: RequestOptions): Promise<Response> {
  const { url, init } = prepare(path, payload, options);
  try {
    return await hooks.fetch(url, init);
  } catch {
    throw transportError(undefined, options);
  }
}

/** The answer's body as JSON, or undefined when it is none (an empty body, a proxy's HTML page). */
async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

async function send<T>(path: string, payload: Payload, options: RequestOptions): Promise<EnvelopeOf<T>> {
  const response = await fetchAnswer(path, payload, options);
  const answer = await jsonOf(response);
  if (!response.ok || !isEnvelope(answer)) {
    throw transportError(isEnvelope(answer) ? answer.msg : undefined, options);
  }
  return settle(answer as EnvelopeOf<T>, options);
}

export interface DownloadedFile {
  blob: Blob;
  /** From the answer's Content-Disposition (filename*), else the fallback given. */
  fileName: string;
}

function fileNameOf(disposition: string | null, fallback: string): string {
  const star = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star);
    } catch {
      // a malformed name falls through to the plain one
    }
  }
  return disposition?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/**
 * Calls an endpoint that answers a file (not an envelope), with the same token, encodings and
 * 401/416 handling as `request`. An envelope answer is a refusal: it is settled like any other
 * (toast with warn, login on 401/416) and the call rejects with its msg.
 */
export async function download(
  path: string,
  payload: Payload = {},
  options: RequestOptions & { fileName?: string } = {},
): Promise<DownloadedFile> {
  const response = await fetchAnswer(path, payload, options);
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    const answer = await jsonOf(response);
    if (!isEnvelope(answer)) throw transportError(undefined, options);
    const envelope = settle(answer, options);
    throw new Error(envelope.msg || 'Error');
  }
  if (!response.ok) throw transportError(undefined, options);
  return {
    blob: await response.blob(),
    fileName: fileNameOf(response.headers.get('content-disposition'), options.fileName ?? 'download'),
  };
}

/** Saves a downloaded file through a temporary object URL. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function transportError(msg: string | undefined, options: RequestOptions): Error {
  const text = msg || 'Error';
  if (options.warn) hooks.toast(text);
  return new Error(text);
}

/**
 * Calls the API and resolves with the envelope { code, msg, success, data } (callers read
 * .data); rejects only on transport failure, with the answer's msg or "Error".
 */
export function request<T = unknown>(
  path: string,
  payload: Payload = {},
  options: RequestOptions = {},
): Promise<EnvelopeOf<T>> {
  if (options.repeat) return send<T>(path, payload, options);
  const key = `${options.method ?? 'POST'} ${path} ${stableJson(payload)}`;
  const pending = inFlight.get(key);
  if (pending) return pending as Promise<EnvelopeOf<T>>;
  const call = send<T>(path, payload, options).finally(() => inFlight.delete(key));
  inFlight.set(key, call as Promise<EnvelopeOf<unknown>>);
  return call;
}
