import {
  addressApi,
  adminGroupApi,
  GROUP_ADMIN_MSG,
  type GroupSubmitResult,
  groupApi,
} from '@sitemall/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { adminClient, PASSWORDS } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { buyer, NANJING, type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { groupActivity } from './group.tables';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
const tokens: Record<string, string> = {};
let physical: PickedSpec;
let virtual: PickedSpec;

const day = 86_400_000;
const body = (siteId: number, spec: PickedSpec, extra: Record<string, unknown> = {}) => ({
  siteId,
  name: '三人团',
  specificationId: spec.specificationId,
  price: 500,
  teamSize: 3,
  teamHours: 12,
  memberLimit: 1,
  virtualFill: false,
  startAt: new Date(Date.now() - day).toISOString(),
  endAt: new Date(Date.now() + day).toISOString(),
  ...extra,
});

const activitiesOn = async (siteId: number) =>
  (await t.db.select({ n: count() }).from(groupActivity).where(eq(groupActivity.siteId, siteId)))[0]?.n ?? 0;
const auditsOf = async (action: string) =>
  (await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, action)))[0]?.n ?? 0;

beforeAll(async () => {
  t = await testApp();
  admin = adminClient(t);
  for (const name of ['op719', 'cs10110'])
    tokens[name] = await admin.tokenOf(name, PASSWORDS[name] as string);
  [physical] = (await pickSpecs(t.db, 719, { stock: 100 })) as [PickedSpec];
  [virtual] = (await pickSpecs(t.db, 719, { virtual: true })) as [PickedSpec];
});
afterAll(() => t.close());

describe('console: group-buy activities', () => {
  it('lists the demo activity, creates, edits and ends one, each with its audit row', async () => {
    const list = await admin.call(adminGroupApi.groupActivities, { siteId: 719 }, tokens.op719);
    expect(list.body.data.list.map((a) => a.name)).toContain('两人拼团');

    const created = await admin.call(adminGroupApi.saveGroupActivity, body(719, physical), tokens.op719);
    expect(created.body).toMatchObject({
      code: 200,
      data: { name: '三人团', teamSize: 3, status: 0, teams: { forming: 0, succeeded: 0, failed: 0 } },
    });
    const id = created.body.data.id;
    expect(await auditsOf('group.activity.create')).toBe(1);

    const edited = await admin.call(
      adminGroupApi.saveGroupActivity,
      body(719, physical, { id, name: '三人团（改）', price: 450 }),
      tokens.op719,
    );
    expect(edited.body.data).toMatchObject({ id, name: '三人团（改）', price: 450 });
    expect(await auditsOf('group.activity.update')).toBe(1);

    const noReason = await admin.call(
      adminGroupApi.endGroupActivity,
      { siteId: 719, activityId: id, reason: ' ' },
      tokens.op719,
    );
    expect(noReason.body.code).not.toBe(200);
    const ended = await admin.call(
      adminGroupApi.endGroupActivity,
      { siteId: 719, activityId: id, reason: '商品调价' },
      tokens.op719,
    );
    expect(ended.body.data.status).toBe(1);
    const again = await admin.call(
      adminGroupApi.endGroupActivity,
      { siteId: 719, activityId: id, reason: '商品调价' },
      tokens.op719,
    );
    expect(again.body.msg).toBe(GROUP_ADMIN_MSG.ended);
    expect(await auditsOf('group.activity.end')).toBe(1);
  });

  it('refuses virtual goods, products of another site and a window that ends before it starts', async () => {
    const refuse = async (payload: Record<string, unknown>, msg: string) => {
      const answer = await admin.call(adminGroupApi.saveGroupActivity, payload, tokens.op719);
      expect(answer.body.msg).toBe(msg);
    };
    await refuse(body(719, virtual), GROUP_ADMIN_MSG.virtualProduct);
    await refuse(
      body(719, { ...physical, specificationId: 2_000_000_000 }),
      GROUP_ADMIN_MSG.productNotOnSite,
    );
    await refuse(
      body(719, physical, { endAt: new Date(Date.now() - 2 * day).toISOString() }),
      GROUP_ADMIN_MSG.badWindow,
    );
  });

  it("answers 403 out of the operator's sites or without the permission, and changes nothing", async () => {
    const before = await activitiesOn(1000);
    const out = await admin.call(adminGroupApi.saveGroupActivity, body(1000, physical), tokens.op719);
    expect(out.body.code).toBe(403);
    const [demo1000] = await t.db.select().from(groupActivity).where(eq(groupActivity.siteId, 1000));
    const end = await admin.call(
      adminGroupApi.endGroupActivity,
      { siteId: 1000, activityId: demo1000!.id, reason: '越权' },
      tokens.op719,
    );
    expect(end.body.code).toBe(403);
    expect((await admin.call(adminGroupApi.groupTeams, { siteId: 1000 }, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(adminGroupApi.groupActivities, { siteId: 719 }, tokens.cs10110)).body.code).toBe(
      403,
    );
    expect(await activitiesOn(1000)).toBe(before);
    const [still] = await t.db
      .select()
      .from(groupActivity)
      .where(and(eq(groupActivity.id, demo1000!.id)));
    expect(still!.endAt.getTime()).toBe(demo1000!.endAt.getTime());
  });
});

describe('console: teams', () => {
  it('lists the teams of an activity with their state and members', async () => {
    // The demo activity by name: the ended one the first test made is on 719 too, and a select
    // without an order may answer either (PostgreSQL's heap order moves with updates).
    const [demo] = await t.db
      .select()
      .from(groupActivity)
      .where(and(eq(groupActivity.siteId, 719), eq(groupActivity.name, '两人拼团')));
    const member = await buyer(t, 719, 100_000);
    const api = client(t);
    await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, member.token);
    const opened = await api.post<GroupSubmitResult>(
      groupApi.submit.path,
      { siteId: 719, activityId: demo!.id },
      member.token,
    );
    expect(opened.body.code).toBe(200);
    const teams = await admin.call(
      adminGroupApi.groupTeams,
      { siteId: 719, activityId: demo!.id, status: 0 },
      tokens.op719,
    );
    expect(teams.body.data).toMatchObject({
      total: 1,
      list: [
        {
          teamId: opened.body.data.teamId,
          statusName: '拼团中',
          joined: 1,
          paid: 0,
          members: [
            { memberId: member.id, orderNo: opened.body.data.orderNo, isLeader: true, status: 'reserved' },
          ],
        },
      ],
    });
    const listed = await admin.call(adminGroupApi.groupActivities, { siteId: 719 }, tokens.op719);
    expect(listed.body.data.list.find((a) => a.id === demo!.id)?.teams.forming).toBe(1);
  });
});
