import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
  onSendHookHandler,
  preParsingHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';
import { holds } from '../lib/http-cache';
import { requestIdOf } from '../lib/request-id';
import { takenIn } from './shutdown';

/**
 * How long a kept answer is served without asking the application: what changes by announcement
 * (an operator's edit of a site or its catalogue) drops every kept answer at once (`clear`); this
 * bounds only what changes unannounced (stock and sales moved by orders, already kept up to 10 s
 * by catalogue-answers.ts).
 */
const KEPT_MS = 1_000;
/** Payloads of the public reads are a few dozen bytes; anything longer goes the usual way. */
const MAX_REQUEST_BYTES = 2_048;
/** A bound on memory, not a tuning knob: a second's distinct answers of a busy deployment fit. */
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

/** An answer as the application wrote it, ready to be written again. */
interface Kept {
  etag: string;
  /** Every header but the request's own id, with the content length. */
  headers: OutgoingHttpHeaders;
  /** The same for a 304: no body, so no content type or length. */
  notModifiedHeaders: OutgoingHttpHeaders;
  body: Buffer;
  /** The metrics' route label (the route's path). */
  route: string;
}

/** What the fast lane hands Fastify with a request it could not answer. */
interface Pending {
  key: string;
  /** The body it read off the socket, replayed to Fastify's body parser (preParsing). */
  body: Buffer;
  /** The cache's generation when the request came: an answer computed across a `clear` is not kept. */
  generation: number;
  /** The same requests that came while the application computed this one's answer (single flight). */
  waiting?: Waiting[];
}

/** A request waiting for the answer another one, the same, is getting from the application. */
interface Waiting {
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer;
  started: number;
}
/**
 * Bodies whose parser reads what preParsing gives it (plugins/body.ts: JSON, URL-encoded, text, or
 * none). Multipart is parsed from the raw request by @fastify/multipart, and its random boundary
 * makes every request's bytes new anyway: it goes to Fastify untouched.
 */
const REPLAYED = /^(?:$|application\/json|application\/x-www-form-urlencoded|text\/plain)/i;

/** Headers written per answer, not kept: the request's own id, and what a 304 has no body for. */
const PER_ANSWER = new Set(['x-request-id', 'content-length', 'content-type']);

const PENDING = Symbol('sitemall.responseCache');
type Marked = IncomingMessage & { [PENDING]?: Pending };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's 200 answers that carry an ETag (sendSerialised: public answers from memory,
     * the same for every visitor) may be kept by plugins/response-cache.ts and written again for
     * the same request.
     */
    responseCache?: boolean;
  }
}

/**
 * A response cache in front of the router, for the public catalogue reads every page makes (site
 * configuration, home template, labels, categories, product pages, lists, popular searches). The
 * application already answers them from memory, but passing a request through Fastify's pipeline
 * (body parser, hooks, validation, serialisation) cost as much again as the HTTP exchange itself
 * (docs/performance.md). Here the server's request listener reads the small body of a request to
 * such a route and, when the same request (method, URL, content type, body) was answered within
 * the last second, writes that answer again; otherwise it hands the request, with the body it
 * read, to Fastify and keeps what Fastify answers. The same requests that come while Fastify
 * computes that answer wait for it (single flight).
 *
 * Requests that carry a member's token go the usual way: their call also keeps the member's
 * session alive. A forwarded protocol (which decides HSTS) keys the answer with the address of
 * the proxy that sent it, so an untrusted client's claim never reaches another's answer.
 */
