import {
  type ApprovalRuleView,
  adminApprovalApi as api,
  ORDER_STATUS,
  type SaveApprovalRuleBody,
} from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { RequestContext } from '../../context';
import type { Db } from '../../db/client';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { forbidden, type OperatorCtx, operatorOf, requireSiteAccess } from '../admin/admin.service';
import { audited, didBefore, requireReason } from '../admin/audit';
import { findOrders, orderOfSite } from '../admin/orders';
import { siteLevels } from '../vip/vip.service';
import {
  APPROVAL_MSG,
  type ApprovalRule,
  approvalRuleOf,
  approveOrder,
  rejectOrder,
  setApprovalRule,
} from './approval.service';

/**
 * Order approval in the console: the site's rule (audited with before and after, a reason
 * required) and the queue of orders in 11/12 that approvers move on (audited in the
 * transaction of the move). The /admin-api hooks have checked the payload's site already.
 */

const ruleFields = (rule: ApprovalRule | undefined) =>
  rule
    ? {
        isEnabled: rule.isEnabled,
        minAmount: rule.minAmount,
        minQty: rule.minQty,
        sources: rule.sources,
        vipLevelIds: rule.vipLevelIds,
        levels: rule.levels,
        expireHours: rule.expireHours,
      }
    : null;

async function ruleView(ctx: RequestContext, siteId: number): Promise<ApprovalRuleView> {
  const [rule, levels] = await Promise.all([approvalRuleOf(ctx, siteId), siteLevels(ctx, siteId)]);
  return {
    siteId,
    // A site without a rule: nothing waits for approval; the form starts from these values.
    ...(ruleFields(rule) ?? {
      isEnabled: false,
      minAmount: 0,
      minQty: null,
      sources: [],
      vipLevelIds: [],
      levels: 1,
      expireHours: 48,
    }),
    vipLevels: levels.map((l) => ({ id: l.id, name: l.name })),
    updatedAt: rule?.updatedAt.toISOString() ?? null,
  };
}

async function saveRule(ctx: OperatorCtx, body: SaveApprovalRuleBody) {
  requireSiteAccess(ctx, 'orders:manage', body.siteId);
  const reason = requireReason(body.reason);
  await audited(ctx, async (tx, record) => {
    const before = ruleFields(await approvalRuleOf({ db: tx }, body.siteId));
    const saved = await setApprovalRule(tx, { ...body, minQty: body.minQty ?? null });
    await record({
      siteId: body.siteId,
      action: 'approval.rule',
      entity: 'approval_rule',
      entityId: body.siteId,
      before,
      after: ruleFields(saved),
      reason,
    });
  });
  return ruleView(ctx, body.siteId);
}

/** Approves or rejects an order in 11/12, audited with its status before and after. */
async function decide(
  ctx: OperatorCtx,
  input: { siteId: number; orderNo: string },
  action: 'approval.approve' | 'approval.reject',
  run: (tx: Db) => Promise<{ status: number }>,
  reason = '',
) {
  requireSiteAccess(ctx, 'orders:manage', input.siteId);
  const before = await orderOfSite(ctx, input.siteId, input.orderNo, 'orders:manage');
  await audited(ctx, async (tx, record) => {
    const moved = await run(tx);
    await record({
      siteId: input.siteId,
      action,
      entity: 'mall_order',
      entityId: before.orderNo,
      before: { status: before.status },
      after: { status: moved.status },
      reason,
    });
  });
  return orderOfSite(ctx, input.siteId, before.orderNo);
}

export const approvalConsole: FastifyPluginAsync = async (app) => {
  serve(app, api.rule, async (req) => ok(await ruleView(operatorOf(req), req.query.siteId)));
  serve(app, api.saveRule, async (req) => ok(await saveRule(operatorOf(req), req.body), '审批规则已保存'));
  serve(app, api.queue, async (req) =>
    ok(
      await findOrders(operatorOf(req), {
        siteId: req.query.siteId,
        pageNum: req.query.pageNum,
        statuses: req.query.status
          ? [req.query.status]
          : [ORDER_STATUS.pendingApproval, ORDER_STATUS.pendingFinalApproval],
      }),
    ),
  );
  serve(app, api.approve, async (req) => {
    const ctx = operatorOf(req);
    const { siteId, orderNo, note, status } = req.body;
    // Four eyes on two levels: whoever passed the first level does not pass the second.
    if (
      status === ORDER_STATUS.pendingFinalApproval &&
      (await didBefore(ctx, { action: 'approval.approve', entity: 'mall_order', entityId: orderNo.trim() }))
    )
      throw forbidden(APPROVAL_MSG.sameApprover);
    return ok(
      await decide(ctx, req.body, 'approval.approve', (tx) =>
        approveOrder(tx, { siteId, orderNo, note, approver: ctx.operator.name, expectStatus: status }),
      ),
      '审批已通过',
    );
  });
  serve(app, api.reject, async (req) => {
    const ctx = operatorOf(req);
    const reason = requireReason(req.body.reason);
    const { siteId, orderNo } = req.body;
    return ok(
      await decide(
        ctx,
        req.body,
        'approval.reject',
        (tx) => rejectOrder(tx, { siteId, orderNo, reason, approver: ctx.operator.name }),
        reason,
      ),
      '已驳回',
    );
  });
};
