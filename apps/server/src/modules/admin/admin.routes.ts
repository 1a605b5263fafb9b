import { adminApi, adminDashboardApi } from '@sitemall/contract';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
import { tokenOf } from '../../plugins/context';
import type { Limiter } from '../identity/limits';
import type { SessionStore } from '../identity/sessions';
import type { SiteCache } from '../site/site.service';
import { siteNamesIn } from '../site/site-admin';
import {
  forbidden,
  login,
  logout,
  type OperatorCtx,
  operatorOf,
  requireSiteAccess,
  resolveOperator,
  scopeIsEmpty,
  scopeOf,
} from './admin.service';
import { searchAudit } from './audit';
import { dashboard } from './dashboard';
import { approveBatch, draftCsv, draftSingle, listBatches, rejectBatch, submitBatch } from './issue-batches';
import { findMembers, memberDetail, memberLedger, revokeMemberSessions, setMemberStatus } from './members';
import { assignRole, listOperators, listRoles, loginLog } from './operators';
import { cancelOrder, findOrders, orderOfSite, shipOrder } from './orders';
import { copySite, editSite, listSites } from './sites';
import { bindTotp, setOperatorTotp, setupTotp } from './totp';

declare module 'fastify' {
  interface FastifyRequest {
    /** The console's caller, resolved for every /admin-api route but the login. */
    operatorCtx?: OperatorCtx;
  }
}

const FREE = new Set(['login', 'self']);

/**
 * The operator console's API (issue 12), under /admin-api. Each route's declaration names the
 * permission it needs: the operator is resolved from the token before the body is validated
 * (401/416 whatever was sent; a member's token is unknown here), the permission must be held on
 * some site, and a siteId in the payload must be within its scope (403, nothing changes). The
 * services filter every read by the same scope.
 */
