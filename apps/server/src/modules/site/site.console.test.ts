import {
  ADMIN_MSG,
  adminTemplatesApi as api,
  type FootTemplate,
  type HeadTemplate,
  type MenuAd,
  type PcInfo,
  type SiteConfig,
  siteApi,
  TEMPLATE,
  TEMPLATES_MSG,
} from '@sitemall/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp, matrixMismatches } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { createSiteCache } from './site.service';
import { advert, siteTemplate } from './site.tables';

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
const NONE = 2_000_000_000;
const heads = new Map<number, HeadTemplate>();

/** The storefront's view of the site's templates (the same answer every page reads). */
async function storefront(siteId: number) {
  const res = await client(t).post<SiteConfig>(siteApi.getSiteConfig.path, { siteId });
  const modes = res.body.data.mallSite.homePageModes;
  const of = (name: string) => modes.find((m) => m.templateName === name)?.value;
  return {
    head: of(TEMPLATE.head) as HeadTemplate,
    menu: of(TEMPLATE.menu) as MenuAd[],
    foot: of(TEMPLATE.foot) as FootTemplate,
  };
}

const auditsOf = (siteId: number) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.siteId, siteId), inArray(auditLog.entity, ['site_template', 'advert'])))
    .orderBy(asc(auditLog.id));

const templatesRows = (siteId: number) =>
  t.db.select().from(siteTemplate).where(eq(siteTemplate.siteId, siteId));
const advertRows = (siteId: number) => t.db.select().from(advert).where(eq(advert.siteId, siteId));

const FOOT: FootTemplate = {
  list: [
    { src: '/media/demo/feature-genuine-10110.svg', name: '正品保障' },
    { src: 'https://cdn.example.com/icons/fast.png', name: '次日达' },
  ],
  photo: '/media/demo/qr-10110.svg',
  note: '<p>客服热线 400-600-10110 · 工作日 9:00-18:00</p>',
};

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
  for (const siteId of [719, 10110, 1000]) heads.set(siteId, (await storefront(siteId)).head);
});
afterAll(() => t.close());

