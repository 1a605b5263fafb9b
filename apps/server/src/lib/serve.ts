import type { Static } from '@sinclair/typebox';
import type { Endpoint } from '@sitemall/contract';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteShorthandOptions,
} from 'fastify';

/** A request to an endpoint: its body (POST) or query (GET) typed from the declaration. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Body: Static<E['body']>;
  Querystring: Static<E['body']>;
}>;

/** What a handler answers: the endpoint's envelope, or the reply when it sent something itself. */
export type EndpointAnswer<E extends Endpoint> = Static<E['reply']> | FastifyReply;

/** Route options an endpoint does not declare (body limits, rate limits, extra config). */
export type ServeOptions = Pick<RouteShorthandOptions, 'bodyLimit'> & { config?: FastifyContextConfig };

/**
 * A public answer the same for every visitor, from memory (sendSerialised): the response cache
 * may keep it and write it again (plugins/response-cache.ts).
 */
export const KEPT: ServeOptions = { config: { responseCache: true } };

// biome-ignore lint/suspicious/noExplicitAny: any server and type provider may serve an endpoint.
type AnyApp = FastifyInstance<any, any, any, any, any>;

/**
 * Binds a handler to an endpoint of the contract: method, path, schemas, OpenAPI tag and
 * summary, and the site/member requirements all come from the declaration, so a route file
 * holds handlers only.
 */
export function serve<E extends Endpoint>(
  app: AnyApp,
  declared: E,
  handler: (req: EndpointRequest<E>, reply: FastifyReply) => Promise<EndpointAnswer<E>>,
  options: ServeOptions = {},
): void {
  // A member endpoint reads what the member just wrote: never from a replica that may lag.
  if (options.config?.reads === 'catalogue' && (declared.auth === 'required' || declared.operator))
    throw new Error(`${declared.path}: a member or operator endpoint cannot read from the catalogue replica`);
  // A multipart body never repeats (its boundary is random): a kept POST is declared JSON.
  if (options.config?.responseCache && declared.method === 'POST' && declared.encoding !== 'json')
    throw new Error(`${declared.path}: a kept POST is called with JSON (PUBLIC_READ in the contract)`);
  const input =
    declared.method === 'GET'
      ? { querystring: declared.body }
      : { body: declared.body, ...(declared.query ? { querystring: declared.query } : {}) };
  // A file answer has no envelope to validate; OpenAPI names its media type instead.
  const answer = declared.file ? { produces: [declared.file] } : { response: { 200: declared.reply } };
  app.route({
    method: declared.alsoMethods ? [declared.method, ...declared.alsoMethods] : declared.method,
    url: declared.path,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    config: {
      ...(declared.site ? { site: declared.site } : {}),
      ...(declared.auth ? { auth: declared.auth } : {}),
      ...(declared.operator ? { operator: declared.operator } : {}),
      ...options.config,
    },
    schema: {
      tags: [declared.tag],
      summary: declared.summary,
      // A member endpoint says so in the OpenAPI (the `token` header scheme of plugins/docs.ts).
      ...(declared.auth === 'required' ? { security: [{ token: [] }] } : {}),
      ...input,
      ...answer,
    },
    handler: handler as never,
  });
}
