import {
  ADMIN_BARGAIN_MSG,
  ADMIN_MSG,
  adminBargainApi,
  BARGAIN_STATUS,
  type BargainView,
  bargainApi,
} from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { adminClient, PASSWORDS } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { type PickedSpec, pickSpecs } from '../order/order.fixtures';
import { quickMembers, wholeDay } from './activity.fixtures';
import { bargainActivity, bargainRecord } from './bargain.tables';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let op719: string;
let root: string;
let spec: PickedSpec;

const auditOf = (action: string) => t.db.select().from(auditLog).where(eq(auditLog.action, action));

beforeAll(async () => {
  t = await testApp();
  admin = adminClient(t);
  op719 = await admin.tokenOf('op719', PASSWORDS.op719!);
  root = await admin.tokenOf('admin', PASSWORDS.admin!);
  [spec] = (await pickSpecs(t.db, 719, { virtual: true })) as [PickedSpec];
});
afterAll(() => t.close());

const body = (extra: Record<string, unknown> = {}) => {
  const day = wholeDay();
  return {
    siteId: 719,
    name: '控制台砍价',
    specificationId: spec.specificationId,
    floorPrice: 1,
    helpMax: 2,
    cutMin: 1,
    cutMax: 3,
    helperDailyQuota: 2,
    hours: 12,
    startAt: day.start.getTime(),
    endAt: day.end.getTime() + 86_400_000,
    ...extra,
  };
};

describe('console: bargain activities', () => {
  it('lists the activities of the operator’s sites only; another site answers 403', async () => {
    const mine = await admin.call(adminBargainApi.bargainActivities, {}, op719);
    expect(mine.body.code).toBe(200);
    expect(mine.body.data.list.map((a) => a.siteId)).toEqual([719]);
    const all = await admin.call(adminBargainApi.bargainActivities, {}, root);
    expect(new Set(all.body.data.list.map((a) => a.siteId))).toEqual(new Set([719, 1000]));
    const other = await admin.call(adminBargainApi.bargainActivities, { siteId: 1000 }, op719);
    expect(other.body.code).toBe(403);
    expect(other.body.msg).toBe(ADMIN_MSG.forbiddenSite);
  });

  it('creates and edits with an audit row each; bad terms and other sites are refused, nothing changes', async () => {
    const created = await admin.call(adminBargainApi.saveBargainActivity, body(), op719);
    expect(created.body).toMatchObject({
      code: 200,
      data: { siteId: 719, productId: spec.productId, price: spec.price, status: 0, bargains: 0 },
    });
    const id = created.body.data.id;
    expect(await auditOf('bargain.create')).toEqual([
      expect.objectContaining({ entityId: String(id), siteId: 719 }),
    ]);
    const edited = await admin.call(adminBargainApi.saveBargainActivity, body({ id, helpMax: 5 }), op719);
    expect(edited.body.data.helpMax).toBe(5);
    expect((await auditOf('bargain.update')).at(-1)).toMatchObject({
      before: expect.objectContaining({ helpMax: 2 }),
      after: expect.objectContaining({ helpMax: 5 }),
    });
    const refusals = [
      [body({ floorPrice: spec.price }), ADMIN_BARGAIN_MSG.floorTooHigh],
      [body({ cutMin: 5, cutMax: 2 }), ADMIN_BARGAIN_MSG.cutBounds],
      [body({ endAt: body().startAt }), ADMIN_BARGAIN_MSG.window],
    ] as const;
    for (const [payload, msg] of refusals)
      expect((await admin.call(adminBargainApi.saveBargainActivity, payload, op719)).body.msg).toBe(msg);
    const foreign = await admin.call(adminBargainApi.saveBargainActivity, body({ siteId: 1000 }), op719);
    expect(foreign.body.code).toBe(403);
    const rows = await t.db.select().from(bargainActivity).where(eq(bargainActivity.name, '控制台砍价'));
    expect(rows).toHaveLength(1);
  });

  it('ends an activity: its open bargains fail, members can no longer start', async () => {
    const created = await admin.call(adminBargainApi.saveBargainActivity, body(), op719);
    const id = created.body.data.id;
    const api = client(t);
    const [m] = await quickMembers(t, 719, 1);
    const started = await api.post<BargainView>(
      bargainApi.start.path,
      { siteId: 719, activityId: id },
      m!.token,
    );
    expect(started.body.code).toBe(200);
    const ended = await admin.call(
      adminBargainApi.endBargainActivity,
      { siteId: 719, id, reason: '库存不足' },
      op719,
    );
    expect(ended.body).toMatchObject({ code: 200, data: { enabled: false, status: 1 } });
    const [row] = await t.db.select().from(bargainRecord).where(eq(bargainRecord.id, started.body.data.id));
    expect(row!.status).toBe(BARGAIN_STATUS.failed);
    expect((await auditOf('bargain.end')).at(-1)).toMatchObject({ reason: '库存不足', entityId: String(id) });
    const again = await api.post(bargainApi.start.path, { siteId: 719, activityId: id }, m!.token);
    expect(again.body.code).toBe(500);
    // The bargains list shows it, filtered by activity and status.
    const records = await admin.call(
      adminBargainApi.bargainRecords,
      { siteId: 719, activityId: id, status: BARGAIN_STATUS.failed },
      op719,
    );
    expect(records.body.data).toMatchObject({
      total: 1,
      list: [{ activityId: id, statusName: '砍价失败', memberName: expect.stringContaining('****') }],
    });
    expect((await admin.call(adminBargainApi.endBargainActivity, { siteId: 719, id }, op719)).body.msg).toBe(
      ADMIN_BARGAIN_MSG.endedBefore,
    );
  });
});
