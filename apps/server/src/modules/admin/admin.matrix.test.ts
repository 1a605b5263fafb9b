import {
  adminAfterSaleApi,
  adminApi,
  adminApprovalApi,
  adminRefundApi,
  CODE,
  type Endpoint,
} from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATORS } from '../../db/demo/operators';
import { DEMO_SITES } from '../../db/demo/sites';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, holds } from './admin.fixtures';
import { orderRefundRequest, pointsIssueBatch } from './admin.tables';

/**
 * Every console route with a site, as every demo operator, against every demo site: allowed
 * exactly when the demo permission table (db/demo/operators.ts) gives the operator the route's
 * permission on that site, 403 otherwise. "Allowed" means not 401/403: the call may still fail
 * on its own terms (an order number that does not exist, a batch already executed).
 */

let t: TestApp;
let api: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
const batchOf = new Map<number, number>();
const refundOf = new Map<number, number>();

/** Each route with a payload naming the site; writes are shaped to change nothing when allowed. */
const SITE_ROUTES: [Endpoint, (siteId: number) => Record<string, unknown>][] = [
  [adminApi.sites, (siteId) => ({ siteId })],
  [adminApi.updateSite, (siteId) => ({ siteId })],
  [adminApi.orders, (siteId) => ({ siteId })],
  [adminApi.orderDetail, (siteId) => ({ siteId, orderNo: 'NO-SUCH-ORDER' })],
  [
    adminApi.shipOrder,
    (siteId) => ({ siteId, childOrderNo: 'NO-SUCH', company: '顺丰', trackingNo: 'SF00000001' }),
  ],
  [adminApi.cancelOrder, (siteId) => ({ siteId, orderNo: 'NO-SUCH-ORDER', reason: '矩阵测试' })],
  [adminApi.members, (siteId) => ({ siteId })],
  [adminApi.ledger, (siteId) => ({ siteId, memberId: 2_000_000_000 })],
  [adminApi.memberDetail, (siteId) => ({ siteId, memberId: 2_000_000_000 })],
  [adminApi.revokeMemberSessions, (siteId) => ({ siteId, memberId: 2_000_000_000, reason: '矩阵测试' })],
  [
    adminApi.setMemberStatus,
    (siteId) => ({ siteId, memberId: 2_000_000_000, status: 0, reason: '矩阵测试' }),
  ],
  [adminApi.issuePoints, (siteId) => ({ siteId, account: 'nobody', amount: 1, reason: '矩阵测试' })],
  [
    adminApi.issuePointsCsv,
    (siteId) => ({ siteId, fileName: 'm.csv', text: 'nobody,1', reason: '矩阵测试' }),
  ],
  [adminApi.batches, (siteId) => ({ siteId })],
  [adminApi.audit, (siteId) => ({ siteId })],
  // An executed batch of the site: allowed answers "state changed", nothing moves.
  [adminApi.submitBatch, (siteId) => ({ batchId: batchOf.get(siteId) })],
  [adminApi.approveBatch, (siteId) => ({ batchId: batchOf.get(siteId) })],
  [adminApi.rejectBatch, (siteId) => ({ batchId: batchOf.get(siteId), reason: '矩阵测试' })],
  // An executed refund request of the site: allowed answers "state changed", nothing moves.
  [adminRefundApi.approveRefund, (siteId) => ({ requestId: refundOf.get(siteId) })],
  [adminRefundApi.rejectRefund, (siteId) => ({ requestId: refundOf.get(siteId), reason: '矩阵测试' })],
  [adminRefundApi.refundRequests, (siteId) => ({ siteId })],
  [adminRefundApi.sitePolicy, (siteId) => ({ siteId })],
  // After-sales: a case number that does not exist, so an allowed call answers "not found".
  ...Object.values(adminAfterSaleApi).map(
    (declared): [Endpoint, (siteId: number) => Record<string, unknown>] => [
      declared,
      (siteId) => ({
        siteId,
        afterSaleNo: 'AS0',
        reason: '矩阵测试',
        content: '矩阵测试',
        company: '顺丰',
        trackingNo: 'SF00000001',
        proposalId: 1,
      }),
    ],
  ),
  // Approval: an order that does not exist; the rule saved disabled (no order waits because of it).
  ...Object.values(adminApprovalApi).map(
    (declared): [Endpoint, (siteId: number) => Record<string, unknown>] => [
      declared,
      (siteId) =>
        declared === adminApprovalApi.saveRule
          ? {
              siteId,
              isEnabled: false,
              minAmount: 0,
              sources: [],
              vipLevelIds: [],
              levels: 1,
              expireHours: 48,
              reason: '矩阵测试',
            }
          : { siteId, orderNo: 'NO-SUCH-ORDER', status: 11, reason: '矩阵测试' },
    ],
  ),
];
/** Routes about operators, not sites: only a permission on all sites reaches them. */
const PLATFORM_ROUTES: [Endpoint, Record<string, unknown>][] = [
  [adminApi.operators, {}],
  [adminApi.roles, {}],
  [adminApi.loginLog, {}],
  [adminApi.assignRole, { operatorId: 2_000_000_000, roleId: 1, reason: '矩阵测试' }],
  [adminApi.operatorTotp, { operatorId: 2_000_000_000, required: true, reason: '矩阵测试' }],
];

