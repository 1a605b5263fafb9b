import { ADMIN_MSG, adminApi, CODE } from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, PASSWORDS } from './admin.fixtures';
import { resolveOperator } from './admin.service';
import { auditLog, operator } from './admin.tables';

let t: TestApp;
let api: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ t, admin: api, tokens } = await consoleApp());
});
afterAll(() => t.close());

const auditRows = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action));
const idOf = async (username: string) =>
  (await t.db.select().from(operator).where(eq(operator.username, username)))[0]?.id as number;

describe('binding TOTP', () => {
  it('binds only with the password and a code of the new secret; login then asks for a code', async () => {
    const token = tokens.op719 as string;
    const setup = await api.call(adminApi.totpSetup, {}, token);
    const { secret, uri } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{16,64}$/);
    expect(uri).toContain('otpauth://totp/');
    expect(uri).toContain('op719');
    const code = await generate({ secret });
    const bind = (body: Record<string, unknown>) => api.call(adminApi.totpBind, body, token);

    expect((await bind({ secret, code, password: 'wrong#2026' })).body.msg).toBe(ADMIN_MSG.wrongPassword);
    const wrongCode = code === '000000' ? '000001' : '000000';
    expect((await bind({ secret, code: wrongCode, password: PASSWORDS.op719 })).body.msg).toBe(
      ADMIN_MSG.badTotp,
    );
    expect((await bind({ secret, code: '12ab56', password: PASSWORDS.op719 })).body.code).toBe(
      CODE.badRequest,
    );
    expect((await api.call(adminApi.me, {}, token)).body.data.totpBound).toBe(false);

    // Two tabs binding at once: one binds, the other is told it is bound already.
    const both = await Promise.all([
      bind({ secret, code, password: PASSWORDS.op719 }),
      bind({ secret, code, password: PASSWORDS.op719 }),
    ]);
    expect(both.map((r) => r.body.msg).sort()).toEqual(['success', ADMIN_MSG.totpAlreadyBound].sort());
    expect((await api.call(adminApi.me, {}, token)).body.data.totpBound).toBe(true);
    expect(await auditRows('operator.totp.bind')).toHaveLength(1);
    expect(JSON.stringify(await auditRows('operator.totp.bind'))).not.toContain(secret);

    const first = await api.call(adminApi.login, { username: 'op719', password: PASSWORDS.op719 as string });
    expect(first.body.data).toEqual({ token: '', totpNeeded: true });
    const second = await api.call(adminApi.login, {
      username: 'op719',
      password: PASSWORDS.op719 as string,
      totp: await generate({ secret }),
    });
    expect(second.body.data.token).not.toBe('');
  });

  it('a visitor cannot set up or bind', async () => {
    expect((await api.call(adminApi.totpSetup, {})).body.code).toBe(CODE.unauthorized);
  });
});

describe('a platform admin makes TOTP mandatory and resets it', () => {
  it('requires a reason, is refused to a site operator, is audited; a required operator without TOTP cannot log in', async () => {
    const target = await idOf('cs10110');
    const set = (body: Record<string, unknown>, token = tokens.admin) =>
      api.call(adminApi.operatorTotp, { operatorId: target, ...body }, token);
    expect((await set({ required: true, reason: '' })).body.code).toBe(CODE.badRequest);
    expect((await set({ reason: '无事' })).body.msg).toBe(ADMIN_MSG.totpNothingToDo);
    expect((await set({ required: true, reason: '客服须双因素' }, tokens.op719)).body.code).toBe(403);

    const made = await set({ required: true, reason: '客服须双因素' });
    expect(made.body.data).toMatchObject({ username: 'cs10110', totpRequired: true, totpBound: false });
    const [row] = await auditRows('operator.totp.require');
    expect(row).toMatchObject({
      before: { totpRequired: false },
      after: { totpRequired: true },
      reason: '客服须双因素',
    });
    const refused = await api.call(adminApi.login, {
      username: 'cs10110',
      password: PASSWORDS.cs10110 as string,
    });
    expect(refused.body.msg).toBe(ADMIN_MSG.totpNotBound);
    // Its open session still works: it can bind from there.
    const secret = (await api.call(adminApi.totpSetup, {}, tokens.cs10110)).body.data.secret;
    const bound = await api.call(
      adminApi.totpBind,
      { secret, code: await generate({ secret }), password: PASSWORDS.cs10110 },
      tokens.cs10110,
    );
    expect(bound.body.code).toBe(200);
    // The session lookup carries the second factor; `me` reports it from there.
    expect((await resolveOperator(t.db, tokens.cs10110)).secondFactor).toEqual({
      totpBound: true,
      totpRequired: true,
    });
    expect((await api.call(adminApi.me, {}, tokens.cs10110)).body.data).toMatchObject({
      username: 'cs10110',
      totpBound: true,
      totpRequired: true,
    });

    const reset = await set({ reset: true, reason: '手机遗失' });
    expect(reset.body.data).toMatchObject({ totpBound: false, totpRequired: true });
    expect((await api.call(adminApi.me, {}, tokens.cs10110)).body.data).toMatchObject({
      totpBound: false,
      totpRequired: true,
    });
    const [resetRow] = await auditRows('operator.totp.reset');
    expect(resetRow).toMatchObject({
      before: { totpBound: true },
      after: { totpBound: false },
      reason: '手机遗失',
    });
    const [stored] = await t.db.select().from(operator).where(eq(operator.id, target));
    expect(stored?.totpSecret).toBeNull();
  });
});
