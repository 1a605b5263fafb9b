import { seckillApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { activityTime, seckillToday } from './seckill';

/** Activities (issue 14): the flash sale's sessions and timing. */
export const activityRoutes: FastifyPluginAsync = async (app) => {
  serve(app, seckillApi.seckill, async (req) => ok(await seckillToday(req.ctx)));
  serve(app, seckillApi.activityTime, async (req) => ok(await activityTime(req.ctx, req.body.productId)));
};
