import { BARGAIN_MSG, BENEFIT_MSG, bargainApi, benefitApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { memberCtx } from '../cart/cart.service';
import { bargainList, helpBargain, startBargain, viewBargain } from './bargain';
import { benefitList, benefitReceivers, myBenefits, receiveBenefit } from './benefit';

/** Bargain and benefits (issue 14 items 4 and 5): bargains, start, help, the shared view; benefits, receive, mine. */
export const bargainRoutes: FastifyPluginAsync = async (app) => {
  serve(app, bargainApi.list, async (req) => ok({ list: await bargainList(req.ctx) }));
  serve(app, bargainApi.start, async (req) => {
    const { view, created } = await startBargain(memberCtx(req.ctx), req.body.activityId);
    return ok(view, created ? BARGAIN_MSG.started : BARGAIN_MSG.startedBefore);
  });
  serve(app, bargainApi.help, async (req) =>
    ok(await helpBargain(memberCtx(req.ctx), req.body.id), BARGAIN_MSG.helpOk),
  );
  serve(app, bargainApi.view, async (req) => ok(await viewBargain(req.ctx, req.body.id)));

  serve(app, benefitApi.product, async (req) => ok({ list: await benefitList(req.ctx, req.body.productId) }));
  serve(app, benefitApi.receive, async (req) =>
    ok(await receiveBenefit(memberCtx(req.ctx), req.body.id), BENEFIT_MSG.received),
  );
  serve(app, benefitApi.receiveList, async (req) => ok(await benefitReceivers(req.ctx, req.body.id)));
  serve(app, benefitApi.mine, async (req) => ok({ list: await myBenefits(memberCtx(req.ctx)) }));
};
