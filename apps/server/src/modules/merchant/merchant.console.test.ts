import {
  ADMIN_MSG,
  type AdminMerchantApplication,
  adminMerchantApi as api,
  catalogApi,
  MERCHANT_CONSOLE_MSG,
  type MerchantApplication,
  shopUrl,
} from '@sitemall/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, matrixMismatches } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { IMAGES } from '../media/media.fixtures';
import { uploadLicenceFile } from './merchant.fixtures';
import { merchantApplication } from './merchant.tables';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
const NONE = 2_000_000_000;
let phoneSeq = 13900000100;

/** A shopper's application on the site, made through the storefront's endpoints. */
async function apply(siteId: number, over: Record<string, unknown> = {}) {
  const { url } = (await uploadLicenceFile(t.app, IMAGES.png, { siteId: String(siteId) })).body.data!;
  const phone = String(phoneSeq++);
  const res = await t.post<MerchantApplication>(shopUrl(catalogApi.merchantApply), {
    siteId,
    phone,
    contactName: '李四',
    companyName: '南京好物贸易有限公司',
    shopName: '好物小铺',
    creditCode: '91320100MA1XXXXX7Y'.replaceAll('X', '8'),
    licenceUrl: url,
    mainCategory: '家居日用',
    ...over,
  });
  expect(res.body.code).toBe(200);
  return { applyId: res.body.data.applyId, phone };
}

const audits = (applyId: number) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'merchant_application'), eq(auditLog.entityId, String(applyId))));

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
});
afterAll(() => t.close());

describe('merchant applications in the console', () => {
  it('answers each route allowed or 403 as the permission table says; a 403 writes nothing', async () => {
    const mismatches = await matrixMismatches(t, tokens, [
      [api.applications, (siteId) => ({ siteId })],
      [api.application, (siteId) => ({ siteId, applyId: NONE })],
      [api.licence, (siteId) => ({ siteId, applyId: NONE })],
      [api.decide, (siteId) => ({ siteId, applyId: NONE, status: 2, reason: '矩阵测试' })],
    ]);
    expect(mismatches).toEqual([]);
  });

  it('lists the operator’s sites only, by status and keyword, with the licence picture', async () => {
    const mine = await apply(719, { shopName: '汇通<b>严选</b>' });
    const foreign = await apply(10110, { shopName: '福利严选' });
    const list = await admin.call(api.applications, { keyword: '严选' }, tokens.op719);
    expect(list.body.code).toBe(200);
    expect(list.body.data.list.map((a) => a.applyId)).toEqual([mine.applyId]);
    expect(list.body.data.list[0]).toMatchObject({
      shopName: '汇通<b>严选</b>',
      status: 0,
      hasLicence: true,
    });
    const all = await admin.call(api.applications, { keyword: '严选', status: 0 }, tokens.admin);
    expect(all.body.data.list.map((a) => a.applyId).sort()).toEqual([mine.applyId, foreign.applyId].sort());
    const approved = await admin.call(api.applications, { keyword: '严选', status: 1 }, tokens.admin);
    expect(approved.body.data.total).toBe(0);
    // A wildcard typed is a character, not "anything".
    const percent = await admin.call(api.applications, { siteId: 719, keyword: '%' }, tokens.op719);
    expect(percent.body.data.total).toBe(0);

    expect((await admin.call(api.applications, { siteId: 10110 }, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(api.applications, {}, tokens.cs10110)).body.code).toBe(403);
    expect((await admin.call(api.applications, { status: 7 }, tokens.admin)).body.code).toBe(400);

    const detail = await admin.call(api.application, { siteId: 719, applyId: mine.applyId }, tokens.op719);
    expect(detail.body.data).toMatchObject({ phone: mine.phone, companyName: '南京好物贸易有限公司' });
    // Another site's application named under the operator's own site: not found, never its row.
    const crossed = await admin.call(
      api.application,
      { siteId: 719, applyId: foreign.applyId },
      tokens.op719,
    );
    expect(crossed.body).toMatchObject({ code: 500, msg: ADMIN_MSG.notFound });

    const picture = await t.app.inject({
      method: 'GET',
      url: `/admin-api${api.licence.path}`,
      query: { siteId: '719', applyId: String(mine.applyId) },
      headers: { token: tokens.op719 as string },
    });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.rawPayload.equals(IMAGES.png)).toBe(true);
    const foreignPicture = await admin.call(
      api.licence,
      { siteId: 10110, applyId: foreign.applyId },
      tokens.op719,
    );
    expect(foreignPicture.body.code).toBe(403);
  });

  it('needs a reason, decides once (in parallel too), audits it, and the shopper sees the decision', async () => {
    const { applyId, phone } = await apply(719);
    for (const reason of ['', '   ', 'x'.repeat(201)]) {
      const res = await admin.call(api.decide, { siteId: 719, applyId, status: 2, reason }, tokens.op719);
      expect(res.body.code).toBe(400);
    }
    const noReason = await admin.call(
      api.decide,
      { siteId: 719, applyId, status: 2, reason: ' ' },
      tokens.op719,
    );
    expect(noReason.body.msg).toBe(ADMIN_MSG.reasonRequired);
    const foreignSite = await admin.call(
      api.decide,
      { siteId: 10110, applyId, status: 1, reason: '越权' },
      tokens.op719,
    );
    expect(foreignSite.body.code).toBe(403);
    expect(await audits(applyId)).toEqual([]);

    const [a, b] = await Promise.all([
      admin.call(api.decide, { siteId: 719, applyId, status: 2, reason: '营业执照不清晰' }, tokens.op719),
      admin.call(api.decide, { siteId: 719, applyId, status: 1, reason: '资料齐全' }, tokens.admin),
    ]);
    const answers = [a.body, b.body];
    expect(answers.filter((x) => x.code === 200)).toHaveLength(1);
    expect(answers.filter((x) => x.code !== 200)).toEqual([
      expect.objectContaining({ code: 500, msg: MERCHANT_CONSOLE_MSG.state }),
    ]);
    const decided = answers.find((x) => x.code === 200)?.data as AdminMerchantApplication;
    const rows = await audits(applyId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      siteId: 719,
      action: decided.status === 2 ? 'merchant.reject' : 'merchant.approve',
      before: { status: 0, rejectReason: '' },
      after: { status: decided.status },
    });

    const again = await admin.call(
      api.decide,
      { siteId: 719, applyId, status: 1, reason: '再审' },
      tokens.admin,
    );
    expect(again.body).toMatchObject({ code: 500, msg: MERCHANT_CONSOLE_MSG.state });
    expect(await audits(applyId)).toHaveLength(1);

    const status = await t.post<{ list: MerchantApplication[] }>(shopUrl(catalogApi.merchantStatus), {
      siteId: 719,
      phone,
      ...(await client(t).captcha(719)),
    });
    expect(status.body.data.list[0]).toMatchObject(
      decided.status === 2
        ? { status: 2, statusText: '审核未通过', rejectReason: '营业执照不清晰' }
        : { status: 1, statusText: '审核通过', rejectReason: '' },
    );
  });

  it('keeps the status within the table at the database too', async () => {
    const { applyId } = await apply(719);
    await expect(
      t.db.update(merchantApplication).set({ status: 9 }).where(eq(merchantApplication.id, applyId)),
    ).rejects.toThrow();
  });
});
