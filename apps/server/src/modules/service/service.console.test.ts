import {
  ADMIN_MSG,
  adminServiceApi as api,
  catalogApi,
  type MyServiceMessages,
  SERVICE_CONSOLE_MSG,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, matrixMismatches } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { buyer } from '../order/order.fixtures';
import { serviceMessage } from './service.tables';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
const NONE = 2_000_000_000;

/** A message left on the form, as a member (token) or a visitor. */
async function leave(siteId: number, content: string, token?: string) {
  const res = await client(t).post<{ messageId: number }>(
    catalogApi.serviceMessage.path,
    { siteId, name: '王五', phone: '13911112222', topic: '订单问题', content },
    token,
  );
  expect(res.body.code).toBe(200);
  return res.body.data.messageId;
}

const audits = (messageId: number) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'service_message'), eq(auditLog.entityId, String(messageId))));

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
});
afterAll(() => t.close());

describe('customer-service messages in the console', () => {
  it('answers each route allowed or 403 as the permission table says; a 403 writes nothing', async () => {
    const mismatches = await matrixMismatches(t, tokens, [
      [api.messages, (siteId) => ({ siteId })],
      [api.reply, (siteId) => ({ siteId, messageId: NONE, reply: '矩阵测试' })],
    ]);
    expect(mismatches).toEqual([]);
  });

  it('lists the operator’s sites only, replied or waiting, by keyword', async () => {
    const here = await leave(10110, '发票怎么开？编号 K-77 的订单');
    const there = await leave(719, '发票怎么开？编号 K-77 的订单');
    const mine = await admin.call(api.messages, { keyword: 'K-77' }, tokens.cs10110);
    expect(mine.body.code).toBe(200);
    expect(mine.body.data.list.map((m) => m.messageId)).toEqual([here]);
    expect(mine.body.data.list[0]).toMatchObject({ siteId: 10110, reply: '', repliedAt: null });
    const all = await admin.call(api.messages, { keyword: 'K-77', replied: false }, tokens.admin);
    expect(all.body.data.list.map((m) => m.messageId)).toEqual([there, here]);
    const done = await admin.call(api.messages, { keyword: 'K-77', replied: true }, tokens.admin);
    expect(done.body.data.total).toBe(0);
    expect((await admin.call(api.messages, { siteId: 719 }, tokens.cs10110)).body.code).toBe(403);
    expect((await admin.call(api.messages, { siteId: 10110 }, tokens.op719)).body.code).toBe(403);
    const theirs = await admin.call(api.messages, { keyword: 'K-77' }, tokens.op719);
    expect(theirs.body.data.list.map((m) => m.messageId)).toEqual([there]);
    expect((await admin.call(api.messages, { pageNum: 0 }, tokens.admin)).body.code).toBe(400);
  });

  it('replies once (in parallel too), audited, as text; the member reads it, nobody else', async () => {
    const me = await buyer(t, 10110);
    const other = await buyer(t, 10110);
    const messageId = await leave(10110, '收到的商品包装破损，怎么办？', me.token);

    for (const reply of ['', '   ', 'x'.repeat(501)]) {
      const res = await admin.call(api.reply, { siteId: 10110, messageId, reply }, tokens.cs10110);
      expect(res.body.code).toBe(400);
    }
    const blank = await admin.call(api.reply, { siteId: 10110, messageId, reply: '  ' }, tokens.cs10110);
    expect(blank.body.msg).toBe(SERVICE_CONSOLE_MSG.replyRequired);
    // Another site's operator naming it under their own site, or under its site: nothing changes.
    const crossed = await admin.call(api.reply, { siteId: 719, messageId, reply: '越权' }, tokens.op719);
    expect(crossed.body).toMatchObject({ code: 500, msg: ADMIN_MSG.notFound });
    const foreign = await admin.call(api.reply, { siteId: 10110, messageId, reply: '越权' }, tokens.op719);
    expect(foreign.body.code).toBe(403);
    expect(await audits(messageId)).toEqual([]);

    const text = '<script>alert(1)</script>请拍照后在“我的订单”申请售后';
    const [a, b] = await Promise.all([
      admin.call(api.reply, { siteId: 10110, messageId, reply: text }, tokens.cs10110),
      admin.call(api.reply, { siteId: 10110, messageId, reply: text }, tokens.admin),
    ]);
    const answers = [a.body, b.body];
    expect(answers.filter((x) => x.code === 200)).toHaveLength(1);
    expect(answers.filter((x) => x.code !== 200)).toEqual([
      expect.objectContaining({ code: 500, msg: SERVICE_CONSOLE_MSG.replied }),
    ]);
    const rows = await audits(messageId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      siteId: 10110,
      action: 'service.reply',
      before: { reply: '' },
      after: { reply: text },
    });
    const [stored] = await t.db.select().from(serviceMessage).where(eq(serviceMessage.id, messageId));
    expect(stored?.reply).toBe(text);

    const read = await client(t).post<MyServiceMessages>(
      catalogApi.myServiceMessages.path,
      { siteId: 10110 },
      me.token,
    );
    expect(read.body.data.list).toEqual([
      expect.objectContaining({ messageId, reply: text, repliedAt: expect.any(String) }),
    ]);
    const theirs = await client(t).post<MyServiceMessages>(
      catalogApi.myServiceMessages.path,
      { siteId: 10110 },
      other.token,
    );
    expect(theirs.body.data.list).toEqual([]);
    const anonymous = await client(t).post(catalogApi.myServiceMessages.path, { siteId: 10110 });
    expect(anonymous.body.code).toBe(401);
  });
});
