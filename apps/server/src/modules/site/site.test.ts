import { Value } from '@sinclair/typebox/value';
import {
  GetSiteConfigReply,
  isPlainHotline,
  PcInfoReply,
  type SiteConfig,
  shopUrl,
  siteApi,
  TEMPLATE,
} from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITES } from '../../db/demo/sites';
import { notifiedSiteCache } from '../../db/site-cache';
import { openText } from '../../lib/aes';
import { type TestApp, testApp } from '../../test/harness';
import { createSiteCache, updateSite } from './site.service';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const getSiteConfig = (siteId: unknown) => t.post<SiteConfig>(shopUrl(siteApi.getSiteConfig), { siteId });

describe('getSiteConfig', () => {
  it.each(
    DEMO_SITES.map((s) => [s.id, s] as const),
  )('answers site %i with its own configuration', async (id, demo) => {
    const { status, body } = await getSiteConfig(id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, success: true });
    const data = body.data;
    expect(Object.keys(data).sort()).toEqual(['advancedConfig', 'code', 'mallSite', 'mallSiteDistrict']);
    expect(data.code).toBe(200);
    expect(data.mallSite).toMatchObject({
      id,
      siteName: demo.siteName,
      loginWay: demo.loginWay,
      paywayConf: demo.paywayConf,
      cashUnit: demo.cashUnit,
      configJson: demo.configJson,
      customServicePcSwitch: demo.customServicePcSwitch,
      isUsable: 1,
      loginOrder: demo.loginOrder,
      dingtalkAuthSwitch: demo.dingtalkAuthSwitch,
      supplyConfig: demo.supplyConfig,
    });
    expect(data.advancedConfig).toEqual(demo.advancedConfig);
    expect(data.mallSiteDistrict).toEqual(demo.districts);
    expect(data.mallSite.homePageModes.map((m) => m.templateName)).toEqual([
      TEMPLATE.head,
      TEMPLATE.menu,
      TEMPLATE.foot,
    ]);
    // The answer is serialised once and cached, so it is checked against its schema here.
    expect(Value.Check(GetSiteConfigReply, body)).toBe(true);
    const pcInfo = await t.post(shopUrl(siteApi.pcInfo), { id });
    expect(Value.Check(PcInfoReply, pcInfo.body)).toBe(true);
  });

  it('answers code 500 with a clear msg for a site that does not exist', async () => {
    const { status, body } = await getSiteConfig(4242);
    expect(status).toBe(200);
    expect(body).toEqual({ code: 500, msg: '站点不存在', success: false, data: null });
  });

  it('refuses a site id that is not a positive integer', async () => {
    for (const bad of ['abc', '7.5', 0, -1, '']) {
      const { body } = await getSiteConfig(bad);
      expect(body.code).toBe(400);
      expect(body.success).toBe(false);
    }
  });

  it('sends plain and landline hotlines as they are and encrypts any other (section 3)', async () => {
    const byId = Object.fromEntries(DEMO_SITES.map((s) => [s.id, s]));
    for (const id of [719, 10110, 1000]) {
      const { mallSite } = (await getSiteConfig(id)).body.data;
      for (const field of ['hotline', 'spareHotline'] as const) {
        const stored = byId[id]?.[field] ?? '';
        if (stored === '' || isPlainHotline(stored)) expect(mallSite[field]).toBe(stored);
        else {
          expect(mallSite[field]).not.toContain(stored);
          expect(openText(t.secrets.hotlineKey, mallSite[field])).toBe(stored);
        }
      }
    }
    // The demo covers all three cases.
    expect(isPlainHotline('400-819-0719')).toBe(false);
    expect(isPlainHotline('010-62345678')).toBe(true);
    expect(isPlainHotline('4008001000')).toBe(true);
  });

  it('shows each site only its own menu adverts, of both types', async () => {
    for (const demo of DEMO_SITES) {
      const modes = (await getSiteConfig(demo.id)).body.data.mallSite.homePageModes;
      const ads = modes.find((m) => m.templateName === TEMPLATE.menu)?.value as {
        adName: string;
        type: number;
      }[];
      expect(ads.map((a) => a.adName)).toEqual(demo.menuAdverts.map((a) => a.adName));
      expect(new Set(ads.map((a) => a.type))).toEqual(new Set([1, 2]));
    }
  });

  it('carries the behaviours of sites 719 and 10110 as named switches', async () => {
    const c719 = (await getSiteConfig(719)).body.data.mallSite;
    const c10110 = (await getSiteConfig(10110)).body.data.mallSite;
    const c1000 = (await getSiteConfig(1000)).body.data.mallSite;
    expect(c719.configJson).toMatchObject({
      showRegister: 'Y',
      guestCart: 'Y',
      afterSalesMenu: 'Y',
      serviceInfo: 'Y',
      serviceHours: '8:00-18:00',
    });
    expect(c10110.configJson.customServiceEntry).toBe('Y');
    expect(c1000.configJson.showRegister).toBeUndefined();
    expect(c1000.configJson.hideServicePhone).toBe('Y');
  });
});

