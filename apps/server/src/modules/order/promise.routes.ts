import { promiseApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { siteOf } from '../catalog/catalog.service';
import { promiseCalendar } from './promise-calendar';

/** The promise calendar: delivery dates per supply source and region (spec section 7). */
export const promiseRoutes: FastifyPluginAsync = async (app) => {
  serve(app, promiseApi.calendar, async (req) => ok(promiseCalendar(siteOf(req.ctx), req.body)));
};
