import { type Static, Type } from '@sinclair/typebox';
import { ProductSource } from './catalog.ts';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf, Int } from './numbers.ts';
import { SiteId } from './site.ts';

/**
 * The member's cart (spec sections 3, 5, 7): lines of a product specification and a quantity.
 * Adding a line whose specification is already in the cart adds to its quantity (section 5);
 * the default quantity is 1. Prices are never sent by the client: every answer re-reads the
 * current price, stock, on-sale state and purchase limit of each line on this site.
 */

/** Most pieces of one line; larger quantities are refused, not clipped. */
export const MAX_CART_NUM = 999;
/** Most lines a cart holds. */
export const MAX_CART_LINES = 100;

export const CART_MSG = {
  badNum: `商品数量须为 1-${MAX_CART_NUM} 的整数`,
  badLines: '参数 productInfo 格式不正确',
  lineNotFound: '购物车商品不存在',
  tooManyLines: `购物车最多 ${MAX_CART_LINES} 种商品`,
  notOnSale: '商品不存在或已下架',
  removed: '删除成功',
} as const;

const Id = IdOf();
/** Lists of ids arrive as a list or, from form data, as "1,2,3" or its JSON text. */
export const IdList = Type.Union([
  Type.Array(Id, { minItems: 1, maxItems: MAX_CART_LINES }),
  Type.String({ maxLength: MAX_CART_LINES * 12 }),
]);

/** A line as the client sends it (section 3: productId, num, specificationId, specificationValue). */
export const CartLineInput = Type.Object({
  productId: Id,
  specificationId: Id,
  num: Type.Optional(Int(1, MAX_CART_NUM, { description: 'default 1' })),
  specificationValue: Type.Optional(
    Type.String({ maxLength: 200, description: 'ignored: the server knows it' }),
  ),
});
export type CartLineInput = Static<typeof CartLineInput>;

/** One line, several lines, or either as a JSON text (form data). */
export const CartLinesInput = Type.Union([
  CartLineInput,
  Type.Array(CartLineInput, { minItems: 1, maxItems: MAX_CART_LINES }),
  Type.String({ minLength: 2, maxLength: 20_000 }),
]);

/** Spec section 3, "Cart item", with what the cart page shows re-checked live. */
export const CartItem = Type.Object({
  id: Type.Integer({ description: 'cart line id' }),
  itemId: Type.Integer({ description: 'product id' }),
  num: Type.Integer(),
  specificationId: Type.Integer(),
  specificationValue: Type.String(),
  productSpecifications: Type.Array(Type.Object({ id: Type.Integer(), specificationValue: Type.String() })),
  name: Type.String(),
  image: Type.String(),
  orderType: Type.Integer(),
  source: ProductSource,
  price: Type.Integer({ description: 'current price on this site, fen' }),
  stock: Type.Integer(),
  limitNum: Type.Integer({ description: 'most pieces per order; 0 = no limit' }),
  isOnSale: Type.Boolean(),
  isSelected: Type.Boolean(),
  isValid: Type.Boolean({ description: 'on sale, enough stock and within the limit' }),
  msg: Type.String({ description: 'why the line cannot be bought now; empty when valid' }),
});
export type CartItem = Static<typeof CartItem>;

export const Cart = Type.Object({
  list: Type.Array(CartItem),
  count: Type.Integer({ description: 'sum of quantities' }),
  selectedCount: Type.Integer(),
  selectedAmount: Type.Integer({ description: 'fen, valid selected lines at current prices' }),
});
export type Cart = Static<typeof Cart>;
export const CartAnswer = Type.Object({ obj: Cart });
export type CartAnswer = Static<typeof CartAnswer>;
export const CartReply = Envelope(CartAnswer);

/** POST /api/productCarts/getCartProduct; userId is accepted and ignored (the token says who). */
export const GetCartProductBody = Type.Object({ siteId: SiteId, userId: Type.Optional(Type.Unknown()) });
/** POST /api/productCarts/submitCart: adds the lines (summing quantities). */
export const SubmitCartBody = Type.Object({
  siteId: SiteId,
  repeat: Type.Optional(Type.Unknown()),
  token: Type.Optional(Type.String({ maxLength: 256 })),
  productInfo: CartLinesInput,
});
export type SubmitCartBody = Static<typeof SubmitCartBody>;
/** POST /api/productCarts/mergeCart: a guest cart from local storage, right after login. */
export const MergeCartBody = Type.Object({ siteId: SiteId, productInfos: CartLinesInput });
export type MergeCartBody = Static<typeof MergeCartBody>;
/** POST /api/productCarts/updateNum: sets the quantity of one line. */
export const UpdateCartNumBody = Type.Object({
  siteId: SiteId,
  id: Id,
  num: Int(1, MAX_CART_NUM),
});
export type UpdateCartNumBody = Static<typeof UpdateCartNumBody>;
/** POST /api/productCarts/deleteCart: removes lines. */
export const DeleteCartBody = Type.Object({ siteId: SiteId, ids: IdList });
export type DeleteCartBody = Static<typeof DeleteCartBody>;
/** POST /api/productCarts/selectCart: selects or unselects lines (all lines when ids is absent). */
export const SelectCartBody = Type.Object({
  siteId: SiteId,
  ids: Type.Optional(IdList),
  isSelected: Type.Boolean(),
});
export type SelectCartBody = Static<typeof SelectCartBody>;
/** POST /api/productCarts/cartCount: the header badge (sum of quantities). */
export const CartCountBody = Type.Object({ siteId: SiteId });
export const CartCount = Type.Object({ count: Type.Integer() });
export type CartCount = Static<typeof CartCount>;
export const CartCountReply = Envelope(CartCount);

const member = { site: 'required', auth: 'required', tag: 'cart' } as const;

/** The cart's endpoints (spec section 7), each answering the re-checked cart. */
export const cartApi = {
  getCartProduct: endpoint({
    ...member,
    method: 'POST',
    path: '/api/productCarts/getCartProduct',
    summary: '购物车',
    body: GetCartProductBody,
    reply: CartReply,
  }),
  submitCart: endpoint({
    ...member,
    method: 'POST',
    path: '/api/productCarts/submitCart',
    summary: '加入购物车（同规格累加数量）',
    body: SubmitCartBody,
    reply: CartReply,
  }),
  mergeCart: endpoint({
    ...member,
    method: 'POST',
    path: '/api/productCarts/mergeCart',
    summary: '登录后合并本地购物车（数量相加）',
    body: MergeCartBody,
    reply: CartReply,
  }),
  updateNum: endpoint({
    ...member,
    method: 'POST',
    path: '/api/productCarts/updateNum',
    summary: '修改数量',
    body: UpdateCartNumBody,
    reply: CartReply,
  }),
  deleteCart: endpoint({
    ...member,
    method: 'POST',
    path: '/api/productCarts/deleteCart',
    summary: '删除商品',
    body: DeleteCartBody,
    reply: CartReply,
  }),
  selectCart: endpoint({
    ...member,
    method: 'POST',
    path: '/api/productCarts/selectCart',
    summary: '选中 / 取消选中',
    body: SelectCartBody,
    reply: CartReply,
  }),
  cartCount: endpoint({
    ...member,
    method: 'POST',
    path: '/api/productCarts/cartCount',
    summary: '购物车件数',
    body: CartCountBody,
    reply: CartCountReply,
  }),
};
