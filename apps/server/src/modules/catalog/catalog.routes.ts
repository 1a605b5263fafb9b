import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { catalogApi as api } from '@sitemall/contract';
import { ok, sendKept, sendSerialised } from '../../lib/envelope';
import { KEPT, type ServeOptions, serve } from '../../lib/serve';
import {
  advertById,
  advertList,
  allTemplates,
  modeDetail,
  siteAdvertInfo,
  specialList,
  tinyPageInfo,
} from './adverts';
import { cardsByIds, guessLike, homeProductList, listProducts, parseIds } from './cards';
import { type CatalogCache, notFound, siteOf } from './catalog.service';
import { combinedStock, limitCheck, productDetail, productStock } from './products';
import { searchProducts } from './search';
import { shopList, shopProducts } from './shops';

/**
 * A public catalogue read: its queries go to the replica when DATABASE_REPLICA_URL is set
 * (plugins/context.ts). Stock and purchase-limit checks stay on the primary: they guard a
 * purchase a moment later. The cached answers (labels, categories, site) are loaded from the
 * primary by their caches, since the NOTIFY that drops them can overtake the replica's replay.
 */
const CATALOGUE: ServeOptions = { config: { reads: 'catalogue' } };
const KEPT_CATALOGUE: ServeOptions = { config: { ...CATALOGUE.config, ...KEPT.config } };

export interface CatalogRoutesOptions {
  catalogs: CatalogCache;
}

/**
 * Catalogue and content calls (spec sections 1, 2, 3, 7, 9), declared in `catalogApi`
 * (packages/contract/src/catalog.ts). Every call needs the payload's siteId to name a site,
 * and only ever reads that site's data.
 */
export const catalogRoutes: FastifyPluginAsyncTypebox<CatalogRoutesOptions> = async (app, opts) => {
  const { catalogs } = opts;

  // ---- labels and categories (cached in memory, answers serialised once) ----
  const lableList = async (siteId: number) => (await catalogs.get(siteId)).answers.lableList;
  serve(
    app,
    api.lableList,
    async (req, reply) => sendSerialised(reply, await lableList(siteOf(req.ctx).row.id)),
    KEPT,
  );
  serve(
    app,
    api.productCateList,
    async (req, reply) => {
      const answer = (await catalogs.get(siteOf(req.ctx).row.id)).answers.cateList.get(req.body.lableId);
      if (!answer) throw notFound('分类标签');
      return sendSerialised(reply, answer);
    },
    KEPT,
  );
  serve(
    app,
    api.templateLableList,
    async (req, reply) => sendSerialised(reply, await lableList(siteOf(req.ctx).row.id)),
    KEPT,
  );
  serve(
    app,
    api.cateList,
    async (req, reply) => sendSerialised(reply, (await catalogs.get(siteOf(req.ctx).row.id)).answers.tree),
    KEPT,
  );

  // ---- products ----
  serve(
    app,
    api.productDetail,
    async (req, reply) => sendKept(reply, await productDetail(req.ctx, catalogs, req.body.productId)),
    KEPT_CATALOGUE,
  );
  serve(app, api.productStock, async (req) => ok(await productStock(req.ctx, req.body.productId)));
  serve(app, api.combinedStock, async (req) => ok(await combinedStock(req.ctx, req.body.productInfos)));
  serve(
    app,
    api.productList,
    async (req, reply) => sendKept(reply, await listProducts(req.ctx, catalogs, req.body)),
    KEPT_CATALOGUE,
  );
  serve(
    app,
    api.listByIds,
    async (req) => ok({ list: await cardsByIds(req.ctx, parseIds(req.body.ids)) }),
    CATALOGUE,
  );
  serve(
    app,
    api.guessLike,
    async (req) => ok({ list: await guessLike(req.ctx, req.body.productId) }),
    CATALOGUE,
  );
  serve(app, api.limitCheck, async (req) => ok(await limitCheck(req.ctx, req.body.productInfos)));
  serve(app, api.homeProductList, async (req) => ok(await homeProductList(req.ctx, catalogs)), CATALOGUE);
  serve(
    app,
    api.search,
    async (req, reply) => sendKept(reply, await searchProducts(req.ctx, catalogs, req.body)),
    KEPT_CATALOGUE,
  );
  serve(app, api.specialList, async (req) => ok(await specialList(req.ctx, req.body)), CATALOGUE);

  // ---- adverts and templates ----
  serve(app, api.homeTemplate, async (req) => ok({ homePageModes: allTemplates(req.ctx) }));
  serve(app, api.allTemplates, async (req) => ok({ homePageModes: allTemplates(req.ctx) }));
  serve(app, api.modeDetail, async (req) => ok(modeDetail(req.ctx, req.body.templateName)));
  serve(
    app,
    api.listByMode,
    async (req) => ok({ list: await advertList(req.ctx, req.body.mode) }),
    CATALOGUE,
  );
  serve(
    app,
    api.templatePcInfo,
    async (req, reply) => sendSerialised(reply, siteOf(req.ctx).answers.pcInfo),
    KEPT,
  );
  serve(app, api.tinyPageInfo, async (req) => ok(await tinyPageInfo(req.ctx, req.query.id)), CATALOGUE);
  serve(app, api.siteAdvertInfo, async (req) => ok(await siteAdvertInfo(req.ctx)), CATALOGUE);
  serve(
    app,
    api.advertList,
    async (req) => ok({ list: await advertList(req.ctx, req.query.position) }),
    CATALOGUE,
  );
  serve(app, api.advertById, async (req) => ok(await advertById(req.ctx, req.body.id)), CATALOGUE);
  serve(app, api.activityList, async (req) => ok({ list: await advertList(req.ctx, 'activity') }), CATALOGUE);

  // ---- shop street (merchant onboarding and customer service are their own modules) ----
  serve(app, api.shopList, async (req) => ok(await shopList(req.ctx, req.body.pageNum)), CATALOGUE);
  serve(app, api.shopProducts, async (req) => ok(await shopProducts(req.ctx, req.body)), CATALOGUE);
};