describe('templates and adverts in the console', () => {
  it('answers each route allowed or 403 as the permission table says; a 403 writes nothing', async () => {
    const mismatches = await matrixMismatches(t, tokens, [
      [api.templates, (siteId) => ({ siteId })],
      // Allowed writes are refused on their own terms: an advert that does not exist.
      [
        api.saveAdvert,
        (siteId) => ({
          siteId,
          id: NONE,
          position: 'menu',
          type: 1,
          title: '矩阵',
          adName: '矩阵测试',
          url: '',
          image: '',
          isEnabled: true,
        }),
      ],
      [api.orderAdverts, (siteId) => ({ siteId, position: 'menu', ids: [NONE] })],
      [api.deleteAdvert, (siteId) => ({ siteId, id: NONE })],
      // The head template as it is: an allowed save changes and records nothing.
      [api.saveTemplates, (siteId) => ({ siteId, head: heads.get(siteId) })],
    ]);
    expect(mismatches).toEqual([]);
  });

  it('shows the templates and every advert of a site in the operator’s scope only', async () => {
    const res = await admin.call(api.templates, { siteId: 10110 }, tokens.admin);
    expect(res.body.code).toBe(200);
    expect(res.body.data.head.note).toBe('搜索福利商品，如 中秋礼盒');
    expect(res.body.data.foot.list).toHaveLength(4);
    expect(res.body.data.site).toMatchObject({ siteName: '云企员工福利商城', hotline: '010-62345678' });
    expect(res.body.data.adverts.filter((a) => a.position === 'menu').map((a) => a.title)).toEqual([
      '中秋福利',
      '健康生活',
      '福利政策',
    ]);
    expect(res.body.data.adverts.some((a) => a.position === 'banner')).toBe(true);
    expect((await admin.call(api.templates, { siteId: 719 }, tokens.op719)).body.code).toBe(200);
    expect((await admin.call(api.templates, { siteId: 10110 }, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(api.templates, { siteId: 10110 }, tokens.cs10110)).body.code).toBe(403);
  });

  it('saves the foot template audited, and every process’s storefront shows it within 2 s', async () => {
    const other = await createSiteCache(t.database, t.secrets.hotlineKey);
    try {
      await other.get(10110);
      expect((await storefront(10110)).foot.note).not.toBe(FOOT.note);
      const before = (await admin.call(api.templates, { siteId: 10110 }, tokens.admin)).body.data.foot;
      const saved = await admin.call(api.saveTemplates, { siteId: 10110, foot: FOOT }, tokens.admin);
      expect(saved.body).toMatchObject({ code: 200, data: { foot: FOOT } });
      expect((await storefront(10110)).foot).toEqual(FOOT);
      const pc = await client(t).post<PcInfo>(siteApi.pcInfo.path, { id: 10110 });
      expect(
        pc.body.data.mallSite.homePageModes.find((m) => m.templateName === TEMPLATE.foot)?.value,
      ).toEqual(FOOT);
      // Another server process on the same database: its cache drops the site on the NOTIFY.
      await expect
        .poll(async () => (await other.get(10110))?.config.mallSite.homePageModes[2]?.value, {
          timeout: 2000,
        })
        .toEqual(FOOT);
      const rows = await auditsOf(10110);
      expect(rows).toEqual([
        expect.objectContaining({
          action: 'site.template',
          entityId: `10110:${TEMPLATE.foot}`,
          before,
          after: FOOT,
        }),
      ]);
      // Saving the same again changes and records nothing.
      await admin.call(api.saveTemplates, { siteId: 10110, foot: FOOT }, tokens.admin);
      expect(await auditsOf(10110)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('refuses bad input with a clear msg and changes nothing', async () => {
    const before = await templatesRows(719);
    const adverts = await advertRows(719);
    const head = (photo: string) => ({ siteId: 719, head: { photo, note: '搜索' } });
    for (const photo of ['javascript:alert(1)', '//evil.example.com/x.png', 'http://x.com/a.png', 'a b']) {
      const res = await admin.call(api.saveTemplates, head(photo), tokens.op719);
      expect(res.body).toMatchObject({ code: 400, msg: TEMPLATES_MSG.badPicture });
    }
    const feature = await admin.call(
      api.saveTemplates,
      { siteId: 719, foot: { ...FOOT, list: [{ src: '/media/x.svg', name: '   ' }] } },
      tokens.op719,
    );
    expect(feature.body).toMatchObject({ code: 400, msg: TEMPLATES_MSG.blankFeature });
    const long = await admin.call(api.saveTemplates, head('/'.padEnd(501, 'x')), tokens.op719);
    expect(long.body.code).toBe(400);
    const ad = {
      siteId: 719,
      position: 'menu',
      type: 2,
      title: '外链',
      adName: '外链',
      image: '',
      isEnabled: true,
    };
    for (const url of ['', 'javascript:alert(1)', 'www.example.com'])
      expect((await admin.call(api.saveAdvert, { ...ad, url }, tokens.op719)).body).toMatchObject({
        code: 400,
        msg: TEMPLATES_MSG.badLink,
      });
    const blank = await admin.call(api.saveAdvert, { ...ad, url: 'https://a.cn', title: '  ' }, tokens.op719);
    expect(blank.body).toMatchObject({ code: 400, msg: TEMPLATES_MSG.blank });
    const picture = await admin.call(
      api.saveAdvert,
      { ...ad, url: 'https://a.cn', image: 'data:image/png;base64,AAAA' },
      tokens.op719,
    );
    expect(picture.body).toMatchObject({ code: 400, msg: TEMPLATES_MSG.badPicture });
    const badType = await admin.call(api.saveAdvert, { ...ad, type: 3, url: 'https://a.cn' }, tokens.op719);
    expect(badType.body.code).toBe(400);
    const ids = adverts.filter((a) => a.position === 'menu').map((a) => a.id);
    const partial = await admin.call(
      api.orderAdverts,
      { siteId: 719, position: 'menu', ids: ids.slice(1) },
      tokens.op719,
    );
    expect(partial.body).toMatchObject({ code: 500, msg: TEMPLATES_MSG.orderChanged });
    const twice = [ids[0] as number, ...ids.slice(0, -1)];
    const dup = await admin.call(
      api.orderAdverts,
      { siteId: 719, position: 'menu', ids: twice },
      tokens.op719,
    );
    expect(dup.body).toMatchObject({ code: 500, msg: TEMPLATES_MSG.orderChanged });
    expect(await templatesRows(719)).toEqual(before);
    expect(await advertRows(719)).toEqual(adverts);
    expect(await auditsOf(719)).toEqual([]);
  });

  it('refuses a site outside the operator’s set, and another site’s advert, changing nothing', async () => {
    const adverts = await advertRows(10110);
    const foreign = await admin.call(
      api.saveTemplates,
      { siteId: 10110, head: { photo: '', note: '越权' } },
      tokens.op719,
    );
    expect(foreign.body).toMatchObject({ code: 403, msg: ADMIN_MSG.forbiddenSite });
    const menu10110 = adverts.find((a) => a.position === 'menu') as (typeof adverts)[number];
    const edit = {
      id: menu10110.id,
      position: 'menu',
      type: 1,
      title: '越权',
      adName: '越权',
      url: '',
      image: '',
      isEnabled: false,
    };
    expect((await admin.call(api.saveAdvert, { siteId: 10110, ...edit }, tokens.op719)).body.code).toBe(403);
    // Named under the operator's own site, another site's advert is not found.
    const crossed = await admin.call(api.saveAdvert, { siteId: 719, ...edit }, tokens.op719);
    expect(crossed.body).toMatchObject({ code: 500, msg: ADMIN_MSG.notFound });
    const order = await admin.call(
      api.orderAdverts,
      { siteId: 10110, position: 'menu', ids: adverts.filter((a) => a.position === 'menu').map((a) => a.id) },
      tokens.finance,
    );
    expect(order.body.code).toBe(403);
    expect(await advertRows(10110)).toEqual(adverts);
    expect((await storefront(10110)).head.note).toBe('搜索福利商品，如 中秋礼盒');
  });

  it('adds, edits, switches off and orders menu adverts; the storefront menu follows', async () => {
    const added = await admin.call(
      api.saveAdvert,
      {
        siteId: 1000,
        position: 'menu',
        type: 2,
        title: '积分攻略',
        adName: '积分攻略大全',
        url: 'https://www.example.com/lexiang/guide',
        image: '/media/demo/banner-1000.svg',
        isEnabled: true,
      },
      tokens.admin,
    );
    expect(added.body.code).toBe(200);
    const made = added.body.data.adverts.find((a) => a.title === '积分攻略');
    expect(made).toMatchObject({ position: 'menu', sort: 2, isEnabled: true });
    const id = made?.id as number;
    expect((await storefront(1000)).menu.map((m) => m.title)).toEqual(['新品上架', '会员权益', '积分攻略']);

    const menuIds = added.body.data.adverts.filter((a) => a.position === 'menu').map((a) => a.id);
    const reordered = [id, ...menuIds.filter((x) => x !== id)];
    const ordered = await admin.call(
      api.orderAdverts,
      { siteId: 1000, position: 'menu', ids: reordered },
      tokens.admin,
    );
    expect(ordered.body.code).toBe(200);
    expect((await storefront(1000)).menu.map((m) => m.title)).toEqual(['积分攻略', '新品上架', '会员权益']);

    const first = menuIds[0] as number;
    const off = await admin.call(
      api.saveAdvert,
      {
        siteId: 1000,
        id: first,
        position: 'menu',
        type: 1,
        title: '新品首发',
        adName: '新品上架',
        url: 'https://ignored.example.com',
        image: '',
        isEnabled: false,
      },
      tokens.admin,
    );
    expect(off.body.code).toBe(200);
    expect(off.body.data.adverts.find((a) => a.id === first)).toMatchObject({
      title: '新品首发',
      url: '',
      isEnabled: false,
    });
    expect((await storefront(1000)).menu.map((m) => m.title)).toEqual(['积分攻略', '会员权益']);

    const rows = await auditsOf(1000);
    expect(rows.map((r) => r.action)).toEqual(['advert.create', 'advert.order', 'advert.save']);
    expect(rows[2]).toMatchObject({
      entityId: String(first),
      before: { title: '新品上架', isEnabled: true },
      after: { title: '新品首发', isEnabled: false },
    });
    expect(rows[1]).toMatchObject({ before: { ids: menuIds }, after: { ids: reordered } });
  });

  it('deletes an advert audited with what it was; the storefront no longer shows it', async () => {
    const before = await advertRows(10110);
    const gone = before.find((a) => a.position === 'menu' && a.title === '健康生活');
    const id = gone?.id as number;
    expect((await storefront(10110)).menu.map((m) => m.title)).toContain('健康生活');

    // Another site's operator, and another site's id under the operator's own site: nothing goes.
    expect((await admin.call(api.deleteAdvert, { siteId: 10110, id }, tokens.op719)).body.code).toBe(403);
    expect((await admin.call(api.deleteAdvert, { siteId: 719, id }, tokens.op719)).body).toMatchObject({
      msg: ADMIN_MSG.notFound,
    });
    expect(await advertRows(10110)).toHaveLength(before.length);

    const res = await admin.call(api.deleteAdvert, { siteId: 10110, id, reason: '活动结束' }, tokens.admin);
    expect(res.body.code).toBe(200);
    expect(res.body.data.adverts.some((a) => a.id === id)).toBe(false);
    expect((await storefront(10110)).menu.map((m) => m.title)).toEqual(['中秋福利', '福利政策']);
    expect(await advertRows(10110)).toHaveLength(before.length - 1);
    const [audit] = (await auditsOf(10110)).filter((r) => r.action === 'advert.delete');
    expect(audit).toMatchObject({
      entityId: String(id),
      before: { id, title: '健康生活', position: 'menu' },
      after: null,
      reason: '活动结束',
    });

    // Deleted already: not found, and no second audit row.
    const again = await admin.call(api.deleteAdvert, { siteId: 10110, id }, tokens.admin);
    expect(again.body.msg).toBe(ADMIN_MSG.notFound);
    expect((await auditsOf(10110)).filter((r) => r.action === 'advert.delete')).toHaveLength(1);
  });
});
