import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves a built single-page app (Vite's dist) under a base path with the history-mode
 * fallback to index.html: the storefront at /shoppingmall/, the operator console at /admin/.
 * Hashed assets are cached for good; the page itself never. Text goes out as the build's brotli
 * or gzip sibling when the browser accepts it. Not built: a 503 saying how.
 */
export async function serveBuiltApp(
  app: FastifyInstance,
  opts: { root: string; basePath: string; buildHint: string },
): Promise<void> {
  const { root, basePath } = opts;
  if (!existsSync(path.join(root, 'index.html'))) {
    app.get(`${basePath}*`, { schema: { hide: true } }, async (_req, reply) =>
      reply.status(503).type('text/plain; charset=utf-8').send(opts.buildHint),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: basePath,
    wildcard: false,
    index: false,
    cacheControl: false,
    // The build writes .br and .gz beside each text asset (vite-plugin-compression2).
    preCompressed: true,
    setHeaders(res, file) {
      // Hashed assets never change; the page and the version probe must always be fresh.
      const fresh = file.endsWith('index.html') || file.endsWith('version.js');
      res.setHeader('cache-control', fresh ? 'no-store' : 'public, max-age=31536000, immutable');
    },
  });
  app.get(`${basePath}*`, { schema: { hide: true } }, async (req, reply) => {
    const file = req.url.slice(basePath.length).split('?')[0] ?? '';
    // Missing assets are a real 404, not the page: a stale hashed chunk must fail loudly.
    if (/\.[a-z0-9]+$/i.test(file)) return reply.status(404).type('text/plain').send('Not found');
    reply.header('cache-control', 'no-store');
    return reply.sendFile('index.html', root, { cacheControl: false });
  });
}
