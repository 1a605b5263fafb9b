import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CartCountBody,
  CartCountReply,
  CartReply,
  DeleteCartBody,
  GetCartProductBody,
  MergeCartBody,
  MSG,
  SelectCartBody,
  SubmitCartBody,
  UpdateCartNumBody,
} from '@sitemall/contract';
import { ok } from '../../lib/envelope';
import {
  addToCart,
  cartCount,
  deleteCartLines,
  getCart,
  memberCtx,
  mergeGuestCart,
  parseCartLines,
  parseIdList,
  selectCartLines,
  updateCartNum,
} from './cart.service';

/** The member's cart (spec sections 3, 5, 7). Every answer is the re-checked cart. */
export const cartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['cart'];
  const config = { auth: 'required' as const, site: 'required' as const };
  const cartOf = async (ctx: ReturnType<typeof memberCtx>) => ({ obj: await getCart(ctx) });

  app.post(
    '/api/productCarts/getCartProduct',
    { config, schema: { tags, summary: '购物车', body: GetCartProductBody, response: { 200: CartReply } } },
    async (req) => ok(await cartOf(memberCtx(req.ctx))),
  );

  app.post(
    '/api/productCarts/submitCart',
    {
      config,
      schema: {
        tags,
        summary: '加入购物车（同规格累加数量）',
        body: SubmitCartBody,
        response: { 200: CartReply },
      },
    },
    async (req) => {
      const ctx = memberCtx(req.ctx);
      return ok({ obj: await addToCart(ctx, parseCartLines(req.body.productInfo)) }, MSG.addedToCart);
    },
  );

  app.post(
    '/api/productCarts/mergeCart',
    {
      config,
      schema: {
        tags,
        summary: '登录后合并本地购物车（数量相加）',
        body: MergeCartBody,
        response: { 200: CartReply },
      },
    },
    async (req) => {
      const ctx = memberCtx(req.ctx);
      return ok({ obj: await mergeGuestCart(ctx, parseCartLines(req.body.productInfos)) });
    },
  );

  app.post(
    '/api/productCarts/updateNum',
    { config, schema: { tags, summary: '修改数量', body: UpdateCartNumBody, response: { 200: CartReply } } },
    async (req) => {
      const ctx = memberCtx(req.ctx);
      await updateCartNum(ctx, req.body.id, req.body.num);
      return ok(await cartOf(ctx));
    },
  );

  app.post(
    '/api/productCarts/deleteCart',
    { config, schema: { tags, summary: '删除商品', body: DeleteCartBody, response: { 200: CartReply } } },
    async (req) => {
      const ctx = memberCtx(req.ctx);
      await deleteCartLines(ctx, parseIdList(req.body.ids));
      return ok(await cartOf(ctx), '删除成功');
    },
  );

  app.post(
    '/api/productCarts/selectCart',
    {
      config,
      schema: { tags, summary: '选中 / 取消选中', body: SelectCartBody, response: { 200: CartReply } },
    },
    async (req) => {
      const ctx = memberCtx(req.ctx);
      await selectCartLines(ctx, parseIdList(req.body.ids), req.body.isSelected);
      return ok(await cartOf(ctx));
    },
  );

  app.post(
    '/api/productCarts/cartCount',
    {
      config,
      schema: { tags, summary: '购物车件数', body: CartCountBody, response: { 200: CartCountReply } },
    },
    async (req) => ok({ count: await cartCount(memberCtx(req.ctx)) }),
  );
};
