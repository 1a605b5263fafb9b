import { type Static, Type } from '@sinclair/typebox';
import { endpoint, PUBLIC_READ } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { ImageCodeProof } from './identity.ts';
import { Amount, Id as IdOf, Int } from './numbers.ts';
import { Page, PageNum } from './paging.ts';
import { HomePageMode, PcInfo, SiteId } from './site.ts';

/**
 * Catalogue and content calls (spec sections 1, 2, 3, 7 and 9). Every payload carries the
 * siteId; every answer is the envelope with these schemas as its data. Prices are integers
 * in minor units (fen), shown with two decimals and the site's cashUnit.
 */

export const MAX_SEARCH_LENGTH = 50;
/** How many ids, lines or products one call may name. */
export const MAX_LIST_ITEMS = 50;

const Id = IdOf();
export const SORT_FIELDS = ['default', 'sales', 'price', 'new'] as const;
const SortField = Type.Union(
  SORT_FIELDS.map((f) => Type.Literal(f)),
  { default: 'default', description: 'default 综合 · sales 销量 · price 价格 · new 新品' },
);
const SortType = Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' });

// ---- model -------------------------------------------------------------------------------

/** Spec section 3, "Category label". The spelling lableName is the spec's. */
export const CategoryLabel = Type.Object({ id: Type.Integer(), lableName: Type.String() });
export type CategoryLabel = Static<typeof CategoryLabel>;

/** Spec section 3, "Category product group": a category (id, catName) in its group (levelId, levelName). */
export const CategoryProductGroup = Type.Object({
  levelId: Type.Integer(),
  levelName: Type.String(),
  id: Type.Integer(),
  catName: Type.String(),
});
export type CategoryProductGroup = Static<typeof CategoryProductGroup>;

/** A supply source as a site names it (section 3 mapping, renamed by the site's supplyConfig). */
export const ProductSource = Type.Object({
  source: Type.Integer(),
  type: Type.Integer(),
  name: Type.String(),
  hasAddressTab: Type.Boolean({ description: 'false: virtual goods, no delivery address tab' }),
});
export type ProductSource = Static<typeof ProductSource>;

/** A product as a list shows it. price is the lowest specification price on this site. */
export const ProductCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  brand: Type.String(),
  image: Type.String(),
  price: Type.Integer({ description: 'fen' }),
  marketPrice: Type.Integer({ description: 'fen; 0 when none' }),
  sales: Type.Integer(),
  hasStock: Type.Boolean(),
  orderType: Type.Integer(),
  source: ProductSource,
  specificationId: Type.Integer({ description: 'the default (cheapest) specification' }),
});
export type ProductCard = Static<typeof ProductCard>;

/** Spec section 3: productSpecifications (id, specificationValue), each with its price and stock. */
export const ProductSpecification = Type.Object({
  id: Type.Integer(),
  specificationValue: Type.String(),
  price: Type.Integer({ description: 'fen, on this site' }),
  stock: Type.Integer(),
  hasStock: Type.Boolean(),
});
export type ProductSpecification = Static<typeof ProductSpecification>;

export const Shop = Type.Object({ id: Type.Integer(), shopName: Type.String(), logo: Type.String() });

export const ProductDetail = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  subtitle: Type.String(),
  brand: Type.String(),
  images: Type.Array(Type.String()),
  detail: Type.String({ description: 'rich detail as HTML written by the operator' }),
  price: Type.Integer(),
  marketPrice: Type.Integer(),
  sales: Type.Integer(),
  orderType: Type.Integer(),
  limitNum: Type.Integer({ description: 'most pieces per order; 0 = no limit' }),
  isOnSale: Type.Boolean(),
  source: ProductSource,
  shop: Shop,
  category: Type.Object({
    lableId: Type.Integer(),
    lableName: Type.String(),
    levelId: Type.Integer(),
    levelName: Type.String(),
    id: Type.Integer(),
    catName: Type.String(),
  }),
  productSpecifications: Type.Array(ProductSpecification),
});
export type ProductDetail = Static<typeof ProductDetail>;

/** A product line as the cart sends it (spec section 3, productInfos). */
export const ProductLine = Type.Object({
  productId: Id,
  specificationId: Id,
  num: Int(1, 9999),
});
export type ProductLine = Static<typeof ProductLine>;
/** Form data sends lists as a JSON text; both forms are accepted. */
const ProductLines = Type.Union([
  Type.Array(ProductLine, { minItems: 1, maxItems: MAX_LIST_ITEMS }),
  Type.String({ minLength: 2, maxLength: 8000, description: 'the same list as a JSON text' }),
]);

