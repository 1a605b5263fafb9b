import { adminRefundApi as api } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { operatorOf } from './admin.service';
import { approveRefund, listRefundRequests, rejectRefund } from './refund-requests';
import { saveSitePolicy, sitePolicyOf } from './site-policy';

/** The refund requests' queue and decisions, and the sites' four-eyes thresholds. */
export const refundConsole: FastifyPluginAsync = async (app) => {
  serve(app, api.refundRequests, async (req) => ok(await listRefundRequests(operatorOf(req), req.query)));
  serve(app, api.approveRefund, async (req) =>
    ok(await approveRefund(operatorOf(req), req.body.requestId), '已复核，订单已退款'),
  );
  serve(app, api.rejectRefund, async (req) =>
    ok(await rejectRefund(operatorOf(req), req.body.requestId, req.body.reason), '已驳回退款申请'),
  );
  serve(app, api.sitePolicy, async (req) => ok(await sitePolicyOf(operatorOf(req), req.query.siteId)));
  serve(app, api.saveSitePolicy, async (req) =>
    ok(await saveSitePolicy(operatorOf(req), req.body), '复核阈值已保存'),
  );
};
