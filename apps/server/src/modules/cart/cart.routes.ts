import { cartApi, MSG } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
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
export const cartRoutes: FastifyPluginAsync = async (app) => {
  const cartOf = async (ctx: ReturnType<typeof memberCtx>) => ({ obj: await getCart(ctx) });

  serve(app, cartApi.getCartProduct, async (req) => ok(await cartOf(memberCtx(req.ctx))));

  serve(app, cartApi.submitCart, async (req) => {
    const ctx = memberCtx(req.ctx);
    return ok({ obj: await addToCart(ctx, parseCartLines(req.body.productInfo)) }, MSG.addedToCart);
  });

  serve(app, cartApi.mergeCart, async (req) => {
    const ctx = memberCtx(req.ctx);
    return ok({ obj: await mergeGuestCart(ctx, parseCartLines(req.body.productInfos)) });
  });

  serve(app, cartApi.updateNum, async (req) => {
    const ctx = memberCtx(req.ctx);
    await updateCartNum(ctx, req.body.id, req.body.num);
    return ok(await cartOf(ctx));
  });

  serve(app, cartApi.deleteCart, async (req) => {
    const ctx = memberCtx(req.ctx);
    await deleteCartLines(ctx, parseIdList(req.body.ids));
    return ok(await cartOf(ctx), '删除成功');
  });

  serve(app, cartApi.selectCart, async (req) => {
    const ctx = memberCtx(req.ctx);
    await selectCartLines(ctx, parseIdList(req.body.ids), req.body.isSelected);
    return ok(await cartOf(ctx));
  });

  serve(app, cartApi.cartCount, async (req) => ok({ count: await cartCount(memberCtx(req.ctx)) }));
};