// ---- labels and categories ---------------------------------------------------------------

export const LableListBody = Type.Object({ siteId: SiteId });
export const LableList = Type.Object({ mallCateLables: Type.Array(CategoryLabel) });
export type LableList = Static<typeof LableList>;
export const LableListReply = Envelope(LableList);

export const ProductCateListBody = Type.Object({ siteId: SiteId, lableId: Id });
export const ProductCateList = Type.Object({ cateProductList: Type.Array(CategoryProductGroup) });
export type ProductCateList = Static<typeof ProductCateList>;
export const ProductCateListReply = Envelope(ProductCateList);

/** Every label with its categories, for the "all categories" menu in one call. */
export const CategoryTreeBody = Type.Object({ siteId: SiteId });
export const CategoryTree = Type.Object({
  mallCateLables: Type.Array(
    Type.Object({
      id: Type.Integer(),
      lableName: Type.String(),
      cateProductList: Type.Array(CategoryProductGroup),
    }),
  ),
});
export type CategoryTree = Static<typeof CategoryTree>;
export const CategoryTreeReply = Envelope(CategoryTree);

// ---- products ----------------------------------------------------------------------------

export const ProductDetailBody = Type.Object({ siteId: SiteId, productId: Id });
export const ProductDetailReply = Envelope(ProductDetail);

export const ProductStockBody = Type.Object({ siteId: SiteId, productId: Id });
export const ProductStock = Type.Object({
  productId: Type.Integer(),
  isOnSale: Type.Boolean(),
  productSpecifications: Type.Array(
    Type.Object({ id: Type.Integer(), stock: Type.Integer(), hasStock: Type.Boolean() }),
  ),
});
export type ProductStock = Static<typeof ProductStock>;
export const ProductStockReply = Envelope(ProductStock);

export const CombinedStockBody = Type.Object({ siteId: SiteId, productInfos: ProductLines });
export const StockLine = Type.Object({
  productId: Type.Integer(),
  specificationId: Type.Integer(),
  num: Type.Integer(),
  stock: Type.Integer({ description: '0 when the product is not sold here' }),
  isOnSale: Type.Boolean(),
  isEnough: Type.Boolean({ description: 'on sale here and stock >= num' }),
});
export const CombinedStock = Type.Object({ isEnough: Type.Boolean(), list: Type.Array(StockLine) });
export type CombinedStock = Static<typeof CombinedStock>;
export const CombinedStockReply = Envelope(CombinedStock);

export const ProductListBody = Type.Object({
  siteId: SiteId,
  cateId: Type.Optional(Id),
  lableId: Type.Optional(Id),
  sortField: Type.Optional(SortField),
  sortType: Type.Optional(SortType),
  pageNum: Type.Optional(PageNum),
});
export const ProductPage = Page(ProductCard);
export type ProductPage = Static<typeof ProductPage>;
export const ProductListReply = Envelope(ProductPage);

export const ProductListByIdsBody = Type.Object({
  siteId: SiteId,
  ids: Type.Union([
    Type.Array(Id, { minItems: 1, maxItems: MAX_LIST_ITEMS }),
    Type.String({ pattern: '^\\d{1,10}(,\\d{1,10}){0,49}$', description: 'comma-separated ids' }),
  ]),
});
export const ProductCards = Type.Object({ list: Type.Array(ProductCard) });
export type ProductCards = Static<typeof ProductCards>;
export const ProductCardsReply = Envelope(ProductCards);

export const GuessLikeBody = Type.Object({ siteId: SiteId, productId: Type.Optional(Id) });

export const LimitCheckBody = Type.Object({ siteId: SiteId, productInfos: ProductLines });
export const LimitLine = Type.Object({
  productId: Type.Integer(),
  specificationId: Type.Integer(),
  num: Type.Integer(),
  limitNum: Type.Integer({ description: 'most pieces per order; 0 = no limit' }),
  stock: Type.Integer(),
  isPassed: Type.Boolean(),
  msg: Type.String({ description: 'why the line fails; empty when it passes' }),
});
export const LimitCheck = Type.Object({ isPassed: Type.Boolean(), list: Type.Array(LimitLine) });
export type LimitCheck = Static<typeof LimitCheck>;
export const LimitCheckReply = Envelope(LimitCheck);

