import multipart from '@fastify/multipart';
import { malformedInteger } from '@sitemall/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors';

export const BODY_LIMIT = 1024 * 1024;

/**
 * Keys that would reach an object's prototype rather than name a field (Fastify's own JSON
 * parser strips them; these parsers replace it): dropped from every encoding.
 */
const PROTO_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const withoutProtoKeys = (key: string, value: unknown) => (PROTO_KEYS.has(key) ? undefined : value);
/**
 * Text that could hold such a key, also written with escapes (`"\u005f_proto__"`): only this
 * is parsed with the reviver, which calls back for every value and made JSON.parse the costliest
 * step of a small request's parsing.
 */
const MAY_HOLD_PROTO_KEY = /__proto__|constructor|prototype|\\u/;
const parseJson = (text: string): unknown =>
  MAY_HOLD_PROTO_KEY.test(text) ? JSON.parse(text, withoutProtoKeys) : JSON.parse(text);

function parseUrlEncoded(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (PROTO_KEYS.has(key)) continue;
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

/**
 * The storefront may post a payload as JSON, as a JSON string, URL-encoded or as form data
 * (spec section 7). Every form ends as one plain object; a JSON text sent as a string, or sent
 * under a form content type, is unwrapped so that all four read the same.
 */
export function parsePayload(text: string, hint: 'json' | 'form' | 'any'): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  const looksJson = trimmed.startsWith('{') || trimmed.startsWith('"') || trimmed.startsWith('[');
  if (hint === 'json' || looksJson) {
    let value: unknown;
    try {
      value = parseJson(trimmed);
    } catch {
      if (hint === 'json') throw badRequest('请求体不是有效的 JSON');
      return parseUrlEncoded(trimmed);
    }
    if (typeof value === 'string') return parsePayload(value, 'json');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw badRequest('请求体必须是一个对象');
    }
    return value;
  }
  return parseUrlEncoded(trimmed);
}

/**
 * The path of the first string field holding a NUL character, which no PostgreSQL text column
 * accepts (it would fail the query). Raw text bodies (notify routes) are not fields: skipped.
 */
export function fieldWithNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return path && value.includes('\u0000') ? path : undefined;
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = fieldWithNul(item, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}

const asText = (_req: FastifyRequest, body: string | Buffer) =>
  typeof body === 'string' ? body : body.toString('utf8');

export const bodyPlugin = fp(async (app: FastifyInstance) => {
  app.removeAllContentTypeParsers();
  const parser =
    (hint: 'json' | 'form' | 'any') =>
    (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
      try {
        done(null, parsePayload(asText(req, body), hint));
      } catch (error) {
        done(error as Error);
      }
    };
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, parser('json'));
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'text/plain'],
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    parser('form'),
  );
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fieldSize: BODY_LIMIT, fields: 200, fileSize: 5 * BODY_LIMIT, files: 5, parts: 210 },
  });
  // Anything else (or no content type at all) is read as best we can rather than refused.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, parser('any'));

  // A POST without a body validates as an empty payload, so "missing field" is what it reports.
  // A callback hook (every request passes here): no promise per request.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.method === 'POST' && (req.body === undefined || req.body === null)) req.body = {};
    const bad = fieldWithNul(req.body) ?? fieldWithNul(req.query);
    if (bad !== undefined) return done(badRequest(`参数 ${bad} 包含非法字符`));
    // The one integer rule (contract numbers.ts): digits as written, before AJV coerces them.
    const schema = req.routeOptions.schema;
    const notInteger =
      malformedInteger(schema?.body, req.body) ?? malformedInteger(schema?.querystring, req.query);
    done(notInteger === undefined ? undefined : badRequest(`参数 ${notInteger} 格式不正确`));
  });
});
