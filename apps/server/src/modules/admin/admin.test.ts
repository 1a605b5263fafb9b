import { ADMIN_MSG, adminApi, CODE, identityApi, orderApi, siteApi } from '@sitemall/contract';
import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { sha256 } from '../identity/crypto';
import { client } from '../identity/identity.fixtures';
import { getBalance } from '../points/points.service';
import { type adminClient, consoleApp, PASSWORDS, paidOrder } from './admin.fixtures';
import { LOGIN_FAILURES } from './admin.service';
import { auditLog, operator, operatorSession } from './admin.tables';

let t: TestApp;
let api: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ t, admin: api, tokens } = await consoleApp());
});
afterAll(() => t.close());

const auditRows = (action: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(auditLog.id);
/** A points batch for one account, drafted and submitted by the same operator; answers its id. */
async function submittedBatch(
  draft: { siteId: number; account: string; amount: number; reason: string },
  token: string | undefined,
) {
  const drafted = await api.call(adminApi.issuePoints, draft, token);
  await api.call(adminApi.submitBatch, { batchId: drafted.body.data.id }, token);
  return drafted.body.data.id;
}

describe('operator login and sessions', () => {
  it('logs in with a password, answers who the operator is, and logs every attempt', async () => {
    const bad = await api.call(adminApi.login, { username: 'admin', password: 'nope' });
    expect(bad.body).toMatchObject({ code: CODE.failure, msg: ADMIN_MSG.badLogin });
    const me = await api.call(adminApi.me, {}, tokens.op719);
    expect(me.body.data).toMatchObject({ username: 'op719', sites: [{ id: 719 }] });
    expect(me.body.data.assignments[0]).toMatchObject({ roleName: '站点运营', siteIds: [719] });
    const log = await api.call(adminApi.loginLog, {}, tokens.admin);
    expect(log.body.data.list.some((r) => r.username === 'admin' && r.result === 'bad_password')).toBe(true);
    expect(log.body.data.list.some((r) => r.username === 'op719' && r.result === 'ok')).toBe(true);
  });

  it('refuses a member token, an unknown token and no token, before validating the body', async () => {
    const member = await client(t).tokenOf(1000, '13800001000', 'Demo1000');
    for (const token of [member, 'x'.repeat(43), undefined]) {
      const answer = await api.call(adminApi.updateSite, { siteName: 123 }, token);
      expect(answer.body.code).toBe(CODE.unauthorized);
    }
  });

  it('ends a session after idle time and after logout (416)', async () => {
    const token = await api.tokenOf('finance', PASSWORDS.finance as string);
    expect((await api.call(adminApi.me, {}, token)).body.code).toBe(200);
    await t.db
      .update(operatorSession)
      .set({ lastSeenAt: sql`now() - interval '31 minutes'` })
      .where(eq(operatorSession.tokenHash, sha256(token)));
    expect((await api.call(adminApi.me, {}, token)).body.code).toBe(CODE.tokenInvalid);
    const other = await api.tokenOf('finance', PASSWORDS.finance as string);
    await api.call(adminApi.logout, {}, other);
    expect((await api.call(adminApi.me, {}, other)).body.code).toBe(CODE.tokenInvalid);
  });

  it('asks for a TOTP code once one is bound, and refuses a wrong one', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await t.db.update(operator).set({ totpSecret: secret }).where(eq(operator.username, 'cs10110'));
    const ip = '10.9.9.9';
    const first = await api.call(
      adminApi.login,
      { username: 'cs10110', password: PASSWORDS.cs10110 },
      undefined,
      ip,
    );
    expect(first.body.data).toEqual({ token: '', totpNeeded: true });
    const wrong = await api.call(
      adminApi.login,
      { username: 'cs10110', password: PASSWORDS.cs10110, totp: '000000' },
      undefined,
      ip,
    );
    expect(wrong.body.msg).toBe(ADMIN_MSG.badTotp);
    const totp = await generate({ secret });
    const ok = await api.call(
      adminApi.login,
      { username: 'cs10110', password: PASSWORDS.cs10110, totp },
      undefined,
      ip,
    );
    expect(ok.body.data.token).toHaveLength(43);
    await t.db
      .update(operator)
      .set({ totpSecret: null, totpRequired: true })
      .where(eq(operator.username, 'cs10110'));
    const unbound = await api.call(adminApi.login, { username: 'cs10110', password: PASSWORDS.cs10110 });
    expect(unbound.body.msg).toBe(ADMIN_MSG.totpNotBound);
    await t.db.update(operator).set({ totpRequired: false }).where(eq(operator.username, 'cs10110'));
  });

  it('limits failures per username and address without locking the owner out elsewhere', async () => {
    const attacker = '10.66.0.1';
    for (let i = 0; i < LOGIN_FAILURES; i += 1)
      await api.call(adminApi.login, { username: 'op719', password: 'guess' }, undefined, attacker);
    const limited = await api.call(
      adminApi.login,
      { username: 'op719', password: PASSWORDS.op719 },
      undefined,
      attacker,
    );
    expect(limited.body.msg).toBe(ADMIN_MSG.tooManyLogins);
    const owner = await api.call(
      adminApi.login,
      { username: 'op719', password: PASSWORDS.op719 },
      undefined,
      '10.1.2.3',
    );
    expect(owner.body.data.token).toHaveLength(43);
  });
});