export const HomeProductListBody = Type.Object({ siteId: SiteId });
export const HomeProductList = Type.Object({
  floors: Type.Array(
    Type.Object({ lableId: Type.Integer(), lableName: Type.String(), list: Type.Array(ProductCard) }),
  ),
});
export type HomeProductList = Static<typeof HomeProductList>;
export const HomeProductListReply = Envelope(HomeProductList);

// ---- search ------------------------------------------------------------------------------

export const SEARCH_SORT_FIELDS = ['relevance', 'sales', 'price', 'new'] as const;
export const SearchBody = Type.Object({
  siteId: SiteId,
  itemName: Type.String({ maxLength: MAX_SEARCH_LENGTH, description: '搜索词' }),
  cateId: Type.Optional(Id),
  minPrice: Type.Optional(Amount()),
  maxPrice: Type.Optional(Amount()),
  sortField: Type.Optional(
    Type.Union(
      SEARCH_SORT_FIELDS.map((f) => Type.Literal(f)),
      { default: 'relevance' },
    ),
  ),
  sortType: Type.Optional(SortType),
  pageNum: Type.Optional(PageNum),
});
/** A highlighted part of the name: [start, end) in UTF-16 code units, as String.slice takes. */
export const HighlightRange = Type.Object({ start: Type.Integer(), end: Type.Integer() });
export const SearchHit = Type.Composite([
  ProductCard,
  Type.Object({ highlights: Type.Array(HighlightRange) }),
]);
export type SearchHit = Static<typeof SearchHit>;
export const SearchResult = Type.Composite([
  Page(SearchHit),
  Type.Object({
    keywords: Type.Array(Type.String(), { description: 'the words searched for, synonyms included' }),
    suggestions: Type.Object({
      words: Type.Array(Type.String(), { description: 'popular words on this site' }),
      products: Type.Array(ProductCard, { description: 'nearest products when nothing matched' }),
    }),
  }),
]);
export type SearchResult = Static<typeof SearchResult>;
export const SearchReply = Envelope(SearchResult);

// ---- adverts, specials, templates --------------------------------------------------------

export const ADVERT_TYPE = { special: 1, externalUrl: 2 } as const;
export const ADVERT_POSITIONS = ['menu', 'banner', 'activity', 'floor'] as const;

export const Advert = Type.Object({
  id: Type.Integer(),
  type: Type.Integer({ description: '1: special product list; 2: external URL' }),
  position: Type.String({ description: 'menu · banner · activity · floor' }),
  title: Type.String(),
  adName: Type.String(),
  url: Type.String(),
  image: Type.String(),
  sort: Type.Integer(),
});
export type Advert = Static<typeof Advert>;
export const AdvertReply = Envelope(Advert);
export const AdvertList = Type.Object({ list: Type.Array(Advert) });
export type AdvertList = Static<typeof AdvertList>;
export const AdvertListReply = Envelope(AdvertList);

export const SpecialListBody = Type.Object({
  siteId: SiteId,
  advertId: Id,
  sortField: Type.Optional(SortField),
  sortType: Type.Optional(SortType),
  pageNum: Type.Optional(PageNum),
});
export const SpecialList = Type.Composite([Page(ProductCard), Type.Object({ advert: Advert })]);
export type SpecialList = Static<typeof SpecialList>;
export const SpecialListReply = Envelope(SpecialList);

export const SiteQuery = Type.Object({ siteId: SiteId });
/** A payload that names the site only. */
export const SiteBody = Type.Object({ siteId: SiteId });
/** activityList also reads a siteId from its query string. */
export const ActivityListQuery = Type.Object({ siteId: Type.Optional(SiteId) });
export const AdvertByIdBody = Type.Object({ siteId: SiteId, id: Id });
export const AdvertListQuery = Type.Object({
  siteId: SiteId,
  position: Type.Optional(Type.Union(ADVERT_POSITIONS.map((p) => Type.Literal(p)))),
});
export const ListByModeBody = Type.Object({
  siteId: SiteId,
  mode: Type.Union(
    ADVERT_POSITIONS.map((p) => Type.Literal(p)),
    { description: 'advert position' },
  ),
});
export const SiteAdvertInfo = Type.Object({
  menu: Type.Array(Advert),
  banner: Type.Array(Advert),
  activity: Type.Array(Advert),
  floor: Type.Array(Advert),
});
export type SiteAdvertInfo = Static<typeof SiteAdvertInfo>;
export const SiteAdvertInfoReply = Envelope(SiteAdvertInfo);

