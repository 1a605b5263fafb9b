import { type Static, Type } from '@sinclair/typebox';
import { adminSchema } from './admin.ts';
import { endpoint } from './endpoint.ts';
import { Envelope, ErrorEnvelope } from './envelope.ts';
import { Id, Int } from './numbers.ts';
import { XLSX_TYPE } from './order.ts';
import { PageNum } from './paging.ts';

/**
 * The catalogue and stock screens of the console (issue 12, item 5): what a site sells from
 * the shared catalogue, at what price per specification, on or off sale, with what purchase
 * limit (catalogue:view|manage); stock per specification, adjusted with a reason into the
 * stock ledger, and the low-stock list (stock:view|manage). Every siteId outside the caller's
 * scope answers 403 and changes nothing.
 */
const { Text, SiteIdIn, Reason, Paged, tagOf } = adminSchema;
const catalogue = tagOf('catalogue');
const stock = tagOf('stock');

/** Highest price a site may ask for a specification: 1,000,000 yuan. */
export const MAX_SITE_PRICE = 100_000_000;
/** Highest stock a specification may hold, and the largest single adjustment. */
export const MAX_STOCK = 10_000_000;
export const MAX_STOCK_DELTA = 1_000_000;
/** Most pieces per order a purchase limit may name (0: no limit). */
export const MAX_LIMIT_NUM = 9_999;
/** Below this many pieces a specification is on the low-stock list unless asked otherwise. */
export const LOW_STOCK_BELOW = 10;

export const CATALOGUE_MSG = {
  productMissing: '商品不存在',
  alreadyListed: '该商品已在本站点上架，请直接修改价格',
  notListed: '该商品未在本站点上架',
  categoryMissing: '分类不存在或不属于本站点',
  specMissing: '规格不存在或不属于该商品',
  pricesIncomplete: '请为商品的每个规格填写站点价',
  specUnknown: '规格不存在',
  specNotOnSite: '该规格不属于本站点的商品',
  stockShort: '库存不足，调整后库存不能小于 0',
  stockTooHigh: `调整后库存不能超过 ${MAX_STOCK}`,
  zeroDelta: '调整数量不能为 0',
  shopMissing: '店铺不存在',
  sourceInvalid: '请选择实物商品的供货来源',
  specsDuplicate: '规格名称不能重复',
} as const;

/** A price in fen: a positive whole number up to MAX_SITE_PRICE. */
export const SitePriceIn = Int(1, MAX_SITE_PRICE, { description: '站点价（分）' });

export const AdminSpec = Type.Object({
  id: Type.Integer(),
  specificationValue: Type.String(),
  stock: Type.Integer(),
  /** The site's price in fen; null when the site has no price for it (not sellable there). */
  price: Type.Union([Type.Integer(), Type.Null()]),
});
export type AdminSpec = Static<typeof AdminSpec>;

/** A product as a site sells it. */
export const AdminSiteProduct = Type.Object({
  siteId: Type.Integer(),
  productId: Type.Integer(),
  name: Type.String(),
  brand: Type.String(),
  categoryId: Type.Integer(),
  categoryName: Type.String(),
  /** The lowest specification price on the site (fen), what lists show. */
  price: Type.Integer(),
  marketPrice: Type.Integer(),
  /** All specifications' stock together. */
  stock: Type.Integer(),
  sales: Type.Integer(),
  isOnSale: Type.Boolean(),
  /** Most pieces per order; 0: no limit. */
  limitNum: Type.Integer(),
  specs: Type.Array(AdminSpec),
  listedAt: Type.String(),
});
export type AdminSiteProduct = Static<typeof AdminSiteProduct>;

/** A product of the shared catalogue, with whether the site sells it already. */
export const SharedProduct = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  brand: Type.String(),
  marketPrice: Type.Integer(),
  specs: Type.Array(AdminSpec),
});
export type SharedProduct = Static<typeof SharedProduct>;

export const SiteCategory = Type.Object({
  id: Type.Integer(),
  /** label / group / category, as the storefront's menu shows them. */
  path: Type.String(),
});
export type SiteCategory = Static<typeof SiteCategory>;

