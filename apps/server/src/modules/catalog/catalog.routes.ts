import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdvertByIdBody,
  AdvertListQuery,
  AdvertListReply,
  AdvertReply,
  AllTemplatesReply,
  CategoryTreeBody,
  CategoryTreeReply,
  ClientTipsBody,
  ClientTipsReply,
  CombinedStockBody,
  CombinedStockReply,
  GuessLikeBody,
  HomeProductListBody,
  HomeProductListReply,
  HomeTemplateReply,
  LableListBody,
  LableListReply,
  LicenceUploadReply,
  LimitCheckBody,
  LimitCheckReply,
  ListByModeBody,
  MerchantApplyBody,
  MerchantApplyReply,
  MerchantStatusBody,
  MerchantStatusReply,
  ModeDetailBody,
  ModeDetailReply,
  PcInfoGetReply,
  PcInfoQuery,
  ProductCardsReply,
  ProductCateListBody,
  ProductCateListReply,
  ProductDetailBody,
  ProductDetailReply,
  ProductListBody,
  ProductListByIdsBody,
  ProductListReply,
  ProductStockBody,
  ProductStockReply,
  SearchBody,
  SearchReply,
  ServiceChannelsBody,
  ServiceChannelsReply,
  ServiceMessageBody,
  ServiceMessageReply,
  ShopListBody,
  ShopListReply,
  ShopProductsBody,
  ShopProductsReply,
  SiteAdvertInfoReply,
  SiteId,
  SiteQuery,
  SpecialListBody,
  SpecialListReply,
  TinyPageQuery,
  TinyPageReply,
} from '@sitemall/contract';
import { ok, sendSerialised } from '../../lib/envelope';
import { failure } from '../../lib/errors';
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
 * Catalogue and content calls (spec sections 1, 2, 3, 7, 9). Paths follow the spec's own:
 * shopper catalogue calls under /api/..., content and site calls under /mall/... . Every call
 * needs the payload's siteId to name a site, and only ever reads that site's data.
 */
