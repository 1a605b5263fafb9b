import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ClientKeysReply,
  GetSiteConfigBody,
  GetSiteConfigReply,
  PcInfoBody,
  PcInfoReply,
} from '@sitemall/contract';
import { ok, sendSerialised } from '../../lib/envelope';
import { requireSite, type SiteCache } from './site.service';

export const siteRoutes: FastifyPluginAsyncTypebox<{ sites: SiteCache; hotlineKey: Buffer }> = async (
  app,
  opts,
) => {
  const tags = ['site'];

  app.post(
    '/mall/mallsite/getSiteConfig',
    { schema: { tags, summary: '站点配置', body: GetSiteConfigBody, response: { 200: GetSiteConfigReply } } },
    async (req, reply) =>
      sendSerialised(reply, (await requireSite(opts.sites, req.body.siteId)).answers.siteConfig),
  );

  app.post(
    '/mall/mallsite/pcInfo',
    { schema: { tags, summary: 'PC 首页模板', body: PcInfoBody, response: { 200: PcInfoReply } } },
    async (req, reply) => sendSerialised(reply, (await requireSite(opts.sites, req.body.id)).answers.pcInfo),
  );

  const clientKeys = ok({ hotlineKey: opts.hotlineKey.toString('base64') });
  app.get(
    '/app/client/clientKeys',
    { schema: { tags, summary: '前端解密热线所需密钥', response: { 200: ClientKeysReply } } },
    async () => clientKeys,
  );
};
