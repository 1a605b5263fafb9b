import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SiteCache } from '../modules/site/site.service';
import { oldIeNotice } from './old-ie-notice';

export const BASE_PATH = '/shoppingmall/';
const OLD_IE = /MSIE \d|Trident\//;

/**
 * One process is the product: the built storefront is served under /shoppingmall/ with the
 * history-mode fallback to index.html. Old IE cannot run the app at all, so the server answers
 * it with a notice page instead (spec section 1).
 */
export const storefrontPlugin = fp(
  async (app: FastifyInstance, opts: { webDist: string; sites: SiteCache }) => {
    const indexFile = path.join(opts.webDist, 'index.html');
    const built = existsSync(indexFile);

    app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect(`${BASE_PATH}home`));

    app.addHook('onRequest', async (req, reply) => {
      if (!req.url.startsWith(BASE_PATH) || !OLD_IE.test(req.headers['user-agent'] ?? '')) return;
      const siteId = Number(new URL(req.url, 'http://x').searchParams.get('siteId'));
      const site = Number.isSafeInteger(siteId) && siteId > 0 ? await opts.sites.get(siteId) : undefined;
      return reply.type('text/html; charset=utf-8').send(oldIeNotice(site?.config));
    });

    if (!built) {
      app.get(`${BASE_PATH}*`, { schema: { hide: true } }, async (_req, reply) =>
        reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('The storefront is not built yet: run `npm run build -w @sitemall/web`.'),
      );
      return;
    }

    await app.register(fastifyStatic, {
      root: opts.webDist,
      prefix: BASE_PATH,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(res, file) {
        // Hashed assets never change; the page and the version probe must always be fresh.
        const fresh = file.endsWith('index.html') || file.endsWith('version.js');
        res.setHeader('cache-control', fresh ? 'no-store' : 'public, max-age=31536000, immutable');
      },
    });
    app.get(`${BASE_PATH}*`, { schema: { hide: true } }, async (req, reply) => {
      const file = req.url.slice(BASE_PATH.length).split('?')[0] ?? '';
      // Missing assets are a real 404, not the page: a stale hashed chunk must fail loudly.
      if (/\.[a-z0-9]+$/i.test(file)) return reply.status(404).type('text/plain').send('Not found');
      reply.header('cache-control', 'no-store');
      return reply.sendFile('index.html', { cacheControl: false });
    });
    app.get(BASE_PATH.slice(0, -1), { schema: { hide: true } }, async (_req, reply) =>
      reply.redirect(`${BASE_PATH}home`),
    );
  },
);
