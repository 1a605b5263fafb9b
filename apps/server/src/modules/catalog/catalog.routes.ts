import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { catalogApi as api } from '@sitemall/contract';
import { ok, sendSerialised } from '../../lib/envelope';
import { failure } from '../../lib/errors';
import { serve } from '../../lib/serve';
import { type AddressLimit, minutesLeft, perAddress } from '../../plugins/rate-limit';
import {
  advertById,
  advertList,
  allTemplates,
  modeDetail,
  siteAdvertInfo,
  specialList,
  tinyPageInfo,
} from './adverts';
import { type CatalogCache, notFound, siteOf } from './catalog.service';
import { applyMerchant, merchantStatus, uploadLicence } from './merchant';
import {
  cardsByIds,
  combinedStock,
  guessLike,
  homeProductList,
  limitCheck,
  listProducts,
  parseIds,
  productDetail,
  productStock,
} from './products';
import { searchProducts } from './search';
import { clientTips, leaveServiceMessage, serviceChannels } from './service-desk';
import { shopList, shopProducts } from './shops';

/** Anonymous writes and look-ups of the shop street, per client address. */
export const CATALOG_LIMITS = {
  upload: {
    name: 'licenceUpload',
    max: 10,
    windowSeconds: 3600,
    msg: (s) => `上传过于频繁，请${minutesLeft(s)}分钟后再试`,
  },
  merchantApply: {
    name: 'merchantApply',
    max: 10,
    windowSeconds: 3600,
    msg: (s) => `提交过于频繁，请${minutesLeft(s)}分钟后再试`,
  },
  merchantStatus: {
    name: 'merchantStatus',
    max: 10,
    windowSeconds: 60,
    msg: () => '查询过于频繁，请稍后再试',
  },
  serviceMessage: {
    name: 'serviceMessage',
    max: 5,
    windowSeconds: 3600,
    msg: (s) => `留言过于频繁，请${minutesLeft(s)}分钟后再试`,
  },
} satisfies Record<string, AddressLimit>;

const dataDirOf = (opts: CatalogRoutesOptions) => {
  if (!opts.dataDir) throw failure('文件上传暂不可用');
  return opts.dataDir;
};

export interface CatalogRoutesOptions {
  catalogs: CatalogCache;
  /** Absent: uploads are refused (an app built without a data folder). */
  dataDir?: string;
  hotlineKey: Buffer;
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
  serve(app, api.lableList, async (req, reply) =>
    sendSerialised(reply, await lableList(siteOf(req.ctx).row.id)),
  );
  serve(app, api.productCateList, async (req, reply) => {
    const answer = (await catalogs.get(siteOf(req.ctx).row.id)).answers.cateList.get(req.body.lableId);
    if (!answer) throw notFound('分类标签');
    return sendSerialised(reply, answer);
  });
  serve(app, api.templateLableList, async (req, reply) =>
    sendSerialised(reply, await lableList(siteOf(req.ctx).row.id)),
  );
  serve(app, api.cateList, async (req, reply) =>
    sendSerialised(reply, (await catalogs.get(siteOf(req.ctx).row.id)).answers.tree),
  );

  // ---- products ----
  serve(app, api.productDetail, async (req) => ok(await productDetail(req.ctx, req.body.productId)));
  serve(app, api.productStock, async (req) => ok(await productStock(req.ctx, req.body.productId)));
  serve(app, api.combinedStock, async (req) => ok(await combinedStock(req.ctx, req.body.productInfos)));
  serve(app, api.productList, async (req) => ok(await listProducts(req.ctx, catalogs, req.body)));
  serve(app, api.listByIds, async (req) => ok({ list: await cardsByIds(req.ctx, parseIds(req.body.ids)) }));
  serve(app, api.guessLike, async (req) => ok({ list: await guessLike(req.ctx, req.body.productId) }));
  serve(app, api.limitCheck, async (req) => ok(await limitCheck(req.ctx, req.body.productInfos)));
  serve(app, api.homeProductList, async (req) => ok(await homeProductList(req.ctx, catalogs)));
  serve(app, api.search, async (req) => ok(await searchProducts(req.ctx, catalogs, req.body)));
  serve(app, api.specialList, async (req) => ok(await specialList(req.ctx, req.body)));

  // ---- adverts and templates ----
  serve(app, api.homeTemplate, async (req) => ok({ homePageModes: allTemplates(req.ctx) }));
  serve(app, api.allTemplates, async (req) => ok({ homePageModes: allTemplates(req.ctx) }));
  serve(app, api.modeDetail, async (req) => ok(modeDetail(req.ctx, req.body.templateName)));
  serve(app, api.listByMode, async (req) => ok({ list: await advertList(req.ctx, req.body.mode) }));
  serve(app, api.templatePcInfo, async (req, reply) => sendSerialised(reply, siteOf(req.ctx).answers.pcInfo));
  serve(app, api.tinyPageInfo, async (req) => ok(await tinyPageInfo(req.ctx, req.query.id)));
  serve(app, api.siteAdvertInfo, async (req) => ok(await siteAdvertInfo(req.ctx)));
  serve(app, api.advertList, async (req) => ok({ list: await advertList(req.ctx, req.query.position) }));
  serve(app, api.advertById, async (req) => ok(await advertById(req.ctx, req.body.id)));
  serve(app, api.activityList, async (req) => ok({ list: await advertList(req.ctx, 'activity') }));

  // ---- shop street, merchant onboarding, customer service, client tips ----
  serve(app, api.shopList, async (req) => ok(await shopList(req.ctx, req.body.pageNum)));
  serve(app, api.shopProducts, async (req) => ok(await shopProducts(req.ctx, req.body)));
  serve(
    app,
    api.licenceUpload,
    async (req) => ok(await uploadLicence(req.ctx.db, dataDirOf(opts), req.body.file)),
    { config: perAddress(CATALOG_LIMITS.upload) },
  );
  serve(
    app,
    api.merchantApply,
    async (req) => ok(await applyMerchant(req.ctx, dataDirOf(opts), req.body), '申请已提交，请等待审核'),
    { config: perAddress(CATALOG_LIMITS.merchantApply) },
  );
  serve(app, api.merchantStatus, async (req) => ok({ list: await merchantStatus(req.ctx, req.body) }), {
    config: perAddress(CATALOG_LIMITS.merchantStatus),
  });
  serve(app, api.serviceChannels, async (req) => ok(await serviceChannels(req.ctx, opts.hotlineKey)));
  serve(
    app,
    api.serviceMessage,
    async (req) => ok(await leaveServiceMessage(req.ctx, req.body), '留言已提交，客服会尽快联系您'),
    { config: perAddress(CATALOG_LIMITS.serviceMessage) },
  );
  serve(app, api.clientTips, async (req) => ok(await clientTips(req.ctx)));
};
