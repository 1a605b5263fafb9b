import { adminPromotionsApi as api } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { operatorOf } from '../admin/admin.service';
import { createLevel, listLevels, memberVipView, setMemberVip, updateLevel } from './vip-admin';

/** The console's VIP routes (a family of adminRoutes: its hooks check operator and site). */
export const vipConsole: FastifyPluginAsync = async (app) => {
  serve(app, api.vipLevels, async (req) => ok(await listLevels(operatorOf(req), req.query)));
  serve(app, api.createVipLevel, async (req) => ok(await createLevel(operatorOf(req), req.body), '已创建'));
  serve(app, api.updateVipLevel, async (req) => ok(await updateLevel(operatorOf(req), req.body), '已保存'));
  serve(app, api.memberVip, async (req) => ok(await memberVipView(operatorOf(req), req.query)));
  serve(app, api.setMemberVip, async (req) => ok(await setMemberVip(operatorOf(req), req.body), '已设置'));
};
