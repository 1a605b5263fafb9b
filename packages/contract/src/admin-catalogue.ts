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
/** Pictures a product may have (the first is its main picture). */
export const MAX_PRODUCT_PICTURES = 10;
/** The largest product sheet an import reads, and its most rows (one per specification). */
export const CATALOGUE_IMPORT_MAX_BYTES = 1024 * 1024;
export const CATALOGUE_IMPORT_MAX_ROWS = 2_000;
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
  picturesShared: '该商品也在您无权管理的站点销售，不能修改其图片',
  picturesFull: `每个商品最多 ${MAX_PRODUCT_PICTURES} 张图片`,
  pictureMissing: '图片不存在，请刷新后重试',
  picturesChanged: '图片列表已变化，请刷新后重试',
  pictureFile: '请选择要上传的商品图片（字段 file）',
  importNoFile: '请上传商品表（xlsx，可用“导出”得到的文件）',
  importTooLarge: `文件不能超过 ${CATALOGUE_IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  importNoHeader: '未找到表头：需要 商品编号、规格编号、站点价（元）、状态、限购 列，请使用导出的文件',
  importNoRows: '文件中没有商品行',
  importTooManyRows: `一次最多 ${CATALOGUE_IMPORT_MAX_ROWS} 行，请分批上传`,
  importHasErrors: '文件中有错误的行，未导入任何修改；请修改后重新上传',
  importDone: '导入完成',
  importChecked: '检查完成，未保存',
  menuMissing: '标签、分组或分类不存在或不属于本站点',
  menuParent: '请选择上一级（分组须属于标签，分类须属于分组）',
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

// ---- pictures --------------------------------------------------------------------------------

/**
 * A product's pictures, in the order the storefront shows them (the first is the main one).
 * Pictures belong to the shared product, so every site that sells it shows them: changing them
 * needs catalogue:manage on each of those sites (`sites`).
 */
export const ProductPictures = Type.Object({
  productId: Type.Integer(),
  images: Type.Array(Type.String()),
  /** The sites that sell the product and show these pictures. */
  sites: Type.Array(Type.Integer()),
});
export type ProductPictures = Static<typeof ProductPictures>;

const PictureTarget = { siteId: SiteIdIn, productId: Id() };
const PictureUrl = Type.String({ minLength: 1, maxLength: 200 });

/** Multipart form data: siteId, productId and the picture under `file` (PNG, JPEG or WebP by its bytes, 2 MB at most). */
export const UploadPictureBody = Type.Object({
  ...PictureTarget,
  file: Type.Optional(Type.Unknown({ description: 'the picture' })),
});
export const ArrangePicturesBody = Type.Object({
  ...PictureTarget,
  /** Every current picture once, in the new order; the first becomes the main picture. */
  images: Type.Array(PictureUrl, { minItems: 1, maxItems: MAX_PRODUCT_PICTURES }),
});
export const RemovePictureBody = Type.Object({ ...PictureTarget, url: PictureUrl });

// ---- menus: labels, groups, categories ----------------------------------------------------------

/** The three levels of a site's category menu: label (top), group, category (products go here). */
export const MENU_LEVELS = ['label', 'group', 'category'] as const;
export type MenuLevel = (typeof MENU_LEVELS)[number];

export const MenuNode = Type.Object({
  id: Type.Integer(),
  level: Type.Union(MENU_LEVELS.map((l) => Type.Literal(l))),
  name: Type.String(),
  sort: Type.Integer(),
  /** Left out of the storefront's menus; products listed under it stay on sale. */
  hidden: Type.Boolean(),
  /** Products the site lists under it (categories only; 0 for the levels above). */
  products: Type.Integer(),
  children: Type.Array(Type.Unknown()),
});
export type MenuNode = Omit<Static<typeof MenuNode>, 'children'> & { children: MenuNode[] };

/** Creates (no id; a parent of the level above unless a label) or edits a label, group or category. */
export const SaveMenuBody = Type.Object({
  siteId: SiteIdIn,
  level: Type.Union(MENU_LEVELS.map((l) => Type.Literal(l))),
  id: Type.Optional(Id()),
  parentId: Type.Optional(Id()),
  name: Text(20, { minLength: 1 }),
  sort: Type.Optional(Int(0, 9_999)),
  hidden: Type.Optional(Type.Boolean()),
});
export type SaveMenuBody = Static<typeof SaveMenuBody>;

/** Puts listed products of the site under one of its categories. */
export const AssignCategoryBody = Type.Object({
  siteId: SiteIdIn,
  categoryId: Id(),
  productIds: Type.Array(Id(), { minItems: 1, maxItems: 100 }),
});

// ---- import ------------------------------------------------------------------------------------

/** Multipart form data: the product sheet (as the export writes it) under `file`. */
export const ImportProductsBody = Type.Object({
  siteId: SiteIdIn,
  file: Type.Optional(Type.Unknown({ description: 'the sheet, xlsx (or UTF-8 csv), at most 1 MB' })),
  /** true: check and report only, nothing is saved. */
  dryRun: Type.Optional(Type.Boolean()),
});

export const ImportRow = Type.Object({
  /** Row number as the operator sees it in the sheet (the header is row 1). */
  rowNo: Type.Integer(),
  productId: Type.Union([Type.Integer(), Type.Null()]),
  specificationId: Type.Union([Type.Integer(), Type.Null()]),
  /** The product's name in the catalogue ('' when the row names no product). */
  name: Type.String(),
  /** change: the row changes the site; same: it matches the site already; error: see message. */
  result: Type.Union([Type.Literal('change'), Type.Literal('same'), Type.Literal('error')]),
  message: Type.String(),
});
export type ImportRow = Static<typeof ImportRow>;

export const ImportReport = Type.Object({
  /** Whether the changes were saved: only when no row has an error and it was not a dry run. */
  applied: Type.Boolean(),
  /** Products listed or changed (or that would be, on a dry run or with errors fixed). */
  products: Type.Integer(),
  errors: Type.Integer(),
  rows: Type.Array(ImportRow),
});
export type ImportReport = Static<typeof ImportReport>;

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
  pictures: endpoint({
    ...catalogue,
    operator: 'catalogue:view',
    method: 'GET',
    path: '/catalogue/pictures',
    summary: '商品图片（第一张为主图）',
    body: Type.Object(PictureTarget),
    reply: Envelope(ProductPictures),
  }),
  uploadPicture: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/pictures/upload',
    summary: '上传商品图片（PNG、JPG、WebP，按文件内容识别，不超过 2 MB）',
    body: UploadPictureBody,
    reply: Envelope(ProductPictures),
  }),
  arrangePictures: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/pictures/arrange',
    summary: '调整商品图片顺序（第一张为主图）',
    encoding: 'json',
    body: ArrangePicturesBody,
    reply: Envelope(ProductPictures),
  }),
  removePicture: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/pictures/remove',
    summary: '删除商品图片',
    encoding: 'json',
    body: RemovePictureBody,
    reply: Envelope(ProductPictures),
  }),
  menus: endpoint({
    ...catalogue,
    operator: 'catalogue:view',
    method: 'GET',
    path: '/catalogue/menus',
    summary: '站点分类菜单（标签、分组、分类，含隐藏的）',
    body: Type.Object({ siteId: SiteIdIn }),
    reply: Envelope(Type.Object({ list: Type.Array(MenuNode) })),
  }),
  saveMenu: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/menus/save',
    summary: '新建或修改标签、分组、分类（名称、排序、隐藏）',
    encoding: 'json',
    body: SaveMenuBody,
    reply: Envelope(Type.Object({ id: Type.Integer() })),
  }),
  assignCategory: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/menus/assign',
    summary: '将站点商品归入分类',
    encoding: 'json',
    body: AssignCategoryBody,
    reply: Envelope(Type.Object({ moved: Type.Integer() })),
  }),
  importProducts: endpoint({
    ...catalogue,
    operator: 'catalogue:manage',
    method: 'POST',
    path: '/catalogue/import',
    summary: '导入商品表（xlsx，与导出格式相同）：按行上架、改价、上下架、限购；有错误的行则全部不保存',
    body: ImportProductsBody,
    reply: Envelope(ImportReport),
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