const OnSale = Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1 在售，0 已下架' });

export const ProductSearchBody = Type.Object({
  siteId: SiteIdIn,
  /** A product id, or part of its name. */
  keyword: Type.Optional(Text(60)),
  onSale: Type.Optional(OnSale),
  categoryId: Type.Optional(Id()),
  pageNum: Type.Optional(PageNum),
});
export type ProductSearchBody = Static<typeof ProductSearchBody>;

const PriceLines = Type.Array(Type.Object({ specificationId: Id(), price: SitePriceIn }), {
  minItems: 1,
  maxItems: 50,
});

export const ListProductBody = Type.Object({
  siteId: SiteIdIn,
  productId: Id(),
  categoryId: Id(),
  /** One price per specification of the product. */
  prices: PriceLines,
  limitNum: Type.Optional(Int(0, MAX_LIMIT_NUM)),
  isOnSale: Type.Optional(Type.Boolean()),
  reason: Type.Optional(Reason),
});
export type ListProductBody = Static<typeof ListProductBody>;

export const SetPricesBody = Type.Object({
  siteId: SiteIdIn,
  productId: Id(),
  /** The specifications whose price changes (others keep theirs). */
  prices: PriceLines,
  reason: Type.Optional(Reason),
});
export type SetPricesBody = Static<typeof SetPricesBody>;

export const SetSaleBody = Type.Object({
  siteId: SiteIdIn,
  productId: Id(),
  isOnSale: Type.Boolean(),
  reason: Type.Optional(Reason),
});
export const SetLimitBody = Type.Object({
  siteId: SiteIdIn,
  productId: Id(),
  limitNum: Int(0, MAX_LIMIT_NUM),
  reason: Type.Optional(Reason),
});

export const CreateProductBody = Type.Object({
  siteId: SiteIdIn,
  name: Text(60, { minLength: 1 }),
  brand: Type.Optional(Text(30)),
  shopId: Id(),
  /** A physical supply source of SOURCE_TYPES. */
  source: Int(1, 9_999),
  categoryId: Id(),
  specs: Type.Array(
    Type.Object({
      specificationValue: Text(40, { minLength: 1 }),
      stock: Int(0, MAX_STOCK),
      price: SitePriceIn,
    }),
    { minItems: 1, maxItems: 20 },
  ),
  limitNum: Type.Optional(Int(0, MAX_LIMIT_NUM)),
  isOnSale: Type.Optional(Type.Boolean()),
});
export type CreateProductBody = Static<typeof CreateProductBody>;

// ---- stock ------------------------------------------------------------------------------------

export const StockSpec = Type.Object({
  specificationId: Type.Integer(),
  productId: Type.Integer(),
  name: Type.String(),
  specificationValue: Type.String(),
  stock: Type.Integer(),
  isOnSale: Type.Boolean(),
});
export type StockSpec = Static<typeof StockSpec>;

export const StockSearchBody = Type.Object({
  siteId: SiteIdIn,
  keyword: Type.Optional(Text(60)),
  /** Only specifications with fewer pieces than this. */
  below: Type.Optional(Int(1, MAX_STOCK)),
  pageNum: Type.Optional(PageNum),
});

export const AdjustStockBody = Type.Object({
  siteId: SiteIdIn,
  specificationId: Id(),
  /** Pieces added (positive) or taken (negative); never 0. */
  delta: Int(-MAX_STOCK_DELTA, MAX_STOCK_DELTA),
  reason: Reason,
});
export type AdjustStockBody = Static<typeof AdjustStockBody>;

export const StockMoveRow = Type.Object({
  id: Type.Integer(),
  specificationId: Type.Integer(),
  siteId: Type.Integer(),
  delta: Type.Integer(),
  stockAfter: Type.Integer(),
  reason: Type.String(),
  operatorName: Type.String(),
  createdAt: Type.String(),
});
export type StockMoveRow = Static<typeof StockMoveRow>;