export const HomeTemplate = Type.Object({ homePageModes: Type.Array(HomePageMode) });
export type HomeTemplate = Static<typeof HomeTemplate>;
export const HomeTemplateReply = Envelope(HomeTemplate);
export const AllTemplatesReply = Envelope(HomeTemplate);
export const ModeDetailBody = Type.Object({ siteId: SiteId, templateName: Type.String({ maxLength: 64 }) });
export const ModeDetailReply = Envelope(HomePageMode);
export const PcInfoQuery = Type.Object({ siteId: SiteId });
export const PcInfoGetReply = Envelope(PcInfo);

export const TinyPageQuery = Type.Object({ siteId: SiteId, id: Type.Optional(Id) });
export const TinyPageBlock = Type.Object({
  kind: Type.String({ description: 'banner · adverts · products' }),
  title: Type.String(),
  image: Type.String(),
  adverts: Type.Array(Advert),
  products: Type.Array(ProductCard),
});
export const TinyPage = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  blocks: Type.Array(TinyPageBlock),
});
export type TinyPage = Static<typeof TinyPage>;
export const TinyPageReply = Envelope(TinyPage);

// ---- shop street, merchant onboarding, customer service, client tips ---------------------

export const ShopListBody = Type.Object({ siteId: SiteId, pageNum: Type.Optional(PageNum) });
export const ShopCard = Type.Object({
  id: Type.Integer(),
  shopName: Type.String(),
  logo: Type.String(),
  intro: Type.String(),
  productCount: Type.Integer({ description: 'products on sale on this site' }),
  products: Type.Array(ProductCard, { description: 'up to 4 best sellers' }),
});
export const ShopPage = Page(ShopCard);
export type ShopPage = Static<typeof ShopPage>;
export const ShopListReply = Envelope(ShopPage);
export const ShopProductsBody = Type.Object({
  siteId: SiteId,
  shopId: Id,
  sortField: Type.Optional(SortField),
  sortType: Type.Optional(SortType),
  pageNum: Type.Optional(PageNum),
});
export const ShopProducts = Type.Composite([Page(ProductCard), Type.Object({ shop: ShopCard })]);
export type ShopProducts = Static<typeof ShopProducts>;
export const ShopProductsReply = Envelope(ShopProducts);

export const LICENCE_MAX_BYTES = 2 * 1024 * 1024;
/** Multipart form data: the licence picture under `file`. */
export const LicenceUploadBody = Type.Object({
  siteId: SiteId,
  file: Type.Unknown({ description: 'the image file' }),
});
export const LicenceUploadReply = Envelope(
  Type.Object({ url: Type.String({ description: 'pass it as licenceUrl when applying' }) }),
);

