import { existsSync } from 'node:fs';
import path from 'node:path';
import { isRowId } from '@sitemall/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SiteCache } from '../modules/site/site.service';
import { serveBuiltApp } from './built-app';
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

    // "/ redirects to /home" (spec section 2) with its query, as the storefront's own router
    // does: /?siteId=719 opens site 719's home page.
    const toHome = async (req: FastifyRequest, reply: FastifyReply) => {
      const query = req.url.indexOf('?');
      return reply.redirect(`${BASE_PATH}home${query < 0 ? '' : req.url.slice(query)}`);
    };
    app.get('/', { schema: { hide: true } }, toHome);

    const siteOfPage = async (url: string) => {
      const siteId = Number(new URL(url, 'http://x').searchParams.get('siteId'));
      return isRowId(siteId) ? await opts.sites.get(siteId) : undefined;
    };
    // A callback hook: every request (the API's too) passes here, and nearly all pass at once.
    app.addHook('onRequest', (req, reply, done) => {
      if (!req.url.startsWith(BASE_PATH) || !OLD_IE.test(req.headers['user-agent'] ?? '')) return done();
      siteOfPage(req.url).then(
        (site) => reply.type('text/html; charset=utf-8').send(oldIeNotice(site?.config)),
        done,
      );
    });

    await serveBuiltApp(app, {
      root: opts.webDist,
      basePath: BASE_PATH,
      buildHint: 'The storefront is not built yet: run `npm run build -w @sitemall/web`.',
    });
    if (!built) return;
    app.get(BASE_PATH.slice(0, -1), { schema: { hide: true } }, toHome);
  },
);
