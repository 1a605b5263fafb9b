import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../lib/envelope';

export const RESTARTING_MSG = '服务正在重启，请稍后再试';

const TAKEN_IN = Symbol('sitemall.takenIn');

/**
 * Marks a request the server took in while it was still open, whose body a listener in front of
 * Fastify read first (plugins/response-cache.ts): Fastify sees it only once the body is in, maybe
 * after closing began, and must still answer it like any request in flight.
 */
export function takenIn(raw: IncomingMessage) {
  (raw as IncomingMessage & { [TAKEN_IN]?: true })[TAKEN_IN] = true;
}

/**
 * While the server closes, requests already running finish, and new ones (a keep-alive
 * connection, a pipelined request) are answered 503 in the envelope the storefront understands,
 * with `Connection: close` (Fastify sets it while closing), so the client retries elsewhere.
 * Fastify's own return503OnClosing answers a body of its own shape, hence this hook instead.
 */
export const shutdownPlugin = fp(async (app: FastifyInstance) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (req, reply, done) => {
    if (closing && !(req.raw as { [TAKEN_IN]?: true })[TAKEN_IN])
      reply.status(503).send(fail(503, RESTARTING_MSG));
    else done();
  });
});