beforeAll(async () => {
  ({ t, admin: api, tokens } = await consoleApp());
  for (const site of DEMO_SITES) {
    const [row] = await t.db
      .insert(pointsIssueBatch)
      .values({
        siteId: site.id,
        status: 'executed',
        makerId: 2_000_000_000,
        reason: '矩阵测试',
        totalAmount: 1,
        needsApproval: true,
        rows: [],
      })
      .returning();
    batchOf.set(site.id, row?.id as number);
    const [request] = await t.db
      .insert(orderRefundRequest)
      .values({
        siteId: site.id,
        orderNo: `MATRIX${site.id}`,
        status: 'executed',
        amount: 1,
        reason: '矩阵测试',
        makerId: 2_000_000_000,
      })
      .returning();
    refundOf.set(site.id, request?.id as number);
  }
});
afterAll(() => t.close());

describe('permission matrix', () => {
  it('answers each site route allowed or 403 as the permission table says', async () => {
    const mismatches: string[] = [];
    for (const { username } of DEMO_OPERATORS)
      for (const [declared, payload] of SITE_ROUTES)
        for (const { id: siteId } of DEMO_SITES) {
          const answer = await api.call(declared, payload(siteId), tokens[username]);
          const expected = holds(username, declared.operator as string, siteId);
          const code = answer.body.code;
          const allowed = code !== 403 && code !== CODE.unauthorized && code !== CODE.badRequest;
          if (allowed !== expected || (!expected && code !== 403))
            mismatches.push(`${username} ${declared.path} ${siteId}: ${code} ${answer.body.msg}`);
        }
    expect(mismatches).toEqual([]);
  });

  it('answers operator routes only to operators holding the permission on all sites', async () => {
    const mismatches: string[] = [];
    for (const { username } of DEMO_OPERATORS)
      for (const [declared, payload] of PLATFORM_ROUTES) {
        const answer = await api.call(declared, payload, tokens[username]);
        const expected = holds(username, declared.operator as string, 'all');
        if ((answer.body.code !== 403) !== expected)
          mismatches.push(`${username} ${declared.path}: ${answer.body.code}`);
      }
    expect(mismatches).toEqual([]);
  });

  it("names a permission on every console route but the login and the caller's own", () => {
    const unnamed = Object.values(adminApi)
      .filter((e) => !['login', 'self'].includes(e.operator as string))
      .filter((e) => !/^[a-z]+:(view|manage)$/.test(e.operator ?? ''));
    expect(unnamed).toEqual([]);
  });
});