export const adminCatalogueApi = {
  products: endpoint({
    ...catalogue,
    operator: 'catalogue:view',
    method: 'GET',
    path: '/catalogue/products',
    summary: '站点商品（按名称或编号搜索，按上下架、分类筛选）',
    body: ProductSearchBody,
    reply: Paged(AdminSiteProduct),
  }),
  exportProducts: endpoint({
    ...catalogue,
    operator: 'catalogue:view',
    method: 'GET',
    path: '/catalogue/products/export',
    summary: '导出站点商品（xlsx，每个规格一行）',
    body: ProductSearchBody,
    reply: ErrorEnvelope,
    file: XLSX_TYPE,
  }),
  categories: endpoint({
    ...catalogue,
    operator: 'catalogue:view',
    method: 'GET',
    path: '/catalogue/categories',
    summary: '站点分类',
    body: Type.Object({ siteId: SiteIdIn }),
    reply: Envelope(Type.Object({ list: Type.Array(SiteCategory) })),
  }),
  shared: endpoint({
    ...catalogue,
    operator: 'catalogue:view',
    method: 'GET',
    path: '/catalogue/shared',
    summary: '共享商品库中本站点尚未上架的商品',
    body: Type.Object({
      siteId: SiteIdIn,
      keyword: Type.Optional(Text(60)),
      pageNum: Type.Optional(PageNum),
    }),
    reply: Paged(SharedProduct),
  }),
  list: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/list',
    summary: '将共享商品库的商品以站点价上架到站点',
    encoding: 'json',
    body: ListProductBody,
    reply: Envelope(AdminSiteProduct),
  }),
  setPrices: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/prices',
    summary: '修改站点价（按规格）',
    encoding: 'json',
    body: SetPricesBody,
    reply: Envelope(AdminSiteProduct),
  }),
  setSale: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/sale',
    summary: '上架或下架',
    encoding: 'json',
    body: SetSaleBody,
    reply: Envelope(AdminSiteProduct),
  }),
  setLimit: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/limit',
    summary: '设置限购数量（0 为不限购）',
    encoding: 'json',
    body: SetLimitBody,
    reply: Envelope(AdminSiteProduct),
  }),
  shops: endpoint({
    ...catalogue,
    operator: 'catalogue:view',
    method: 'GET',
    path: '/catalogue/shops',
    summary: '供货店铺',
    body: Type.Object({ siteId: SiteIdIn }),
    reply: Envelope(
      Type.Object({ list: Type.Array(Type.Object({ id: Type.Integer(), shopName: Type.String() })) }),
    ),
  }),
  create: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/create',
    summary: '新建共享商品（一个或多个规格及库存）并以站点价上架',
    encoding: 'json',
    body: CreateProductBody,
    reply: Envelope(AdminSiteProduct),
  }),
  stock: endpoint({
    ...stock,
    operator: 'stock:view',
    method: 'GET',
    path: '/stock/specs',
    summary: '站点商品的规格库存',
    body: StockSearchBody,
    reply: Paged(StockSpec),
  }),
  lowStock: endpoint({
    ...stock,
    operator: 'stock:view',
    method: 'GET',
    path: '/stock/low',
    summary: '低库存规格（在售）',
    body: Type.Object({ siteId: SiteIdIn, below: Type.Optional(Int(1, MAX_STOCK)) }),
    reply: Envelope(Type.Object({ list: Type.Array(StockSpec) })),
  }),
  moves: endpoint({
    ...stock,
    operator: 'stock:view',
    method: 'GET',
    path: '/stock/moves',
    summary: '规格库存流水',
    body: Type.Object({ siteId: SiteIdIn, specificationId: Id(), pageNum: Type.Optional(PageNum) }),
    reply: Paged(StockMoveRow),
  }),
  adjust: endpoint({
    ...stock,
    operator: 'stock:manage',
    method: 'POST',
    path: '/stock/adjust',
    summary: '调整库存（须填原因，记入库存流水）',
    encoding: 'json',
    body: AdjustStockBody,
    reply: Envelope(StockSpec),
  }),
};