describe('sites', () => {
  it('lists only the sites in the scope', async () => {
    const all = await api.call(adminApi.sites, {}, tokens.admin);
    expect(all.body.data.list.map((s) => s.id)).toEqual([719, 1000, 10110]);
    const own = await api.call(adminApi.sites, {}, tokens.op719);
    expect(own.body.data.list.map((s) => s.id)).toEqual([719]);
    expect((await api.call(adminApi.sites, { siteId: 10110 }, tokens.op719)).body.code).toBe(403);
  });

  it('saves a change with before/after in the audit log, and the storefront shows it', async () => {
    const saved = await api.call(
      adminApi.updateSite,
      { siteId: 719, siteName: '汇通银行积分商城（新）', hotline: '400-000-0719' },
      tokens.op719,
    );
    expect(saved.body.data).toMatchObject({ siteName: '汇通银行积分商城（新）', hotline: '400-000-0719' });
    const config = await client(t).post<{ mallSite: { siteName: string } }>(siteApi.getSiteConfig.path, {
      siteId: 719,
    });
    expect(config.body.data.mallSite.siteName).toBe('汇通银行积分商城（新）');
    const [row] = await auditRows('site.update');
    expect(row).toMatchObject({
      siteId: 719,
      entity: 'mall_site',
      before: { siteName: '汇通银行信用卡积分商城', hotline: '400-819-0719' },
      after: { siteName: '汇通银行积分商城（新）', hotline: '400-000-0719' },
    });
    expect(row?.requestId).not.toBe('');
  });

  it('needs a reason to change pay ways, and refuses a site outside the scope unchanged', async () => {
    const noReason = await api.call(adminApi.updateSite, { siteId: 719, paywayConf: ['ye'] }, tokens.op719);
    expect(noReason.body).toMatchObject({ code: CODE.badRequest, msg: ADMIN_MSG.reasonRequired });
    const withReason = await api.call(
      adminApi.updateSite,
      { siteId: 719, paywayConf: ['ye'], reason: '微信商户号暂停' },
      tokens.op719,
    );
    expect(withReason.body.data.paywayConf).toEqual(['ye']);
    // Every pay way of the contract can be offered again, card payment too.
    const every = await api.call(
      adminApi.updateSite,
      { siteId: 719, paywayConf: ['ye', 'wx_pc', 'pack'], reason: '恢复全部支付方式' },
      tokens.op719,
    );
    expect(every.body.data.paywayConf).toEqual(['ye', 'wx_pc', 'pack']);
    const outside = await api.call(adminApi.updateSite, { siteId: 10110, siteName: '越权' }, tokens.op719);
    expect(outside.body.code).toBe(403);
    const sites = await api.call(adminApi.sites, { siteId: 10110 }, tokens.admin);
    expect(sites.body.data.list[0]?.siteName).not.toBe('越权');
  });

  it('keeps the audit log append-only in the database', async () => {
    await expect(t.db.execute(sql`update audit_log set reason = 'x'`)).rejects.toThrow();
    await expect(t.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    expect((await auditRows('site.update')).length).toBeGreaterThan(0);
  });
});

describe('orders', () => {
  let o719: Awaited<ReturnType<typeof paidOrder>>;
  let o1000: Awaited<ReturnType<typeof paidOrder>>;
  beforeAll(async () => {
    o719 = await paidOrder(t, 719);
    o1000 = await paidOrder(t, 1000);
  });

  it('searches by number, phone and status within the scope', async () => {
    const byNo = await api.call(adminApi.orders, { orderNo: o719.orderNo }, tokens.admin);
    expect(byNo.body.data.list).toMatchObject([
      { orderNo: o719.orderNo, status: 24, memberPhone: o719.member.phone },
    ]);
    const byPhone = await api.call(adminApi.orders, { phone: o1000.member.phone }, tokens.admin);
    expect(byPhone.body.data.list.map((o) => o.orderNo)).toEqual([o1000.orderNo]);
    const scoped = await api.call(adminApi.orders, { status: 24 }, tokens.op719);
    expect(scoped.body.data.list.every((o) => o.siteId === 719)).toBe(true);
    expect(scoped.body.data.list.map((o) => o.orderNo)).not.toContain(o1000.orderNo);
    const foreign = await api.call(adminApi.orders, { orderNo: o1000.orderNo }, tokens.op719);
    expect(foreign.body.data.total).toBe(0);
    expect((await api.call(adminApi.orders, { siteId: 1000 }, tokens.op719)).body.code).toBe(403);
  });

  it('shows the detail only with its own site', async () => {
    const detail = await api.call(adminApi.orderDetail, { siteId: 719, orderNo: o719.orderNo }, tokens.op719);
    expect(detail.body.data.children[0]).toMatchObject({ childOrderNo: o719.childOrderNo, shipment: null });
    const wrongSite = await api.call(
      adminApi.orderDetail,
      { siteId: 719, orderNo: o1000.orderNo },
      tokens.admin,
    );
    expect(wrongSite.body.msg).toBe(ADMIN_MSG.notFound);
  });

  it('ships through fulfilment: the member sees 22 and the audit has the parcel', async () => {
    const shipped = await api.call(
      adminApi.shipOrder,
      { siteId: 719, childOrderNo: o719.childOrderNo, company: '顺丰速运', trackingNo: 'SF7190000001' },
      tokens.op719,
    );
    expect(shipped.body.data).toMatchObject({ status: 22, statusName: '待收货' });
    const mine = await client(t).post<{ status: number }>(
      orderApi.orderDetail.path,
      { siteId: 719, orderNo: o719.orderNo },
      o719.member.token,
    );
    expect(mine.body.data.status).toBe(22);
    const [row] = await auditRows('order.ship');
    expect(row).toMatchObject({ siteId: 719, after: { trackingNo: 'SF7190000001', status: 22 } });
  });

  it('cancels a paid order with a reason and returns the points once', async () => {
    const before = await getBalance(t, { siteId: 1000, memberId: o1000.member.id });
    const cancel = (reason: string, token = tokens.admin) =>
      api.call(adminApi.cancelOrder, { siteId: 1000, orderNo: o1000.orderNo, reason }, token);
    expect((await cancel(' ')).body.msg).toBe(ADMIN_MSG.reasonRequired);
    expect((await cancel('缺货', tokens.op719)).body.code).toBe(403);
    const cancelled = await cancel('缺货');
    expect(cancelled.body.data.status).toBe(4);
    const after = await getBalance(t, { siteId: 1000, memberId: o1000.member.id });
    expect(after - before).toBe(cancelled.body.data.payAmount);
    const [row] = await auditRows('order.cancel');
    expect(row).toMatchObject({ reason: '缺货', before: { status: 24 }, after: { status: 4 } });
  });
});

describe('members and points', () => {
  it('searches members and reads a ledger within the scope', async () => {
    const found = await api.call(adminApi.members, { keyword: '13800000719' }, tokens.op719);
    expect(found.body.data.list).toMatchObject([{ siteId: 719, phone: '13800000719' }]);
    const none = await api.call(adminApi.members, { keyword: '13800001000' }, tokens.op719);
    expect(none.body.data.total).toBe(0);
    const id = found.body.data.list[0]?.id as number;
    const ledger = await api.call(adminApi.ledger, { siteId: 719, memberId: id }, tokens.op719);
    expect(ledger.body.data.list.at(-1)).toMatchObject({ amount: 1_000_000, type: 'issue' });
    expect((await api.call(adminApi.ledger, { siteId: 1000, memberId: id }, tokens.op719)).body.code).toBe(
      403,
    );
  });

  it('issues at or below the threshold on submit, without a second operator', async () => {
    const before = await getBalance(t, { siteId: 719, memberId: 1 });
    const drafted = await api.call(
      adminApi.issuePoints,
      { siteId: 719, account: '13800000719', amount: 100_000, reason: '活动奖励' },
      tokens.op719,
    );
    expect(drafted.body.data).toMatchObject({ status: 'draft', needsApproval: false, totalAmount: 100_000 });
    const submitted = await api.call(adminApi.submitBatch, { batchId: drafted.body.data.id }, tokens.op719);
    expect(submitted.body.data).toMatchObject({ status: 'executed', rows: [{ result: 'ok' }] });
    expect(await getBalance(t, { siteId: 719, memberId: 1 })).toBe(before + 100_000);
  });

  it('above the threshold needs a finance approver other than the maker, and executes once', async () => {
    const before = await getBalance(t, { siteId: 719, memberId: 1 });
    const drafted = await api.call(
      adminApi.issuePointsCsv,
      {
        siteId: 719,
        fileName: 'bonus.csv',
        text: 'phone,amount,note\n13800000719,1500.00,年终奖励\n13800000000,abc,坏行\n',
        reason: '年终奖励',
      },
      tokens.admin,
    );
    expect(drafted.body.data).toMatchObject({
      status: 'draft',
      needsApproval: true,
      totalAmount: 150_000,
      refused: [{ line: 3 }],
    });
    const batchId = drafted.body.data.id;
    expect((await api.call(adminApi.submitBatch, { batchId }, tokens.admin)).body.data.status).toBe(
      'submitted',
    );
    expect(await getBalance(t, { siteId: 719, memberId: 1 })).toBe(before);
    const own = await api.call(adminApi.approveBatch, { batchId }, tokens.admin);
    expect(own.body).toMatchObject({ code: 403, msg: ADMIN_MSG.ownBatch });
    expect((await api.call(adminApi.approveBatch, { batchId }, tokens.op719)).body.code).toBe(403);
    const approved = await api.call(adminApi.approveBatch, { batchId }, tokens.finance);
    expect(approved.body.data).toMatchObject({ status: 'executed', approverName: '财务复核' });
    const replay = await api.call(adminApi.approveBatch, { batchId }, tokens.finance);
    expect(replay.body.msg).toBe(ADMIN_MSG.batchState);
    expect(await getBalance(t, { siteId: 719, memberId: 1 })).toBe(before + 150_000);
    const actions = (await auditRows('points.issue.approve')).map((r) => r.entityId);
    expect(actions).toEqual([String(batchId)]);
  });

  it('two approvals racing execute the batch exactly once', async () => {
    const before = await getBalance(t, { siteId: 1000, memberId: 3 });
    const batchId = await submittedBatch(
      { siteId: 1000, account: '13800001000', amount: 60_000, reason: '补偿' },
      tokens.admin,
    );
    const second = await api.tokenOf('finance', PASSWORDS.finance as string);
    const answers = await Promise.all([
      api.call(adminApi.approveBatch, { batchId }, tokens.finance),
      api.call(adminApi.approveBatch, { batchId }, second),
    ]);
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, CODE.failure]);
    expect(await getBalance(t, { siteId: 1000, memberId: 3 })).toBe(before + 60_000);
  });

  it('rejects a submitted batch with a reason; nothing is issued', async () => {
    const batchId = await submittedBatch(
      { siteId: 719, account: '13800000719', amount: 200_000, reason: '误操作测试' },
      tokens.op719,
    );
    const rejected = await api.call(adminApi.rejectBatch, { batchId, reason: '金额有误' }, tokens.finance);
    expect(rejected.body.data.status).toBe('rejected');
    const list = await api.call(adminApi.batches, { siteId: 719, status: 'rejected' }, tokens.op719);
    expect(list.body.data.list.map((b) => b.id)).toEqual([batchId]);
  });

  it('never lets the maker reject their own batch either', async () => {
    const batchId = await submittedBatch(
      { siteId: 1000, account: '13800001000', amount: 200_000, reason: '自审测试' },
      tokens.admin,
    );
    const own = await api.call(adminApi.rejectBatch, { batchId, reason: '撤回' }, tokens.admin);
    expect(own.body).toMatchObject({ code: 403, msg: ADMIN_MSG.ownBatch });
    const list = await api.call(adminApi.batches, { siteId: 1000, status: 'submitted' }, tokens.admin);
    expect(list.body.data.list.map((b) => b.id)).toContain(batchId);
    expect((await auditRows('points.issue.reject')).some((r) => r.entityId === String(batchId))).toBe(false);
  });
});

