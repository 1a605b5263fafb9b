import { adminPromotionsApi as api } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { operatorOf } from '../admin/admin.service';
import {
  createBudget,
  createTemplate,
  issueVouchers,
  listBudgets,
  listTemplates,
  moveTemplate,
  pendingClaims,
  reviewClaims,
  updateBudget,
} from './voucher-admin';

/** The console's voucher and budget routes (a family of adminRoutes: its hooks check operator and site). */
export const voucherConsole: FastifyPluginAsync = async (app) => {
  serve(app, api.templates, async (req) => ok(await listTemplates(operatorOf(req), req.query)));
  serve(app, api.createTemplate, async (req) =>
    ok(await createTemplate(operatorOf(req), req.body), '已创建'),
  );
  serve(app, api.moveTemplate, async (req) => ok(await moveTemplate(operatorOf(req), req.body), '已更新'));
  serve(app, api.issueVouchers, async (req) => ok(await issueVouchers(operatorOf(req), req.body)));
  serve(app, api.pendingClaims, async (req) => ok(await pendingClaims(operatorOf(req), req.query)));
  serve(app, api.reviewClaims, async (req) => ok(await reviewClaims(operatorOf(req), req.body), '已处理'));
  serve(app, api.budgets, async (req) => ok(await listBudgets(operatorOf(req), req.query)));
  serve(app, api.createBudget, async (req) => ok(await createBudget(operatorOf(req), req.body), '已创建'));
  serve(app, api.updateBudget, async (req) => ok(await updateBudget(operatorOf(req), req.body), '已保存'));
};
