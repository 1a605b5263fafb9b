import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';
import { checkReadiness } from '../db/readiness';
import { fail } from '../lib/envelope';

const NOT_READY_MSG = '数据库暂时不可用，服务尚未就绪';

const SLOW_REQUEST_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The Prometheus registry of /metrics: modules add their counters to it. */
    metrics: Registry;
    /** Counts an answer given outside Fastify's pipeline (plugins/response-cache.ts) like the others. */
    observeRequest: (method: string, route: string, status: number, seconds: number) => void;
  }
}

/**
 * Health, readiness, and the Prometheus metrics collected (served by createOpsApp). Successful
 * requests are counted, not logged: logging each one would cost a third of the throughput
 * (architecture.md, performance facts).
 */
export const observabilityPlugin = fp(async (app: FastifyInstance, opts: { database: Database }) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  app.decorate('metrics', registry);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.decorate('observeRequest', (method: string, route: string, status: number, seconds: number) =>
    duration.observe({ method, route, status }, seconds),
  );

  // Callback hooks, not async ones: every request passes here, and a promise per hook per request
  // is measurable (bench, cached reads).
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    app.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500 || reply.elapsedTime > SLOW_REQUEST_MS) {
      req.log.warn(
        {
          method: req.method,
          url: req.url.split('?')[0],
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'slow or failed request',
      );
    }
    done();
  });

  const hidden = { schema: { hide: true } };
  app.get('/healthz', hidden, async () => ({ status: 'ok' }));
  // Public: ready or not, no details; the reason is on the operators' listener.
  app.get('/readyz', hidden, async (req, reply) => {
    const check = await checkReadiness(opts.database);
    if (check.ready) return { status: 'ok' };
    req.log.warn({ err: check.error }, 'not ready: the database cannot serve');
    return reply.status(503).send(fail(503, NOT_READY_MSG));
  });
});

/**
 * The operators' listener (OPS_PORT, loopback by default): metrics and the detailed readiness
 * tell an outsider too much (routes, traffic, database errors) for the public port.
 */
export async function createOpsApp(opts: {
  database: Database;
  registry: Registry;
  log?: FastifyBaseLogger;
}) {
  const ops = Fastify(opts.log ? { loggerInstance: opts.log } : {});
  ops.get('/healthz', async () => ({ status: 'ok' }));
  ops.get('/readyz', async (_req, reply) => {
    const check = await checkReadiness(opts.database);
    if (check.ready) return { status: 'ok' };
    const reason = check.error instanceof Error ? check.error.message : String(check.error);
    return reply.status(503).send({ status: 'unavailable', database: reason });
  });
  ops.get('/metrics', async (_req, reply) =>
    reply.type(opts.registry.contentType).send(await opts.registry.metrics()),
  );
  await ops.ready();
  return ops;
}