export const MERCHANT_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export const MERCHANT_STATUS_LABEL: Record<number, string> = { 0: '审核中', 1: '审核通过', 2: '审核未通过' };
/** Unified social credit code: 18 characters of digits and capitals (GB 32100-2015, no I O Z S V). */
export const CREDIT_CODE_PATTERN = '^[0-9A-HJ-NPQRTUWXY]{2}\\d{6}[0-9A-HJ-NPQRTUWXY]{10}$';
const Mobile = Type.String({ pattern: '^1\\d{10}$', description: '11-digit mobile number' });
export const MerchantApplyBody = Type.Object({
  siteId: SiteId,
  phone: Mobile,
  contactName: Type.String({ minLength: 2, maxLength: 20 }),
  companyName: Type.String({ minLength: 4, maxLength: 60 }),
  shopName: Type.String({ minLength: 2, maxLength: 30 }),
  creditCode: Type.String({ pattern: CREDIT_CODE_PATTERN, description: '统一社会信用代码' }),
  licenceUrl: Type.String({ maxLength: 200, description: 'the url answered by uploadLicence' }),
  mainCategory: Type.String({ minLength: 2, maxLength: 20 }),
  intro: Type.Optional(Type.String({ maxLength: 500 })),
});
/** What a merchant application says (the site comes with the request). */
export type MerchantApplyInput = Omit<Static<typeof MerchantApplyBody>, 'siteId'>;
export const MerchantApplication = Type.Object({
  applyId: Type.Integer(),
  shopName: Type.String(),
  companyName: Type.String(),
  status: Type.Integer({ description: '0 审核中 · 1 审核通过 · 2 审核未通过' }),
  statusText: Type.String(),
  rejectReason: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type MerchantApplication = Static<typeof MerchantApplication>;
export const MerchantApplyReply = Envelope(MerchantApplication);
/** By phone a person proves themself with an image code; a logged-in member sees their own without. */
export const MerchantStatusBody = Type.Object({
  siteId: SiteId,
  phone: Type.Optional(Mobile),
  ...ImageCodeProof,
});
export const MerchantStatus = Type.Object({ list: Type.Array(MerchantApplication) });
export type MerchantStatus = Static<typeof MerchantStatus>;
export const MerchantStatusReply = Envelope(MerchantStatus);

export const ServiceChannelsBody = Type.Object({ siteId: SiteId });
export const ServiceChannel = Type.Object({
  type: Type.String({ description: 'hotline · spareHotline · email · online · wechat' }),
  name: Type.String(),
  value: Type.String({
    description: 'hotlines that are not plain digits or landlines are encrypted, as in getSiteConfig',
  }),
  hours: Type.String(),
});
export const ServiceChannels = Type.Object({ list: Type.Array(ServiceChannel) });
export type ServiceChannels = Static<typeof ServiceChannels>;
export const ServiceChannelsReply = Envelope(ServiceChannels);
export const SERVICE_MESSAGE_TOPICS = ['商品咨询', '订单问题', '售后服务', '投诉建议', '其他'] as const;
export const ServiceMessageBody = Type.Object({
  siteId: SiteId,
  name: Type.String({ minLength: 1, maxLength: 20 }),
  phone: Mobile,
  topic: Type.Union(SERVICE_MESSAGE_TOPICS.map((t) => Type.Literal(t))),
  content: Type.String({ minLength: 5, maxLength: 500 }),
});
export const ServiceMessageReply = Envelope(Type.Object({ messageId: Type.Integer() }));
/** The logged-in member's messages with customer service's reply (empty until replied). */
export const MyServiceMessagesBody = Type.Object({ siteId: SiteId, pageNum: Type.Optional(PageNum) });
export const MyServiceMessage = Type.Object({
  messageId: Type.Integer(),
  topic: Type.String(),
  content: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  reply: Type.String({ description: 'plain text; empty: not replied yet' }),
  repliedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type MyServiceMessage = Static<typeof MyServiceMessage>;
export const MyServiceMessages = Page(MyServiceMessage);
export type MyServiceMessages = Static<typeof MyServiceMessages>;

export const ClientTipsBody = Type.Object({ siteId: SiteId });
export const ClientNotice = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String({ description: 'HTML written by the operator' }),
  startTime: Type.String({ format: 'date-time' }),
  endTime: Type.String({ format: 'date-time' }),
});
export const ClientTips = Type.Object({ notice: Type.Union([ClientNotice, Type.Null()]) });
export type ClientTips = Static<typeof ClientTips>;
export const ClientTipsReply = Envelope(ClientTips);

// ---- the endpoint table ------------------------------------------------------------------

const site = { site: 'required' } as const;
const categories = { ...site, tag: 'catalog: categories' } as const;
const products = { ...site, tag: 'catalog: products' } as const;
const content = { ...site, tag: 'catalog: adverts and templates' } as const;
const street = { ...site, tag: 'catalog: shops, merchants, service' } as const;

/**
 * The catalogue and content endpoints (spec sections 1, 2, 3, 7, 9). Paths follow the spec's
 * own: shopper catalogue calls under /api/..., content and site calls under /mall/... . Every
 * call needs the payload's siteId to name a site, and only ever reads that site's data.
 */
export const catalogApi = {
  // ---- labels and categories ----
  lableList: endpoint({
    ...categories,
    ...PUBLIC_READ,
    method: 'POST',
    path: '/api/lableList',
    summary: '分类标签列表（mallCateLables）',
    body: LableListBody,
    reply: LableListReply,
  }),
  productCateList: endpoint({
    ...categories,
    ...PUBLIC_READ,
    method: 'POST',
    path: '/api/productCateList',
    summary: '标签下的分类（cateProductList：levelId, levelName, id, catName）',
    body: ProductCateListBody,
    reply: ProductCateListReply,
  }),
  templateLableList: endpoint({
    ...content,
    ...PUBLIC_READ,
    method: 'POST',
    path: '/mall/template/lableList',
    summary: '分类标签列表（同 /api/lableList）',
    body: LableListBody,
    reply: LableListReply,
  }),
  cateList: endpoint({
    ...content,
    ...PUBLIC_READ,
    method: 'POST',
    path: '/mall/template/cateList',
    summary: '全部分类：每个标签及其分类，用于“全部分类”菜单',
    body: CategoryTreeBody,
    reply: CategoryTreeReply,
  }),

  // ---- products ----
  productDetail: endpoint({
    ...products,
    ...PUBLIC_READ,
    method: 'POST',
    path: '/api/product/detail',
    summary: '商品详情（含规格、本站价格、来源、店铺）',
    body: ProductDetailBody,
    reply: ProductDetailReply,
  }),
  productStock: endpoint({
    ...products,
    method: 'POST',
    path: '/api/product/stock',
    summary: '商品各规格库存',
    body: ProductStockBody,
    reply: ProductStockReply,
  }),
  combinedStock: endpoint({
    ...products,
    method: 'POST',
    path: '/api/product/combinedStock',
    summary: '多个商品规格的组合库存（productInfos 可为数组或 JSON 文本）',
    body: CombinedStockBody,
    reply: CombinedStockReply,
  }),
  productList: endpoint({
    ...products,
    ...PUBLIC_READ,
    method: 'POST',
    path: '/api/product/list',
    summary: '商品列表：按分类（cateId）或标签（lableId），排序，每页 10 条，最多 100 页',
    body: ProductListBody,
    reply: ProductListReply,
  }),
  listByIds: endpoint({
    ...products,
    method: 'POST',
    path: '/api/product/listByIds',
    summary: '按 id 取商品（最多 50 个，按请求顺序，只含本站在售商品）',
    body: ProductListByIdsBody,
    reply: ProductCardsReply,
  }),
  guessLike: endpoint({
    ...products,
    method: 'POST',
    path: '/api/product/guessLike',
    summary: '猜你喜欢（同类热销，再补全站热销）',
    body: GuessLikeBody,
    reply: ProductCardsReply,
  }),
  limitCheck: endpoint({
    ...products,
    method: 'POST',
    path: '/api/product/limitCheck',
    summary: '限购校验：在售、库存、每单限购',
    body: LimitCheckBody,
    reply: LimitCheckReply,
  }),
  homeProductList: endpoint({
    ...products,
    method: 'POST',
    path: '/api/product/homeList',
    summary: '首页商品楼层：每个标签的热销商品',
    body: HomeProductListBody,
    reply: HomeProductListReply,
  }),
  search: endpoint({
    ...products,
    ...PUBLIC_READ,
    method: 'POST',
    path: '/api/product/search',
    summary:
      '商品搜索：中文分词、同义词、部分词；分类与价格筛选；相关度/价格/销量/新品排序；高亮；无结果时给出建议',
    body: SearchBody,
    reply: SearchReply,
  }),
  specialList: endpoint({
    ...products,
    method: 'POST',
    path: '/api/product/specialList',
    summary: '专题商品列表：类型 1 广告对应的商品；类型 2 广告只返回其外链 url',
    body: SpecialListBody,
    reply: SpecialListReply,
  }),

  // ---- adverts and templates ----
  homeTemplate: endpoint({
    ...content,
    method: 'GET',
    path: '/mall/template/homeTemplate',
    summary: '首页模板（GET，siteId 在查询串）',
    body: SiteQuery,
    reply: HomeTemplateReply,
  }),
  allTemplates: endpoint({
    ...content,
    method: 'POST',
    path: '/mall/template/allTemplates',
    summary: '全部模板',
    body: SiteBody,
    reply: AllTemplatesReply,
  }),
  modeDetail: endpoint({
    ...content,
    method: 'POST',
    path: '/mall/template/modeDetail',
    summary: '模板详情（按 templateName）',
    body: ModeDetailBody,
    reply: ModeDetailReply,
  }),
  listByMode: endpoint({
    ...content,
    method: 'POST',
    path: '/mall/template/listByMode',
    summary: '按位置（mode）取广告列表',
    body: ListByModeBody,
    reply: AdvertListReply,
  }),
  templatePcInfo: endpoint({
    ...content,
    method: 'GET',
    path: '/mall/template/pcInfo',
    summary: 'PC 首页信息（GET；同 POST /mall/mallsite/pcInfo）',
    body: PcInfoQuery,
    reply: PcInfoGetReply,
  }),
  tinyPageInfo: endpoint({
    ...content,
    method: 'GET',
    path: '/mall/template/tinyPageInfo',
    summary: '微页面（GET；不带 id 为站点首页微页面）',
    body: TinyPageQuery,
    reply: TinyPageReply,
  }),
  siteAdvertInfo: endpoint({
    ...content,
    method: 'POST',
    path: '/mall/advert/siteAdvertInfo',
    summary: '站点广告（按位置分组：menu, banner, activity, floor）',
    body: SiteBody,
    reply: SiteAdvertInfoReply,
  }),
  advertList: endpoint({
    ...content,
    method: 'GET',
    path: '/mall/advert/list',
    summary: '广告列表（GET；可按 position 过滤）',
    body: AdvertListQuery,
    reply: AdvertListReply,
  }),
  advertById: endpoint({
    ...content,
    method: 'POST',
    path: '/mall/advert/getById',
    summary: '按 id 取广告',
    body: AdvertByIdBody,
    reply: AdvertReply,
  }),
  activityList: endpoint({
    ...content,
    method: 'POST',
    path: '/mall/advert/activityList',
    summary: '活动广告列表（POST；siteId 同时在查询串）',
    query: ActivityListQuery,
    body: SiteBody,
    reply: AdvertListReply,
  }),

  // ---- shop street, merchant onboarding, customer service, client tips ----
  shopList: endpoint({
    ...street,
    method: 'POST',
    path: '/mall/shop/list',
    summary: '店铺街：本站店铺，每页 10 个，每店 4 个热销商品',
    body: ShopListBody,
    reply: ShopListReply,
  }),
  shopProducts: endpoint({
    ...street,
    method: 'POST',
    path: '/mall/shop/products',
    summary: '店铺商品（排序、分页）',
    body: ShopProductsBody,
    reply: ShopProductsReply,
  }),
  licenceUpload: endpoint({
    ...street,
    method: 'POST',
    path: '/mall/merchant/uploadLicence',
    summary:
      '上传营业执照（multipart：siteId, file；PNG/JPG/WebP，≤2 MB，按文件头校验；每地址每小时 10 次，全站每日限额）',
    body: LicenceUploadBody,
    reply: LicenceUploadReply,
  }),
  merchantApply: endpoint({
    ...street,
    auth: 'optional',
    method: 'POST',
    path: '/mall/merchant/apply',
    summary: '提交商家入驻申请（每地址每小时 10 次）',
    body: MerchantApplyBody,
    reply: MerchantApplyReply,
  }),
  merchantStatus: endpoint({
    ...street,
    auth: 'optional',
    method: 'POST',
    path: '/mall/merchant/applyStatus',
    summary: '入驻申请状态：登录会员的申请，或按手机号查询（需图形验证码）',
    body: MerchantStatusBody,
    reply: MerchantStatusReply,
  }),
  serviceChannels: endpoint({
    ...street,
    method: 'POST',
    path: '/mall/service/channels',
    summary: '商城客服渠道（热线、在线客服、邮箱）',
    body: ServiceChannelsBody,
    reply: ServiceChannelsReply,
  }),
  serviceMessage: endpoint({
    ...street,
    auth: 'optional',
    method: 'POST',
    path: '/mall/service/message',
    summary: '客服留言（每地址每小时 5 次）',
    body: ServiceMessageBody,
    reply: ServiceMessageReply,
  }),
  myServiceMessages: endpoint({
    ...street,
    auth: 'required',
    method: 'POST',
    path: '/mall/service/myMessages',
    summary: '我的客服留言与客服回复（登录会员，分页）',
    body: MyServiceMessagesBody,
    reply: Envelope(MyServiceMessages),
  }),
  clientTips: endpoint({
    ...street,
    method: 'POST',
    path: '/mall/notice/queryClientTips',
    summary: '客户端提示：站点当前的 PC 公告（表单提交）',
    body: ClientTipsBody,
    reply: ClientTipsReply,
  }),
};