describe('audit log and operators', () => {
  it('shows audit rows of the scope only', async () => {
    const own = await api.call(adminApi.audit, {}, tokens.op719);
    expect(own.body.data.total).toBeGreaterThan(0);
    expect(own.body.data.list.every((r) => r.siteId === 719)).toBe(true);
    const all = await api.call(adminApi.audit, { action: 'order.cancel' }, tokens.admin);
    expect(all.body.data.list).toMatchObject([{ siteId: 1000, operatorName: '平台管理员' }]);
  });

  it('lists operators and roles and changes an assignment with a reason', async () => {
    const ops = await api.call(adminApi.operators, {}, tokens.admin);
    expect(ops.body.data.list.map((o) => o.username)).toEqual(['admin', 'op719', 'finance', 'cs10110']);
    const roles = await api.call(adminApi.roles, {}, tokens.admin);
    expect(roles.body.data.list.map((r) => r.name)).toContain('站点运营');
    const op719 = ops.body.data.list[1];
    const role = roles.body.data.list.find((r) => r.name === '站点运营');
    const noReason = await api.call(
      adminApi.assignRole,
      { operatorId: op719?.id, roleId: role?.id, siteIds: [719, 1000], reason: '' },
      tokens.admin,
    );
    expect(noReason.body.code).toBe(CODE.badRequest);
    const assigned = await api.call(
      adminApi.assignRole,
      { operatorId: op719?.id, roleId: role?.id, siteIds: [719, 1000], reason: '兼管 1000' },
      tokens.admin,
    );
    expect(assigned.body.data.assignments[0]?.siteIds).toEqual([719, 1000]);
    const [row] = await auditRows('operator.assign');
    expect(row).toMatchObject({ reason: '兼管 1000' });
    expect((await api.call(adminApi.operators, {}, tokens.op719)).body.code).toBe(403);
  });
});