export function createResponseCache({ keptMs = KEPT_MS }: { keptMs?: number } = {}) {
  const kept = new LRUCache<string, Kept>({
    maxSize: MAX_KEPT_BYTES,
    sizeCalculation: (entry, key) => entry.body.length + key.length + 1024,
    ttl: keptMs,
    ttlResolution: 0,
  });
  /** "METHOD path" of the routes whose answers may be kept. */
  const routes = new Set<string>();
  /** Keys the application is answering now, with the requests that wait for that answer. */
  const inFlight = new Map<string, Waiting[]>();
  let generation = 0;
  let closing = false;
  let observe: FastifyInstance['observeRequest'] = () => {};
  const counted = { hit: () => {}, miss: () => {}, joined: () => {} };
  /** Fastify's own request handler (serverFactory). */
  let toApp: (req: IncomingMessage, res: ServerResponse) => void = () => {};

  function write(req: IncomingMessage, res: ServerResponse, entry: Kept, started: number) {
    const held = req.headers['if-none-match'];
    const status = held !== undefined && holds(held, entry.etag) ? 304 : 200;
    res.writeHead(status, {
      ...(status === 304 ? entry.notModifiedHeaders : entry.headers),
      'x-request-id': requestIdOf(req.headers),
    });
    res.end(status === 304 ? undefined : entry.body);
    observe(req.method ?? 'GET', entry.route, status, (performance.now() - started) / 1000);
  }

  /** The server's request listener: a kept answer, or the request handed to Fastify. */
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const keptRoute = routes.has(`${req.method} ${query < 0 ? url : url.slice(0, query)}`);
    const { headers } = req;
    const length = Number(headers['content-length'] ?? 0);
    if (
      !keptRoute ||
      closing ||
      !REPLAYED.test(headers['content-type'] ?? '') ||
      headers.token !== undefined ||
      headers.authorization !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      !(length <= MAX_REQUEST_BYTES)
    )
      return toApp(req, res);
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const proto = headers['x-forwarded-proto'];
      const key = `${req.method} ${url}\n${headers['content-type'] ?? ''}\n${
        proto === undefined ? '' : `${proto} ${req.socket.remoteAddress}`
      }\n${body.toString('latin1')}`;
      const entry = kept.get(key);
      if (entry) {
        counted.hit();
        return write(req, res, entry, started);
      }
      const waiting = inFlight.get(key);
      if (waiting) {
        // Taken in while open: answered even when closing has begun while it waited.
        takenIn(req);
        counted.joined();
        waiting.push({ req, res, body, started });
        return;
      }
      lead(req, res, key, body);
    });
  };

  /**
   * Hands a request to the application and holds the same requests that come meanwhile: when
   * many visitors open a page at once, or a busy answer's second is up, the application computes
   * it once, not once per request (single flight).
   */
  function lead(req: IncomingMessage, res: ServerResponse, key: string, body: Buffer) {
    const waiting: Waiting[] = [];
    inFlight.set(key, waiting);
    // An answer that never reaches onSend (a lost connection) still lets the waiting go on.
    res.once('close', () => release(key, waiting, undefined));
    handOn(req, res, { key, body, generation, waiting });
  }

  function handOn(req: IncomingMessage, res: ServerResponse, pending: Pending) {
    counted.miss();
    (req as Marked)[PENDING] = pending;
    // Taken in while open: answered even when closing has begun while its body came.
    takenIn(req);
    toApp(req, res);
  }

  /**
   * The requests that waited for a key: written the kept answer, or, when there is none (an error,
   * a 304, an answer computed across a change), each handed to the application.
   */
  function release(key: string, waiting: Waiting[], entry: Kept | undefined) {
    if (inFlight.get(key) !== waiting) return;
    inFlight.delete(key);
    for (const w of waiting)
      if (entry) write(w.req, w.res, entry, w.started);
      else handOn(w.req, w.res, { key, body: w.body, generation });
  }

  /** preParsing of the kept routes: the body the fast lane already read, as a stream again. */
  const replayBody: preParsingHookHandler = (req, _reply, payload, done) => {
    const pending = (req.raw as Marked)[PENDING];
    done(null, pending ? Readable.from([pending.body], { objectMode: false }) : payload);
  };

  /** onSend of the kept routes: keeps a public answer (a 200 with an ETag) for the next asker. */
  const keepAnswer: onSendHookHandler = (req, reply, payload, done) => {
    const pending = (req.raw as Marked)[PENDING];
    const etag = reply.getHeader('etag');
    const type = reply.getHeader('content-type');
    const entry =
      pending &&
      pending.generation === generation &&
      reply.statusCode === 200 &&
      typeof payload === 'string' &&
      typeof etag === 'string' &&
      typeof type === 'string'
        ? answerOf(req, reply, payload, etag, type)
        : undefined;
    if (pending && entry) kept.set(pending.key, entry);
    if (pending?.waiting) release(pending.key, pending.waiting, entry);
    done(null, payload);
  };

  function answerOf(
    req: FastifyRequest,
    reply: FastifyReply,
    payload: string,
    etag: string,
    type: string,
  ): Kept {
    const body = Buffer.from(payload);
    const notModifiedHeaders: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined && !PER_ANSWER.has(name)) notModifiedHeaders[name] = value;
    return {
      etag,
      headers: {
        ...notModifiedHeaders,
        'content-type': type,
        'content-length': body.length,
      },
      notModifiedHeaders,
      body,
      route: req.routeOptions.url ?? 'unmatched',
    };
  }

  /** Adds the keeping hooks to a route that asks for them, and lets the fast lane look for it. */
  function onRoute(route: RouteOptions) {
    if (!route.config?.responseCache) return;
    const methods = [route.method].flat().filter((m) => m === 'GET' || m === 'POST');
    if (!methods.length) return;
    for (const method of methods) routes.add(`${method} ${route.url}`);
    route.preParsing = [route.preParsing ?? []].flat().concat(replayBody);
    route.onSend = [route.onSend ?? []].flat().concat(keepAnswer);
  }

  return {
    /** Fastify's serverFactory: its HTTP server as Fastify makes it, behind the fast lane. */
    serverFactory(
      handler: (req: IncomingMessage, res: ServerResponse) => void,
      options: Pick<
        FastifyServerOptions,
        'keepAliveTimeout' | 'requestTimeout' | 'connectionTimeout' | 'maxRequestsPerSocket'
      >,
    ) {
      toApp = handler;
      const server = http.createServer(listener);
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout ?? 0);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    /** Drops every kept answer, and the ones being computed meanwhile are not kept. */
    clear() {
      generation++;
      kept.clear();
    },
    /**
     * Registered before the routes: wires the kept routes' hooks, the request metrics and the
     * cache's own counters, and stops serving when the server begins to close.
     */
    plugin: fp(async (app: FastifyInstance) => {
      app.addHook('onRoute', onRoute);
      app.addHook('preClose', async () => {
        closing = true;
      });
      observe = app.observeRequest;
      const answers = new Counter({
        name: 'http_response_cache_total',
        help: 'Public reads answered by the response cache (hit), by the application (miss), or waiting for the answer the application computes for the same request (joined; a miss too when that answer cannot be kept)',
        labelNames: ['result'],
        registers: [app.metrics],
      });
      const hit = answers.labels('hit');
      const miss = answers.labels('miss');
      const joined = answers.labels('joined');
      counted.hit = () => hit.inc();
      counted.miss = () => miss.inc();
      counted.joined = () => joined.inc();
    }),
  };
}
