import { ADMIN_MSG, adminApi, catalogApi, siteApi } from '@sitemall/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { advertProduct, category, sitePrice, siteProduct } from '../catalog/catalog.tables';
import { client } from '../identity/identity.fixtures';
import { advert, mallSite } from '../site/site.tables';
import { type adminClient, consoleApp } from './admin.fixtures';
import { auditLog } from './admin.tables';

let t: TestApp;
let api: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;

beforeAll(async () => {
  ({ t, admin: api, tokens } = await consoleApp());
});
afterAll(() => t.close());

const countOf = async (table: typeof siteProduct | typeof sitePrice | typeof category, siteId: number) =>
  (await t.db.select({ n: count() }).from(table).where(eq(table.siteId, siteId)))[0]?.n ?? 0;
const copy = (body: Record<string, unknown>, token = tokens.admin) =>
  api.call(adminApi.copySite, { fromSiteId: 719, reason: '新客户开站', ...body }, token);

describe('a new site from a copy of another', () => {
  it('copies configuration, categories, assortment, prices and specials; the storefront serves it', async () => {
    const made = await copy({ newSiteId: 7190, siteName: '汇通银行积分商城（分行）' });
    expect(made.body.msg).toBe('站点已创建');
    const [source] = await t.db.select().from(mallSite).where(eq(mallSite.id, 719));
    expect(made.body.data).toMatchObject({
      id: 7190,
      siteName: '汇通银行积分商城（分行）',
      paywayConf: source?.paywayConf,
      loginWay: source?.loginWay,
    });
    for (const table of [siteProduct, sitePrice, category])
      expect(await countOf(table, 7190)).toBe(await countOf(table, 719));
    expect(await countOf(siteProduct, 7190)).toBeGreaterThan(0);
    const specials = async (siteId: number) =>
      (
        await t.db
          .select({ n: count() })
          .from(advertProduct)
          .innerJoin(advert, eq(advert.id, advertProduct.advertId))
          .where(eq(advert.siteId, siteId))
      )[0]?.n;
    expect(await specials(7190)).toBe(await specials(719));

    const config = await client(t).post<{ mallSite: { siteName: string } }>(siteApi.getSiteConfig.path, {
      siteId: 7190,
    });
    expect(config.body.data.mallSite.siteName).toBe('汇通银行积分商城（分行）');
    const labels = await client(t).post<{ mallCateLables: unknown[] }>(catalogApi.lableList.path, {
      siteId: 7190,
    });
    const sourceLabels = await client(t).post<{ mallCateLables: unknown[] }>(catalogApi.lableList.path, {
      siteId: 719,
    });
    expect(labels.body.data.mallCateLables.length).toBe(sourceLabels.body.data.mallCateLables.length);

    const [row] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'site.copy'));
    expect(row).toMatchObject({ siteId: 7190, entityId: '7190', reason: '新客户开站' });
    expect(row?.after).toMatchObject({ fromSiteId: 719, products: await countOf(siteProduct, 7190) });
  });

  it('refuses a taken id (twice in parallel: one site), a site operator, no reason, an unknown source', async () => {
    const both = await Promise.all([
      copy({ newSiteId: 7191, siteName: '甲' }),
      copy({ newSiteId: 7191, siteName: '乙' }),
    ]);
    expect(both.map((r) => r.body.msg).sort()).toEqual(['站点已创建', ADMIN_MSG.siteIdTaken].sort());
    const before = await countOf(siteProduct, 10110);
    expect((await copy({ newSiteId: 10110, siteName: '覆盖' })).body.msg).toBe(ADMIN_MSG.siteIdTaken);
    const [kept] = await t.db.select().from(mallSite).where(eq(mallSite.id, 10110));
    expect(kept?.siteName).not.toBe('覆盖');
    expect(await countOf(siteProduct, 10110)).toBe(before);

    expect((await copy({ newSiteId: 7192, siteName: '越权' }, tokens.op719)).body.code).toBe(403);
    expect((await copy({ newSiteId: 7192, siteName: '无因', reason: '' })).body.code).toBe(400);
    expect((await copy({ fromSiteId: 424242, newSiteId: 7192, siteName: '无源' })).body.msg).toBe(
      '站点不存在',
    );
    expect((await copy({ newSiteId: 1e12, siteName: '超大' })).body.code).toBe(400);
    const [none] = await t.db.select().from(mallSite).where(eq(mallSite.siteName, '越权'));
    expect(none).toBeUndefined();
  });
});