export const adminRoutes: FastifyPluginAsync<{
  limiter: Limiter;
  sites: SiteCache;
  /** The members' session store: the console ends sessions through it (NOTIFY to every process). */
  sessions: SessionStore;
  families?: FastifyPluginAsync[];
}> = async (app, opts) => {
  app.addHook('preValidation', async (req) => {
    const need = req.routeOptions.config.operator;
    if (!need || need === 'login') return;
    const token = tokenOf(req);
    const found = await resolveOperator(req.ctx.db, token);
    req.operatorCtx = {
      db: req.ctx.db,
      ...found,
      token: token as string,
      ip: req.ip,
      requestId: String(req.id),
    };
    if (!FREE.has(need) && scopeIsEmpty(scopeOf(found, need))) throw forbidden();
  });
  app.addHook('preHandler', async (req) => {
    const need = req.routeOptions.config.operator;
    if (!need || FREE.has(need)) return;
    const siteId = ((req.body ?? req.query) as { siteId?: unknown } | undefined)?.siteId;
    if (typeof siteId === 'number') requireSiteAccess(operatorOf(req), need, siteId);
  });

  serve(app, adminApi.login, async (req) =>
    ok(
      await login(req.ctx, opts.limiter, {
        ...req.body,
        ip: req.ip,
        userAgent: String(req.headers['user-agent'] ?? ''),
      }),
    ),
  );
  serve(app, adminApi.logout, async (req) => {
    await logout(operatorOf(req));
    return ok({ done: true });
  });
  serve(app, adminApi.me, async (req) => {
    const ctx = operatorOf(req);
    const anySite = new Set<number>();
    let all = false;
    for (const a of ctx.assignments) {
      if (a.siteIds === null) all = true;
      else for (const id of a.siteIds) anySite.add(id);
    }
    const sites = await siteNamesIn(ctx, all ? 'all' : [...anySite]);
    return ok({ ...ctx.operator, assignments: ctx.assignments, sites, ...ctx.secondFactor });
  });
  serve(app, adminApi.totpSetup, async (req) => ok(await setupTotp(operatorOf(req))));
  serve(app, adminApi.totpBind, async (req) => {
    await bindTotp(operatorOf(req), req.body);
    return ok(null);
  });
  serve(app, adminApi.operatorTotp, async (req) => ok(await setOperatorTotp(operatorOf(req), req.body)));

  serve(app, adminDashboardApi.dashboard, async (req) =>
    ok(await dashboard(operatorOf(req), req.query.siteId)),
  );

  serve(app, adminApi.sites, async (req) => ok(await listSites(operatorOf(req), req.query)));
  serve(app, adminApi.updateSite, async (req) => {
    const { siteId, reason, ...fields } = req.body;
    return ok(await editSite(operatorOf(req), opts.sites, siteId, fields, reason), '已保存');
  });

  serve(app, adminApi.copySite, async (req) =>
    ok(await copySite(operatorOf(req), opts.sites, req.body), '站点已创建'),
  );

  serve(app, adminApi.orders, async (req) => ok(await findOrders(operatorOf(req), req.query)));
  serve(app, adminApi.orderDetail, async (req) =>
    ok(await orderOfSite(operatorOf(req), req.query.siteId, req.query.orderNo)),
  );
  serve(app, adminApi.shipOrder, async (req) => ok(await shipOrder(operatorOf(req), req.body), '已发货'));
  serve(app, adminApi.cancelOrder, async (req) => {
    const order = await cancelOrder(operatorOf(req), req.body);
    const proposed = order.refundRequest?.status === 'submitted';
    return ok(order, proposed ? '超过站点退款阈值，已提交退款申请，待财务复核' : '订单已取消');
  });

  serve(app, adminApi.members, async (req) => ok(await findMembers(operatorOf(req), req.query)));
  serve(app, adminApi.memberDetail, async (req) => ok(await memberDetail(operatorOf(req), req.query)));
  serve(app, adminApi.revokeMemberSessions, async (req) =>
    ok(await revokeMemberSessions(operatorOf(req), opts.sessions, req.body), '会员已下线'),
  );
  serve(app, adminApi.setMemberStatus, async (req) =>
    ok(
      await setMemberStatus(operatorOf(req), opts.sessions, req.body),
      req.body.status === 0 ? '会员已冻结' : '会员已解冻',
    ),
  );
  serve(app, adminApi.ledger, async (req) => ok(await memberLedger(operatorOf(req), req.query)));

  serve(app, adminApi.issuePoints, async (req) => ok(await draftSingle(operatorOf(req), req.body)));
  serve(app, adminApi.issuePointsCsv, async (req) => ok(await draftCsv(operatorOf(req), req.body)));
  serve(app, adminApi.batches, async (req) => ok(await listBatches(operatorOf(req), req.query)));
  serve(app, adminApi.submitBatch, async (req) => ok(await submitBatch(operatorOf(req), req.body.batchId)));
  serve(app, adminApi.approveBatch, async (req) => ok(await approveBatch(operatorOf(req), req.body.batchId)));
  serve(app, adminApi.rejectBatch, async (req) =>
    ok(await rejectBatch(operatorOf(req), req.body.batchId, req.body.reason)),
  );

  serve(app, adminApi.audit, async (req) => ok(await searchAudit(operatorOf(req), req.query)));
  serve(app, adminApi.operators, async (req) => ok(await listOperators(operatorOf(req), req.query.pageNum)));
  serve(app, adminApi.roles, async (req) => ok(await listRoles(operatorOf(req))));
  serve(app, adminApi.assignRole, async (req) => ok(await assignRole(operatorOf(req), req.body)));
  serve(app, adminApi.loginLog, async (req) => ok(await loginLog(operatorOf(req), req.query.pageNum)));

  // Each family's console routes live in its own module (`<module>.console.ts`, endpoints in
  // packages/contract/src/admin-<family>.ts) and are registered here, inside this plugin, so the
  // operator and site-scope hooks above guard them too.
  for (const family of opts.families ?? []) await app.register(family);
};
