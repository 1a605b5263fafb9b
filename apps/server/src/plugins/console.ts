import type { FastifyInstance } from 'fastify';
import { serveBuiltApp } from './built-app';

export const CONSOLE_PATH = '/admin/';

/**
 * The operator console (apps/admin) under /admin/, beside the storefront. Not wrapped in
 * fastify-plugin: its static files get their own reply decorators, apart from the storefront's.
 */
export async function consolePlugin(app: FastifyInstance, opts: { adminDist: string }) {
  await serveBuiltApp(app, {
    root: opts.adminDist,
    basePath: CONSOLE_PATH,
    buildHint: 'The operator console is not built yet: run `npm run build -w @sitemall/admin`.',
  });
  app.get(CONSOLE_PATH.slice(0, -1), { schema: { hide: true } }, async (_req, reply) =>
    reply.redirect(CONSOLE_PATH),
  );
}
