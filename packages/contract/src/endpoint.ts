import type { Static, TSchema } from '@sinclair/typebox';

/**
 * One endpoint, declared once: the server registers its route from it (`serve` in
 * apps/server/src/lib/serve.ts) and the apps call it through their typed client (`call` in
 * apps/web/src/api/client.ts). Its path is written here and nowhere else.
 */
export interface Endpoint<Body extends TSchema = TSchema, Reply extends TSchema = TSchema> {
  method: 'GET' | 'POST';
  /** Under the API's prefix (`/front-mall-api` for the storefront, `/admin-api` for the console). */
  path: string;
  /** The request body; for GET, the query string. */
  body: Body;
  /** The envelope of a successful answer (`Envelope(...)`); for a file, the refusal's envelope. */
  reply: Reply;
  /** POST only: the query string's schema, for calls that also put fields there. */
  query?: TSchema;
  /** The media type of a file answer (a download); a refusal still answers the envelope. */
  file?: string;
  /** Methods the server answers besides `method` (kept for older clients); the apps use `method`. */
  alsoMethods?: readonly ('GET' | 'POST')[];
  /** 'required': the payload's siteId must name an existing site. */
  site?: 'required';
  /** 'required': 401/416 unless a valid token of this site comes with the call, whatever the body. */
  auth?: 'required' | 'optional';
  /**
   * An operator console endpoint (under /admin-api): the permission it needs ('orders:view'),
   * 'self' for any logged-in operator, 'login' for the login itself. Members' tokens never pass.
   */
  operator?: string;
  /** OpenAPI tag and summary (the spec's name of the screen or action). */
  tag: string;
  summary: string;
  /** How the storefront encodes the body (multipart form data unless said otherwise). */
  encoding?: 'form' | 'json' | 'urlencoded' | 'raw';
}

/**
 * A public read, the same answer for every visitor: the storefront posts it as JSON (spec section
 * 7: JSON unless noted), one body for one payload, so the server's response cache
 * (apps/server/src/plugins/response-cache.ts) can answer the same call again. Multipart, the
 * client's default, writes a random boundary into every body: no two calls would be the same.
 */
export const PUBLIC_READ = { encoding: 'json' } as const;

/** The storefront's API prefix: every shopper endpoint's path is served under it. */
export const SHOP_API_PREFIX = '/front-mall-api';

/** Where a client calls a shopper endpoint over HTTP, with a query string when given. */
export const shopUrl = (declared: Pick<Endpoint, 'path'>, query = '') =>
  `${SHOP_API_PREFIX}${declared.path}${query}`;

/** Declares an endpoint, keeping its schemas' types for the server and the client. */
export const endpoint = <Body extends TSchema, Reply extends TSchema>(
  declaration: Endpoint<Body, Reply>,
): Endpoint<Body, Reply> => declaration;

/** What a client sends to an endpoint. */
export type BodyOf<E extends Endpoint> = Static<E['body']>;
/** The `data` of an endpoint's successful answer. */
export type DataOf<E extends Endpoint> =
  Static<E['reply']> extends { data: infer D } ? NonNullable<D> : never;
