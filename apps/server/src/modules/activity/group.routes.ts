import { DEFAULT_ORDER_EXPIRE_MINUTES, groupApi, ORDER_MSG, ORDER_TYPE_GROUP } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { type MemberCtx, memberCtx } from '../cart/cart.service';
import { submitOrder } from '../order/submit';
import { groupDetail, groupLine, groupView, myGroups, teamOfOrder } from './group';

/** Group buy for members (spec section 3): detail, open a team, join one, the team, my list. */
export const groupRoutes: FastifyPluginAsync<{ orderExpireMinutes?: number }> = async (app, opts) => {
  const expireMinutes = opts.orderExpireMinutes ?? DEFAULT_ORDER_EXPIRE_MINUTES;

  /** Opening and joining are the normal order submission with the group's orderType. */
  async function submit(
    ctx: MemberCtx,
    body: { siteId: number; num?: number; addressId?: number; requestId?: string; remark?: string },
    target: { activityId?: number; teamId?: number },
  ) {
    const line = await groupLine(ctx, target);
    const result = await submitOrder(
      ctx,
      {
        siteId: body.siteId,
        orderType: ORDER_TYPE_GROUP,
        ...(target.teamId === undefined ? { activityId: line.activityId } : { teamId: target.teamId }),
        productInfos: [
          { productId: line.productId, specificationId: line.specificationId, num: body.num ?? 1 },
        ],
        ...(body.addressId === undefined ? {} : { addressId: body.addressId }),
        ...(body.requestId === undefined ? {} : { requestId: body.requestId }),
        ...(body.remark === undefined ? {} : { remark: body.remark }),
      },
      { expireMinutes },
    );
    return ok({ ...result, teamId: await teamOfOrder(ctx, result.orderNo) }, ORDER_MSG.submitted);
  }

  serve(app, groupApi.detail, async (req) => ok(await groupDetail(req.ctx, req.body.id)));
  serve(app, groupApi.submit, async (req) =>
    submit(memberCtx(req.ctx), req.body, { activityId: req.body.activityId }),
  );
  serve(app, groupApi.join, async (req) => submit(memberCtx(req.ctx), req.body, { teamId: req.body.teamId }));
  serve(app, groupApi.view, async (req) => ok(await groupView(req.ctx, req.body.teamId)));
  serve(app, groupApi.myList, async (req) => ok(await myGroups(memberCtx(req.ctx), req.body.pageNum)));
};
