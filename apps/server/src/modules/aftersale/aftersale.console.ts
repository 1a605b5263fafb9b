import { adminAfterSaleApi as api } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { operatorOf } from '../admin/admin.service';
import { requireReason } from '../admin/audit';
import {
  approveCase,
  completeExchange,
  operatorComment,
  receiveReturn,
  refuseReturn,
  rejectCase,
  reshipCase,
} from './operator';
import {
  caseQueue,
  consoleCase,
  decideCase,
  executeRefund,
  proposeRefund,
  rejectRefund,
  retryRefund,
} from './review';

/**
 * The after-sales screens' routes under /admin-api (registered inside the console plugin, whose
 * hooks resolve the operator and check the payload's site against the route's permission).
 */
export const afterSaleConsole: FastifyPluginAsync = async (app) => {
  const ref = (body: { siteId: number; afterSaleNo: string }) => ({
    siteId: body.siteId,
    afterSaleNo: body.afterSaleNo,
  });

  serve(app, api.cases, async (req) => ok(await caseQueue(operatorOf(req), req.query)));
  serve(app, api.caseDetail, async (req) => ok(await consoleCase(operatorOf(req), ref(req.query))));

  serve(app, api.approve, async (req) =>
    ok(
      await decideCase(operatorOf(req), ref(req.body), {
        action: 'aftersale.approve',
        reason: req.body.note?.trim(),
        run: async (tx) => {
          await approveCase(tx, { ...ref(req.body), note: req.body.note });
          return undefined;
        },
      }),
      '已审核通过',
    ),
  );
  serve(app, api.reject, async (req) => {
    const reason = requireReason(req.body.reason);
    return ok(
      await decideCase(operatorOf(req), ref(req.body), {
        action: 'aftersale.reject',
        reason,
        run: async (tx) => {
          await rejectCase(tx, { ...ref(req.body), reason });
          return undefined;
        },
      }),
      '已驳回',
    );
  });
  serve(app, api.receive, async (req) =>
    ok(
      await decideCase(operatorOf(req), ref(req.body), {
        action: 'aftersale.receive',
        run: async (tx) => {
          await receiveReturn(tx, ref(req.body));
          return undefined;
        },
      }),
      '已确认收货',
    ),
  );
  serve(app, api.refuseReturn, async (req) => {
    const reason = requireReason(req.body.reason);
    return ok(
      await decideCase(operatorOf(req), ref(req.body), {
        action: 'aftersale.refuseReturn',
        reason,
        run: async (tx) => {
          await refuseReturn(tx, { ...ref(req.body), reason });
          return undefined;
        },
      }),
      '已拒绝收货',
    );
  });
  serve(app, api.reply, async (req) =>
    ok(
      await decideCase(operatorOf(req), ref(req.body), {
        action: 'aftersale.reply',
        run: async (tx) => {
          await operatorComment(tx, { ...ref(req.body), content: req.body.content });
          return { content: req.body.content.trim() };
        },
      }),
      '留言已发送',
    ),
  );
  serve(app, api.reship, async (req) =>
    ok(
      await decideCase(operatorOf(req), ref(req.body), {
        action: 'aftersale.reship',
        run: async (tx) => {
          const { company, trackingNo } = req.body;
          await reshipCase(tx, { ...ref(req.body), company, trackingNo });
          return { company, trackingNo };
        },
      }),
      '换货已发出',
    ),
  );
  serve(app, api.completeExchange, async (req) =>
    ok(
      await decideCase(operatorOf(req), ref(req.body), {
        action: 'aftersale.complete',
        run: async (tx) => {
          await completeExchange(tx, ref(req.body));
          return undefined;
        },
      }),
      '换货已完成',
    ),
  );

  serve(app, api.proposeRefund, async (req) =>
    ok(await proposeRefund(operatorOf(req), req.body), '退款申请已提交，待财务复核'),
  );
  serve(app, api.executeRefund, async (req) =>
    ok(await executeRefund(operatorOf(req), req.body), '退款已执行'),
  );
  serve(app, api.rejectRefund, async (req) =>
    ok(await rejectRefund(operatorOf(req), req.body), '退款申请已驳回'),
  );
  serve(app, api.retryRefund, async (req) =>
    ok(await retryRefund(operatorOf(req), app.payments.wechat, ref(req.body)), '已重新发起微信退款'),
  );
};
