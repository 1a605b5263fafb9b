import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../lib/envelope';

export const RESTARTING_MSG = '服务正在重启，请稍后再试';

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
  app.addHook('onRequest', (_req, reply, done) => {
    if (closing) reply.status(503).send(fail(503, RESTARTING_MSG));
    else done();
  });
});
