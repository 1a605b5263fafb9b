import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { siteApi } from '@sitemall/contract';
import { ok, sendSerialised } from '../../lib/envelope';
import { KEPT, serve } from '../../lib/serve';
import { requireSite, type SiteCache } from './site.service';

export const siteRoutes: FastifyPluginAsyncTypebox<{ sites: SiteCache; hotlineKey: Buffer }> = async (
  app,
  opts,
) => {
  serve(
    app,
    siteApi.getSiteConfig,
    async (req, reply) =>
      sendSerialised(reply, (await requireSite(opts.sites, req.body.siteId)).answers.siteConfig),
    KEPT,
  );
  serve(
    app,
    siteApi.pcInfo,
    async (req, reply) => sendSerialised(reply, (await requireSite(opts.sites, req.body.id)).answers.pcInfo),
    KEPT,
  );

  const clientKeys = ok({ hotlineKey: opts.hotlineKey.toString('base64') });
  serve(app, siteApi.clientKeys, async () => clientKeys);
};