describe('member sessions and freezing', () => {
  const info = (token: string) => client(t).post(identityApi.personalInfo.path, {}, token);
  const memberOf1000 = async () =>
    (await api.call(adminApi.members, { siteId: 1000, keyword: '13800001000' }, tokens.admin)).body.data
      .list[0]?.id as number;

  it('lists the sessions and ends them all on 强制下线, with an audit row', async () => {
    const token = await client(t).tokenOf(1000, '13800001000', 'Demo1000');
    const memberId = await memberOf1000();
    const detail = await api.call(adminApi.memberDetail, { siteId: 1000, memberId }, tokens.admin);
    expect(detail.body.data).toMatchObject({ id: memberId, phone: '13800001000', status: 1 });
    expect(detail.body.data.sessions[0]).toMatchObject({ active: true, revokedAt: '' });

    const noReason = await api.call(
      adminApi.revokeMemberSessions,
      { siteId: 1000, memberId, reason: ' ' },
      tokens.admin,
    );
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    expect((await info(token)).body.code).toBe(200);

    const revoked = await api.call(
      adminApi.revokeMemberSessions,
      { siteId: 1000, memberId, reason: '会员报告手机丢失' },
      tokens.admin,
    );
    expect(revoked.body.data.sessions[0]).toMatchObject({ active: false, revokeReason: 'operator' });
    expect((await info(token)).body.code).toBe(416);
    expect(await auditRows('member.sessions.revoke')).toMatchObject([
      { siteId: 1000, entityId: String(memberId), before: { activeSessions: 1 }, reason: '会员报告手机丢失' },
    ]);
  });

  it('a frozen member is logged out and refused at login until unfrozen; twice records once', async () => {
    const token = await client(t).tokenOf(1000, '13800001000', 'Demo1000');
    const memberId = await memberOf1000();
    const freeze = { siteId: 1000, memberId, status: 0, reason: '疑似盗号' } as const;
    const answers = await Promise.all([
      api.call(adminApi.setMemberStatus, freeze, tokens.admin),
      api.call(adminApi.setMemberStatus, freeze, tokens.admin),
    ]);
    expect(answers.map((a) => a.body.msg).sort()).toEqual([ADMIN_MSG.memberAlready, '会员已冻结'].sort());
    expect((await info(token)).body.code).toBe(416);
    const login = await client(t).pwdLogin(1000, '13800001000', 'Demo1000');
    expect(login.body.msg).toBe('账号已停用，请联系客服');
    expect(await auditRows('member.freeze')).toHaveLength(1);

    const unfrozen = await api.call(
      adminApi.setMemberStatus,
      { ...freeze, status: 1, reason: '核实为本人' },
      tokens.admin,
    );
    expect(unfrozen.body.data.status).toBe(1);
    expect((await client(t).pwdLogin(1000, '13800001000', 'Demo1000')).body.code).toBe(200);
  });

  it('refuses another site, a view-only operator, and bad input; nothing changes', async () => {
    const memberId = await memberOf1000();
    const outsider = await api.call(
      adminApi.setMemberStatus,
      { siteId: 1000, memberId, status: 0, reason: '越权' },
      tokens.cs10110,
    );
    expect(outsider.body.code).toBe(403);
    // The member exists, but not on the site named: "not found", never the other site's member.
    const wrongSite = await api.call(
      adminApi.setMemberStatus,
      { siteId: 719, memberId, status: 0, reason: '错站点' },
      tokens.admin,
    );
    expect(wrongSite.body.msg).toBe(ADMIN_MSG.notFound);
    const viewer = await api.call(
      adminApi.revokeMemberSessions,
      { siteId: 1000, memberId, reason: '只读' },
      tokens.finance,
    );
    expect(viewer.body.code).toBe(403);
    // Numbers may come as text (a form post sends text); anything else that is not 0 or 1 is refused.
    for (const status of [2, -1, 'abc', null, 1.5]) {
      const payload = { siteId: 1000, memberId, status, reason: 'x' };
      const answer = await api.call(adminApi.setMemberStatus, payload, tokens.admin);
      expect([status, answer.body.code]).toEqual([status, CODE.badRequest]);
    }
    const detail = await api.call(adminApi.memberDetail, { siteId: 1000, memberId }, tokens.admin);
    expect(detail.body.data.status).toBe(1);
    expect(await auditRows('member.freeze')).toHaveLength(1);
  });
});
