import { existsSync } from 'node:fs';
import path from 'node:path';
import { catalogApi, type MerchantApplication } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { IMAGES } from '../media/media.fixtures';
import { imageTypeOf } from '../media/uploads';
import { uploadLicenceFile } from './merchant.fixtures';

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
    const none = await t.post(api(catalogApi.licenceUpload.path), { siteId: 719 });
    expect(none.body.code).toBe(400);
  });

  it('validates, submits once per phone, and answers the status by phone', async () => {
    const { url } = (await upload(PNG)).body.data!;
    const submitted = await t.post<MerchantApplication>(api(catalogApi.merchantApply.path), application(url));
    expect(submitted.body).toMatchObject({ code: 200, msg: '申请已提交，请等待审核' });
    expect(submitted.body.data).toMatchObject({ status: 0, statusText: '审核中', shopName: '好物优选' });
    const again = await t.post(api(catalogApi.merchantApply.path), application(url));
    expect(again.body).toMatchObject({ code: 500, msg: '该手机号已有审核中的入驻申请，请耐心等待审核结果' });

    for (const bad of [
      { phone: '2380000000' },
      { creditCode: '123' },
      { licenceUrl: '/etc/passwd' },
      { licenceUrl: '/uploads/licence/00000000-0000-0000-0000-000000000000.png' },
      { shopName: '' },
    ]) {
      const res = await t.post(api(catalogApi.merchantApply.path), {
        ...application(url, '13800000002'),
        ...bad,
      });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(400);
    }

    const status = await t.post<{ list: MerchantApplication[] }>(api(catalogApi.merchantStatus.path), {
      siteId: 719,
      phone: '13800000001',
      ...(await c.captcha(719)),
    });
    expect(status.body.data.list).toHaveLength(1);
    // Another site does not see the application.
    const other = await t.post<{ list: MerchantApplication[] }>(api(catalogApi.merchantStatus.path), {
      siteId: 10110,
      phone: '13800000001',
      ...(await c.captcha(10110)),
    });
    expect(other.body.data.list).toEqual([]);
    expect((await t.post(api(catalogApi.merchantStatus.path), { siteId: 719 })).body).toMatchObject({
      code: 400,
      msg: '请登录或填写申请时的手机号',
    });
  });
});
