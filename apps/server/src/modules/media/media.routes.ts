import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { SiteCache } from '../site/site.service';
import { DEMO_IMAGE, demoImage } from './demo-images';

export const mediaRoutes: FastifyPluginAsyncTypebox<{ sites: SiteCache }> = async (app, opts) => {
  app.get(
    '/media/demo/:name',
    { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 80 }) }) } },
    async (req, reply) => {
      const siteId = Number(DEMO_IMAGE.exec(req.params.name)?.[3]);
      const site = siteId ? await opts.sites.get(siteId) : undefined;
      const svg = site && (await demoImage(req.params.name, site.config));
      if (!svg) return reply.status(404).type('text/plain').send('Not found');
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(svg);
    },
  );
};