export const catalogRoutes: FastifyPluginAsyncTypebox<CatalogRoutesOptions> = async (app, opts) => {
  const { catalogs } = opts;
  const site = { site: 'required' as const };
  const category = ['catalog: categories'];
  const products = ['catalog: products'];
  const content = ['catalog: adverts and templates'];
  const street = ['catalog: shops, merchants, service'];

  // ---- labels and categories (cached in memory, answers serialised once) ----
  app.post(
    '/api/lableList',
    {
      config: site,
      schema: {
        tags: category,
        summary: '分类标签列表（mallCateLables）',
        body: LableListBody,
        response: { 200: LableListReply },
      },
    },
    async (req, reply) =>
      sendSerialised(reply, (await catalogs.get(siteOf(req.ctx).row.id)).answers.lableList),
  );
  const productCateList = async (siteId: number, lableId: number) => {
    const answer = (await catalogs.get(siteId)).answers.cateList.get(lableId);
    if (!answer) throw notFound('分类标签');
    return answer;
  };
  app.post(
    '/api/productCateList',
    {
      config: site,
      schema: {
        tags: category,
        summary: '标签下的分类（cateProductList：levelId, levelName, id, catName）',
        body: ProductCateListBody,
        response: { 200: ProductCateListReply },
      },
    },
    async (req, reply) =>
      sendSerialised(reply, await productCateList(siteOf(req.ctx).row.id, req.body.lableId)),
  );
  app.post(
    '/mall/template/lableList',
    {
      config: site,
      schema: {
        tags: content,
        summary: '分类标签列表（同 /api/lableList）',
        body: LableListBody,
        response: { 200: LableListReply },
      },
    },
    async (req, reply) =>
      sendSerialised(reply, (await catalogs.get(siteOf(req.ctx).row.id)).answers.lableList),
  );
  app.post(
    '/mall/template/cateList',
    {
      config: site,
      schema: {
        tags: content,
        summary: '全部分类：每个标签及其分类，用于“全部分类”菜单',
        body: CategoryTreeBody,
        response: { 200: CategoryTreeReply },
      },
    },
    async (req, reply) => sendSerialised(reply, (await catalogs.get(siteOf(req.ctx).row.id)).answers.tree),
  );

  // ---- products ----
  app.post(
    '/api/product/detail',
    {
      config: site,
      schema: {
        tags: products,
        summary: '商品详情（含规格、本站价格、来源、店铺）',
        body: ProductDetailBody,
        response: { 200: ProductDetailReply },
      },
    },
    async (req) => ok(await productDetail(req.ctx, req.body.productId)),
  );
  app.post(
    '/api/product/stock',
    {
      config: site,
      schema: {
        tags: products,
        summary: '商品各规格库存',
        body: ProductStockBody,
        response: { 200: ProductStockReply },
      },
    },
    async (req) => ok(await productStock(req.ctx, req.body.productId)),
  );
  app.post(
    '/api/product/combinedStock',
    {
      config: site,
      schema: {
        tags: products,
        summary: '多个商品规格的组合库存（productInfos 可为数组或 JSON 文本）',
        body: CombinedStockBody,
        response: { 200: CombinedStockReply },
      },
    },
    async (req) => ok(await combinedStock(req.ctx, req.body.productInfos)),
  );
  app.post(
    '/api/product/list',
    {
      config: site,
      schema: {
        tags: products,
        summary: '商品列表：按分类（cateId）或标签（lableId），排序，每页 10 条，最多 100 页',
        body: ProductListBody,
        response: { 200: ProductListReply },
      },
    },
    async (req) => ok(await listProducts(req.ctx, catalogs, req.body)),
  );
  app.post(
    '/api/product/listByIds',
    {
      config: site,
      schema: {
        tags: products,
        summary: '按 id 取商品（最多 50 个，按请求顺序，只含本站在售商品）',
        body: ProductListByIdsBody,
        response: { 200: ProductCardsReply },
      },
    },
    async (req) => ok({ list: await cardsByIds(req.ctx, parseIds(req.body.ids)) }),
  );
  app.post(
    '/api/product/guessLike',
    {
      config: site,
      schema: {
        tags: products,
        summary: '猜你喜欢（同类热销，再补全站热销）',
        body: GuessLikeBody,
        response: { 200: ProductCardsReply },
      },
    },
    async (req) => ok({ list: await guessLike(req.ctx, req.body.productId) }),
  );
  app.post(
    '/api/product/limitCheck',
    {
      config: site,
      schema: {
        tags: products,
        summary: '限购校验：在售、库存、每单限购',
        body: LimitCheckBody,
        response: { 200: LimitCheckReply },
      },
    },
    async (req) => ok(await limitCheck(req.ctx, req.body.productInfos)),
  );
  app.post(
    '/api/product/homeList',
    {
      config: site,
      schema: {
        tags: products,
        summary: '首页商品楼层：每个标签的热销商品',
        body: HomeProductListBody,
        response: { 200: HomeProductListReply },
      },
    },
    async (req) => ok(await homeProductList(req.ctx, catalogs)),
  );
  app.post(
    '/api/product/search',
    {
      config: site,
      schema: {
        tags: products,
        summary:
          '商品搜索：中文分词、同义词、部分词；分类与价格筛选；相关度/价格/销量/新品排序；高亮；无结果时给出建议',
        body: SearchBody,
        response: { 200: SearchReply },
      },
    },
    async (req) => ok(await searchProducts(req.ctx, catalogs, req.body)),
  );
  app.post(
    '/api/product/specialList',
    {
      config: site,
      schema: {
        tags: products,
        summary: '专题商品列表：类型 1 广告对应的商品；类型 2 广告只返回其外链 url',
        body: SpecialListBody,
        response: { 200: SpecialListReply },
      },
    },
    async (req) => ok(await specialList(req.ctx, req.body)),
  );

  // ---- adverts and templates ----
  app.get(
    '/mall/template/homeTemplate',
    {
      config: site,
      schema: {
        tags: content,
        summary: '首页模板（GET，siteId 在查询串）',
        querystring: SiteQuery,
        response: { 200: HomeTemplateReply },
      },
    },
    async (req) => ok({ homePageModes: allTemplates(req.ctx) }),
  );
  app.post(
    '/mall/template/allTemplates',
    {
      config: site,
      schema: {
        tags: content,
        summary: '全部模板',
        body: Type.Object({ siteId: SiteId }),
        response: { 200: AllTemplatesReply },
      },
    },
    async (req) => ok({ homePageModes: allTemplates(req.ctx) }),
  );
  app.post(
    '/mall/template/modeDetail',
    {
      config: site,
      schema: {
        tags: content,
        summary: '模板详情（按 templateName）',
        body: ModeDetailBody,
        response: { 200: ModeDetailReply },
      },
    },
    async (req) => ok(modeDetail(req.ctx, req.body.templateName)),
  );
  app.post(
    '/mall/template/listByMode',
    {
      config: site,
      schema: {
        tags: content,
        summary: '按位置（mode）取广告列表',
        body: ListByModeBody,
        response: { 200: AdvertListReply },
      },
    },
    async (req) => ok({ list: await advertList(req.ctx, req.body.mode) }),
  );
  app.get(
    '/mall/template/pcInfo',
    {
      config: site,
      schema: {
        tags: content,
        summary: 'PC 首页信息（GET；同 POST /mall/mallsite/pcInfo）',
        querystring: PcInfoQuery,
        response: { 200: PcInfoGetReply },
      },
    },
    async (req, reply) => sendSerialised(reply, siteOf(req.ctx).answers.pcInfo),
  );
  app.get(
    '/mall/template/tinyPageInfo',
    {
      config: site,
      schema: {
        tags: content,
        summary: '微页面（GET；不带 id 为站点首页微页面）',
        querystring: TinyPageQuery,
        response: { 200: TinyPageReply },
      },
    },
    async (req) => ok(await tinyPageInfo(req.ctx, req.query.id)),
  );
  app.post(
    '/mall/advert/siteAdvertInfo',
    {
      config: site,
      schema: {
        tags: content,
        summary: '站点广告（按位置分组：menu, banner, activity, floor）',
        body: Type.Object({ siteId: SiteId }),
        response: { 200: SiteAdvertInfoReply },
      },
    },
    async (req) => ok(await siteAdvertInfo(req.ctx)),
  );
  app.get(
    '/mall/advert/list',
    {
      config: site,
      schema: {
        tags: content,
        summary: '广告列表（GET；可按 position 过滤）',
        querystring: AdvertListQuery,
        response: { 200: AdvertListReply },
      },
    },
    async (req) => ok({ list: await advertList(req.ctx, req.query.position) }),
  );
  app.post(
    '/mall/advert/getById',
    {
      config: site,
      schema: {
        tags: content,
        summary: '按 id 取广告',
        body: AdvertByIdBody,
        response: { 200: AdvertReply },
      },
    },
    async (req) => ok(await advertById(req.ctx, req.body.id)),
  );
  app.post(
    '/mall/advert/activityList',
    {
      config: site,
      schema: {
        tags: content,
        summary: '活动广告列表（POST；siteId 同时在查询串）',
        querystring: Type.Object({ siteId: Type.Optional(SiteId) }),
        body: Type.Object({ siteId: SiteId }),
        response: { 200: AdvertListReply },
      },
    },
    async (req) => ok({ list: await advertList(req.ctx, 'activity') }),
  );

  // ---- shop street, merchant onboarding, customer service, client tips ----
  app.post(
    '/mall/shop/list',
    {
      config: site,
      schema: {
        tags: street,
        summary: '店铺街：本站店铺，每页 10 个，每店 4 个热销商品',
        body: ShopListBody,
        response: { 200: ShopListReply },
      },
    },
    async (req) => ok(await shopList(req.ctx, req.body.pageNum)),
  );
  app.post(
    '/mall/shop/products',
    {
      config: site,
      schema: {
        tags: street,
        summary: '店铺商品（排序、分页）',
        body: ShopProductsBody,
        response: { 200: ShopProductsReply },
      },
    },
    async (req) => ok(await shopProducts(req.ctx, req.body)),
  );
  app.post(
    '/mall/merchant/uploadLicence',
    {
      config: { ...site, ...perAddress(CATALOG_LIMITS.upload) },
      schema: {
        tags: street,
        summary:
          '上传营业执照（multipart：siteId, file；PNG/JPG/WebP，≤2 MB，按文件头校验；每地址每小时 10 次，全站每日限额）',
        body: Type.Object({ siteId: SiteId, file: Type.Unknown({ description: 'the image file' }) }),
        response: { 200: LicenceUploadReply },
      },
    },
    async (req) => ok(await uploadLicence(req.ctx.db, dataDirOf(opts), req.body.file)),
  );
  app.post(
    '/mall/merchant/apply',
    {
      config: { ...site, auth: 'optional', ...perAddress(CATALOG_LIMITS.merchantApply) },
      schema: {
        tags: street,
        summary: '提交商家入驻申请（每地址每小时 10 次）',
        body: MerchantApplyBody,
        response: { 200: MerchantApplyReply },
      },
    },
    async (req) => ok(await applyMerchant(req.ctx, dataDirOf(opts), req.body), '申请已提交，请等待审核'),
  );
  app.post(
    '/mall/merchant/applyStatus',
    {
      config: { ...site, auth: 'optional', ...perAddress(CATALOG_LIMITS.merchantStatus) },
      schema: {
        tags: street,
        summary: '入驻申请状态：登录会员的申请，或按手机号查询（需图形验证码）',
        body: MerchantStatusBody,
        response: { 200: MerchantStatusReply },
      },
    },
    async (req) => ok({ list: await merchantStatus(req.ctx, req.body) }),
  );
  app.post(
    '/mall/service/channels',
    {
      config: site,
      schema: {
        tags: street,
        summary: '商城客服渠道（热线、在线客服、邮箱）',
        body: ServiceChannelsBody,
        response: { 200: ServiceChannelsReply },
      },
    },
    async (req) => ok(await serviceChannels(req.ctx, opts.hotlineKey)),
  );
  app.post(
    '/mall/service/message',
    {
      config: { ...site, auth: 'optional', ...perAddress(CATALOG_LIMITS.serviceMessage) },
      schema: {
        tags: street,
        summary: '客服留言（每地址每小时 5 次）',
        body: ServiceMessageBody,
        response: { 200: ServiceMessageReply },
      },
    },
    async (req) => ok(await leaveServiceMessage(req.ctx, req.body), '留言已提交，客服会尽快联系您'),
  );
  app.post(
    '/mall/notice/queryClientTips',
    {
      config: site,
      schema: {
        tags: street,
        summary: '客户端提示：站点当前的 PC 公告（表单提交）',
        body: ClientTipsBody,
        response: { 200: ClientTipsReply },
      },
    },
    async (req) => ok(await clientTips(req.ctx)),
  );
};
