import { existsSync } from 'node:fs';
import path from 'node:path';
import type {
  ClientTips,
  MerchantApplication,
  ServiceChannels,
  ShopPage,
  ShopProducts,
} from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openText } from '../../lib/aes';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { IMAGES, uploadLicenceFile } from './catalog.fixtures';
import { imageTypeOf } from './merchant';

let t: TestApp;
let c: ReturnType<typeof client>;
beforeAll(async () => {
  t = await testApp();
  c = client(t);
});
afterAll(() => t.close());

const api = (p: string) => `/front-mall-api${p}`;
const { png: PNG, jpg: JPEG, webp: WEBP } = IMAGES;
const upload = (file: Buffer, filename = 'licence.png', type = 'image/png') =>
  uploadLicenceFile(t.app, file, { filename, type });

const application = (licenceUrl: string, phone = '13800000001') => ({
  siteId: 719,
  phone,
  contactName: '张三',
  companyName: '杭州好物贸易有限公司',
  shopName: '好物优选',
  creditCode: '91330100MA2AXXXX1Y'.replaceAll('X', '7'),
  licenceUrl,
  mainCategory: '食品酒水',
  intro: '专注地方特产',
});

describe('merchant onboarding', () => {
  it('tells images by their magic bytes', () => {
    expect(imageTypeOf(PNG)).toBe('png');
    expect(imageTypeOf(JPEG)).toBe('jpg');
    expect(imageTypeOf(WEBP)).toBe('webp');
    expect(imageTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });

  it('stores PNG, JPEG and WebP licences under DATA_DIR/uploads', async () => {
    for (const [file, ext] of [
      [PNG, 'png'],
      [JPEG, 'jpg'],
      [WEBP, 'webp'],
    ] as const) {
      const { body } = await upload(file);
      expect(body.code).toBe(200);
      expect(body.data!.url).toMatch(new RegExp(`^/uploads/licence/[0-9a-f-]{36}\\.${ext}$`));
      expect(existsSync(path.join(t.dataDir, body.data!.url))).toBe(true);
    }
  });

  it('refuses forged types, empty files and files over 2 MB with a clear msg', async () => {
    const forged = await upload(Buffer.from('<script>alert(1)</script>'.repeat(4)), 'x.png', 'image/png');
    expect(forged.body).toMatchObject({ code: 400, msg: '仅支持 PNG、JPG、WebP 格式的图片' });
    const html = await upload(Buffer.from('<html><body>hi</body></html>'), 'x.jpg', 'image/jpeg');
    expect(html.body.code).toBe(400);
    const big = await upload(Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.body).toMatchObject({ code: 400, msg: '图片不能超过 2 MB' });
    const none = await t.post(api('/mall/merchant/uploadLicence'), { siteId: 719 });
    expect(none.body.code).toBe(400);
  });

  it('validates, submits once per phone, and answers the status by phone', async () => {
    const { url } = (await upload(PNG)).body.data!;
    const submitted = await t.post<MerchantApplication>(api('/mall/merchant/apply'), application(url));
    expect(submitted.body).toMatchObject({ code: 200, msg: '申请已提交，请等待审核' });
    expect(submitted.body.data).toMatchObject({ status: 0, statusText: '审核中', shopName: '好物优选' });
    const again = await t.post(api('/mall/merchant/apply'), application(url));
    expect(again.body).toMatchObject({ code: 500, msg: '该手机号已有审核中的入驻申请，请耐心等待审核结果' });

    for (const bad of [
      { phone: '2380000000' },
      { creditCode: '123' },
      { licenceUrl: '/etc/passwd' },
      { licenceUrl: '/uploads/licence/00000000-0000-0000-0000-000000000000.png' },
      { shopName: '' },
    ]) {
      const res = await t.post(api('/mall/merchant/apply'), { ...application(url, '13800000002'), ...bad });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(400);
    }

    const status = await t.post<{ list: MerchantApplication[] }>(api('/mall/merchant/applyStatus'), {
      siteId: 719,
      phone: '13800000001',
      ...(await c.captcha(719)),
    });
    expect(status.body.data.list).toHaveLength(1);
    // Another site does not see the application.
    const other = await t.post<{ list: MerchantApplication[] }>(api('/mall/merchant/applyStatus'), {
      siteId: 10110,
      phone: '13800000001',
      ...(await c.captcha(10110)),
    });
    expect(other.body.data.list).toEqual([]);
    expect((await t.post(api('/mall/merchant/applyStatus'), { siteId: 719 })).body).toMatchObject({
      code: 400,
      msg: '请登录或填写申请时的手机号',
    });
  });
});

describe('shop street', () => {
  it('lists the site’s shops with their best sellers, and a shop’s products', async () => {
    const page = (await t.post<ShopPage>(api('/mall/shop/list'), { siteId: 1000 })).body.data;
    expect(page.list.length).toBe(10);
    expect(page.total).toBeGreaterThan(10);
    expect(page.list[0]!.products.length).toBe(4);
    expect(page.list[0]!.productCount).toBeGreaterThanOrEqual(page.list[1]!.productCount);
    const page2 = (await t.post<ShopPage>(api('/mall/shop/list'), { siteId: 1000, pageNum: 2 })).body.data;
    expect(page2.list.length).toBe(page.total - 10);
    const shop = page.list[0]!;
    const products = (
      await t.post<ShopProducts>(api('/mall/shop/products'), { siteId: 1000, shopId: shop.id })
    ).body.data;
    expect(products.shop.shopName).toBe(shop.shopName);
    expect(products.total).toBe(shop.productCount);
    expect(products.list).toHaveLength(10);
    expect((await t.post(api('/mall/shop/products'), { siteId: 1000, shopId: 9999 })).body).toMatchObject({
      code: 500,
      msg: '店铺不存在',
    });
  });
});

describe('mall customer service and client tips', () => {
  it('lists the site’s channels, hotlines as getSiteConfig sends them', async () => {
    const { list } = (await t.post<ServiceChannels>(api('/mall/service/channels'), { siteId: 719 })).body
      .data;
    expect(list.map((c) => c.type)).toEqual(['hotline', 'spareHotline', 'online', 'email']);
    expect(openText(t.secrets.hotlineKey, list[0]!.value)).toBe('400-819-0719');
    expect(list[1]!.value).toBe('95519');
    const site1000 = (await t.post<ServiceChannels>(api('/mall/service/channels'), { siteId: 10110 })).body
      .data.list;
    expect(site1000[0]!.value).toBe('010-62345678');
  });

  it('stores a message and refuses an invalid one', async () => {
    const ok = await t.post<{ messageId: number }>(api('/mall/service/message'), {
      siteId: 10110,
      name: '李四',
      phone: '13900000000',
      topic: '订单问题',
      content: '我的订单什么时候发货？',
    });
    expect(ok.body).toMatchObject({ code: 200, msg: '留言已提交，客服会尽快联系您' });
    expect(ok.body.data.messageId).toBeGreaterThan(0);
    const bad = await t.post(api('/mall/service/message'), {
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
      url: api('/mall/notice/queryClientTips'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'siteId=1000',
    });
    const data = res.json().data as ClientTips;
    expect(data.notice?.title).toBe('系统升级公告');
    expect(new Date(data.notice!.endTime).getTime()).toBeGreaterThan(Date.now());
  });
});
