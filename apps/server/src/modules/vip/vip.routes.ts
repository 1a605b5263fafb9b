import { vipApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { memberCtx } from '../cart/cart.service';
import { vipSavingTotal } from '../order/savings';
import { memberLevel } from './vip.service';

/** The member's VIP level and what member prices saved (issue 13). */
export const vipRoutes: FastifyPluginAsync = async (app) => {
  serve(app, vipApi.level, async (req) => ok(await memberLevel(memberCtx(req.ctx))));

  serve(app, vipApi.totalDiscount, async (req) => {
    const ctx = memberCtx(req.ctx);
    return ok({ totalDiscount: await vipSavingTotal(ctx, ctx.site.row.id, ctx.member.id) });
  });
};