describe('pcInfo', () => {
  it('answers the home page templates of the site', async () => {
    const { body } = await t.post<{
      code: number;
      mallSite: { homePageModes: { templateName: string; value: unknown }[] };
    }>(shopUrl(siteApi.pcInfo), { id: 10110 });
    expect(body.code).toBe(200);
    expect(body.data.code).toBe(200);
    const head = body.data.mallSite.homePageModes.find((m) => m.templateName === TEMPLATE.head);
    expect(head?.value).toEqual({ photo: '/media/demo/banner-10110.svg', note: '搜索福利商品，如 中秋礼盒' });
    const foot = body.data.mallSite.homePageModes.find((m) => m.templateName === TEMPLATE.foot)?.value as {
      list: unknown[];
      photo: string;
      note: string;
    };
    expect(foot.list).toHaveLength(4);
    expect(foot.photo).toBe('/media/demo/qr-10110.svg');
    expect(foot.note).toContain('<p>');
  });

  it('answers code 500 for an unknown site and 400 without an id', async () => {
    expect((await t.post(shopUrl(siteApi.pcInfo), { id: 99 })).body.code).toBe(500);
    expect((await t.post(shopUrl(siteApi.pcInfo), {})).body).toMatchObject({
      code: 400,
      msg: '缺少参数：id',
    });
  });
});

describe('site cache', () => {
  it('serves a change made by another process once it is announced', async () => {
    expect((await t.sites.get(1000))?.config.mallSite.siteName).toBe('乐享积分商城');
    // Another server process on the same database: its own cache, its own listener.
    const other = await createSiteCache(t.database, t.secrets.hotlineKey);
    try {
      expect((await other.get(1000))?.config.mallSite.siteName).toBe('乐享积分商城');
      await updateSite(t.db, 1000, { siteName: '乐享积分商城（新）' });
      await expect
        .poll(async () => (await t.sites.get(1000))?.config.mallSite.siteName)
        .toBe('乐享积分商城（新）');
      await expect
        .poll(async () => (await other.get(1000))?.config.mallSite.siteName)
        .toBe('乐享积分商城（新）');
    } finally {
      await other.close();
    }
  });
});

describe('site cache: what a request reads without waiting', () => {
  /** A cache over loads the test settles itself, on a channel of its own. */
  async function cacheOfLoads(keep?: (value: string | undefined) => boolean) {
    const loads: { siteId: number; settle: (value: string | undefined) => void }[] = [];
    const cache = await notifiedSiteCache<string | undefined>(
      t.database,
      'site_cache_test',
      (siteId) => new Promise((settle) => loads.push({ siteId, settle })),
      keep,
    );
    return { cache, loads };
  }

  it('peeks a site only once its load has come, and not after it is dropped', async () => {
    const { cache, loads } = await cacheOfLoads();
    try {
      expect(cache.peek(7)).toBeUndefined();
      const first = cache.get(7);
      expect(cache.peek(7)).toBeUndefined(); // still loading: the caller waits for `get`
      loads[0]!.settle('seven');
      expect(await first).toBe('seven');
      expect(cache.peek(7)).toEqual({ value: 'seven' });
      expect(cache.get(7)).toBe(first); // no second load
      cache.invalidate(7);
      expect(cache.peek(7)).toBeUndefined();
    } finally {
      await cache.close();
    }
  });

  it('keeps no unknown site, and a refused load never drops the newer load that replaced it', async () => {
    const { cache, loads } = await cacheOfLoads((value) => value !== undefined);
    try {
      const stale = cache.get(8);
      cache.invalidate(8); // a NOTIFY while the first load is on its way
      const fresh = cache.get(8);
      loads[1]!.settle('eight');
      await fresh;
      loads[0]!.settle(undefined); // the old load finds nothing: it leaves, the newer one stays
      await stale;
      await Promise.resolve();
      expect(cache.peek(8)).toEqual({ value: 'eight' });
      const unknown = cache.get(9);
      loads[2]!.settle(undefined);
      await unknown;
      await Promise.resolve();
      expect(cache.peek(9)).toBeUndefined();
      cache.get(9);
      expect(loads).toHaveLength(4); // asked again, not remembered
    } finally {
      await cache.close();
    }
  });
});

describe('demo images', () => {
  it('draws banners, logos, feature icons and a real QR code per site', async () => {
    for (const name of ['banner-719.svg', 'logo-10110.svg', 'qr-1000.svg', 'feature-genuine-719.svg']) {
      const res = await t.app.inject({ method: 'GET', url: `/media/demo/${name}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(res.body).toMatch(/^<svg/);
    }
    expect((await t.app.inject({ method: 'GET', url: '/media/demo/banner-4242.svg' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/media/demo/feature-nope-719.svg' })).statusCode).toBe(
      404,
    );
  });
});
