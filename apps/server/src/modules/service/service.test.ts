import { type ClientTips, catalogApi, type ServiceChannels } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openText } from '../../lib/aes';
import { type TestApp, testApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const api = (p: string) => `/front-mall-api${p}`;

describe('mall customer service and client tips', () => {
  it('lists the site’s channels, hotlines as getSiteConfig sends them', async () => {
    const { list } = (await t.post<ServiceChannels>(api(catalogApi.serviceChannels.path), { siteId: 719 }))
      .body.data;
    expect(list.map((c) => c.type)).toEqual(['hotline', 'spareHotline', 'online', 'email']);
    expect(openText(t.secrets.hotlineKey, list[0]!.value)).toBe('400-819-0719');
    expect(list[1]!.value).toBe('95519');
    const site1000 = (await t.post<ServiceChannels>(api(catalogApi.serviceChannels.path), { siteId: 10110 }))
      .body.data.list;
    expect(site1000[0]!.value).toBe('010-62345678');
  });

  it('stores a message and refuses an invalid one', async () => {
    const ok = await t.post<{ messageId: number }>(api(catalogApi.serviceMessage.path), {
      siteId: 10110,
      name: '李四',
      phone: '13900000000',
      topic: '订单问题',
      content: '我的订单什么时候发货？',
    });
    expect(ok.body).toMatchObject({ code: 200, msg: '留言已提交，客服会尽快联系您' });
    expect(ok.body.data.messageId).toBeGreaterThan(0);
    const bad = await t.post(api(catalogApi.serviceMessage.path), {
      siteId: 10110,
      name: '李四',
      phone: '1',
      topic: 'x',
      content: '',
    });
    expect(bad.body.code).toBe(400);
  });

  it('answers the current PC notice from form data', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(catalogApi.clientTips.path),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'siteId=1000',
    });
    const data = res.json().data as ClientTips;
    expect(data.notice?.title).toBe('系统升级公告');
    expect(new Date(data.notice!.endTime).getTime()).toBeGreaterThan(Date.now());
  });
});
