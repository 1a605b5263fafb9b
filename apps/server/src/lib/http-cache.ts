import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { ttlCache } from './ttl-cache';

/**
 * HTTP validators for the public catalogue reads answered from the in-memory caches (labels,
 * categories, site configuration, PC home). The ETag names the site and hashes the answer, so
 * two sites never share one, and when a change is announced (the catalogue or site NOTIFY drops
 * the cached answer in every process) the rebuilt answer has a new ETag at once.
 * `Cache-Control: no-cache` lets a browser keep the answer but ask each time, so nothing stale
 * is ever shown; what it saves is the body (and on a 304, the serialisation).
 */
const tagOfAnswer = ttlCache<string, string>({ ttlMs: 10 * 60_000, max: 20_000 });

/** The same answer is the same string object from the cache: its hash is computed once. */
function etagOf(siteId: number, json: string): string {
  let hash = tagOfAnswer.get(json);
  if (!hash) {
    hash = createHash('sha1').update(json).digest('base64url').slice(0, 22);
    tagOfAnswer.set(json, hash);
  }
  return `"${siteId}-${hash}"`;
}

/** Sets the validator headers; true when the client already holds this answer (answer 304). */
export function notModified(reply: FastifyReply, json: string): boolean {
  const { request } = reply;
  const siteId = (request as { ctx?: { site?: { row: { id: number } } } }).ctx?.site?.row.id ?? 0;
  const etag = etagOf(siteId, json);
  reply.header('etag', etag).header('cache-control', 'no-cache');
  return holds(request.headers['if-none-match'], etag);
}

/** Whether an If-None-Match header names `etag` (or any answer, `*`). */
export const holds = (ifNoneMatch: string | undefined, etag: string): boolean =>
  ifNoneMatch?.split(',').some((t) => t.trim() === etag || t.trim() === '*') === true;
