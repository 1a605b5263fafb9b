import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { isRowId } from '@sitemall/contract';
import type { Db } from '../../db/client';
import { productTileSource, shopTileSource } from '../catalog/products';
import type { SiteCache } from '../site/site.service';
import { DEMO_IMAGE, demoImage } from './demo-images';
import { productTile, shopLogo } from './product-images';

const PRODUCT_IMAGE = /^(\d{1,10})(?:-([23]))?\.svg$/;
const SHOP_IMAGE = /^(\d{1,10})\.svg$/;
/** A picture an operator uploaded for a product (pictures.ts): a stored name, never a path. */
const PRODUCT_UPLOAD = /^[0-9a-f-]{36}\.(png|jpg|webp)$/;
const IMAGE_MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

export const mediaRoutes: FastifyPluginAsyncTypebox<{ sites: SiteCache; db: Db; dataDir?: string }> = async (
  app,
  opts,
) => {
  const params = { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 80 }) }) } };
  const svg = (reply: import('fastify').FastifyReply, body: string | undefined) =>
    body
      ? reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(body)
      : reply.status(404).type('text/plain').send('Not found');

  app.get('/media/demo/:name', params, async (req, reply) => {
    const siteId = Number(DEMO_IMAGE.exec(req.params.name)?.[3]);
    // The name is a client's: only an id a site row can have is looked up.
    const site = isRowId(siteId) ? await opts.sites.get(siteId) : undefined;
    return svg(reply, site && (await demoImage(req.params.name, site.config)));
  });

  /** `/media/product/12.svg`, `12-2.svg`, `12-3.svg`: the tiles of product 12 (images are public, as in any shop). */
  app.get('/media/product/:name', params, async (req, reply) => {
    const match = PRODUCT_IMAGE.exec(req.params.name);
    const found = match ? await productTileSource(opts.db, Number(match[1])) : undefined;
    return svg(reply, found && productTile(found, Number(match?.[2] ?? 1)));
  });

  /** `/media/uploads/product/<uuid>.png`: product pictures are public; the name never changes its bytes. */
  app.get('/media/uploads/product/:name', params, async (req, reply) => {
    const ext = PRODUCT_UPLOAD.exec(req.params.name)?.[1];
    const file =
      ext && opts.dataDir
        ? await readFile(path.join(opts.dataDir, 'uploads', 'product', req.params.name)).catch(
            () => undefined,
          )
        : undefined;
    if (!ext || !file) return reply.status(404).type('text/plain').send('Not found');
    return reply
      .type(IMAGE_MIME[ext] as string)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(file);
  });

  app.get('/media/shop/:name', params, async (req, reply) => {
    const match = SHOP_IMAGE.exec(req.params.name);
    const found = match ? await shopTileSource(opts.db, Number(match[1])) : undefined;
    return svg(reply, found && shopLogo(found));
  });
};
