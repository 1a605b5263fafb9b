import {
  ADMIN_MSG,
  adminCatalogueApi as api,
  CATALOGUE_MSG,
  catalogApi,
  LICENCE_MAX_BYTES,
  MAX_PRODUCT_PICTURES,
  type ProductDetail,
  type ProductPictures,
} from '@sitemall/contract';
import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type adminClient, consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { client } from '../identity/identity.fixtures';
import { IMAGES } from '../media/media.fixtures';
import { category, product, siteProduct } from './catalog.tables';
import { postForm } from './catalogue.fixtures';

/**
 * Product pictures on the console (real app, real database): uploaded as multipart and told by
 * their bytes, ordered (the first is the main picture), removed, each write audited, the
 * storefront detail showing them; only for a product the operator's sites alone sell.
 */

let t: TestApp;
let admin: ReturnType<typeof adminClient>;
let tokens: Record<string, string>;
/** A product op719 created: sold on 719 only. */
let own: number;
/** A demo product sold on 719 and 10110. */
let shared: number;

const png = { data: IMAGES.png, name: 'a.png', type: 'image/png' };
const jpg = { data: IMAGES.jpg, name: 'b.jpg', type: 'image/jpeg' };
const upload = (productId: number, file: typeof png | undefined, token = tokens.op719, siteId = 719) =>
  postForm(t, api.uploadPicture, { siteId: String(siteId), productId: String(productId) }, file, token);
const imagesOf = async (id: number) =>
  (await t.db.select({ images: product.images }).from(product).where(eq(product.id, id)))[0]?.images;
const pictureAudits = async () =>
  (await t.db.select({ n: count() }).from(auditLog).where(like(auditLog.action, 'catalogue.picture.%')))[0]
    ?.n ?? 0;

beforeAll(async () => {
  ({ t, admin, tokens } = await consoleApp());
  const [cat] = await t.db
    .select({ id: category.id })
    .from(category)
    .where(eq(category.siteId, 719))
    .limit(1);
  const created = await admin.call(
    api.create,
    {
      siteId: 719,
      name: '图片测试 水杯',
      shopId: 1,
      source: 2,
      categoryId: cat?.id,
      specs: [{ specificationValue: '白色', stock: 5, price: 1_000 }],
    },
    tokens.op719,
  );
  expect(created.body.code).toBe(200);
  own = created.body.data.productId;
  const on719 = await t.db
    .select({ productId: siteProduct.productId })
    .from(siteProduct)
    .where(eq(siteProduct.siteId, 719));
  const on10110 = new Set(
    (
      await t.db
        .select({ productId: siteProduct.productId })
        .from(siteProduct)
        .where(eq(siteProduct.siteId, 10110))
    ).map((r) => r.productId),
  );
  shared = on719.map((r) => r.productId).find((id) => on10110.has(id)) as number;
  expect(shared).toBeDefined();
});
afterAll(() => t.close());

describe('product pictures', () => {
  it('uploads pictures told by their bytes, served publicly, shown by the storefront detail', async () => {
    expect((await admin.call(api.pictures, { siteId: 719, productId: own }, tokens.op719)).body.data).toEqual(
      {
        productId: own,
        images: [],
        sites: [719],
      },
    );
    const first = await upload(own, png);
    expect(first).toMatchObject({ code: 200, msg: '图片已上传' });
    const second = await upload(own, jpg);
    const images = (second.data as ProductPictures).images;
    expect(images).toHaveLength(2);
    expect(images[0]).toMatch(/^\/media\/uploads\/product\/[0-9a-f-]{36}\.png$/);
    expect(images[1]).toMatch(/\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url: images[0] as string });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(IMAGES.png)).toBe(true);
    for (const url of ['/media/uploads/product/..%2F..%2Fetc%2Fpasswd', '/media/uploads/product/x.svg'])
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const detail = await client(t).post<ProductDetail>(catalogApi.productDetail.path, {
      siteId: 719,
      productId: own,
    });
    expect(detail.body.data.images).toEqual(images);
    expect(
      await t.db
        .select({ action: auditLog.action, entityId: auditLog.entityId, siteId: auditLog.siteId })
        .from(auditLog)
        .where(eq(auditLog.action, 'catalogue.picture.upload')),
    ).toEqual([
      { action: 'catalogue.picture.upload', entityId: String(own), siteId: 719 },
      { action: 'catalogue.picture.upload', entityId: String(own), siteId: 719 },
    ]);
  });

  it('sets the main picture by order and removes one; a stale list changes nothing', async () => {
    const images = (await imagesOf(own)) as string[];
    const reversed = [...images].reverse();
    const arranged = await admin.call(
      api.arrangePictures,
      { siteId: 719, productId: own, images: reversed },
      tokens.op719,
    );
    expect(arranged.body.data.images).toEqual(reversed);
    const detail = await client(t).post<ProductDetail>(catalogApi.productDetail.path, {
      siteId: 719,
      productId: own,
    });
    expect(detail.body.data.images[0]).toBe(reversed[0]);
    const audits = await pictureAudits();
    for (const stale of [
      [reversed[0] as string],
      [...reversed, '/media/other.png'],
      [reversed[0], reversed[0]],
    ]) {
      const answer = await admin.call(
        api.arrangePictures,
        { siteId: 719, productId: own, images: stale },
        tokens.op719,
      );
      expect(answer.body.msg).toBe(CATALOGUE_MSG.picturesChanged);
    }
    const missing = await admin.call(
      api.removePicture,
      { siteId: 719, productId: own, url: '/media/uploads/product/none.png' },
      tokens.op719,
    );
    expect(missing.body.msg).toBe(CATALOGUE_MSG.pictureMissing);
    expect(await pictureAudits()).toBe(audits);
    expect(await imagesOf(own)).toEqual(reversed);
    const removed = await admin.call(
      api.removePicture,
      { siteId: 719, productId: own, url: reversed[0] as string },
      tokens.op719,
    );
    expect(removed.body.data.images).toEqual([reversed[1]]);
    expect(await pictureAudits()).toBe(audits + 1);
  });

  it('refuses a file that is not an image whatever its name, an oversize one and none at all', async () => {
    const before = await imagesOf(own);
    const audits = await pictureAudits();
    const script = Buffer.from('<script>alert(1)</script><svg xmlns="http://www.w3.org/2000/svg"/>');
    const bad: [typeof png | undefined, string][] = [
      [{ data: script, name: 'evil.png', type: 'image/png' }, '仅支持 PNG、JPG、WebP 格式的图片'],
      [{ data: script, name: 'evil.svg', type: 'image/svg+xml' }, '仅支持 PNG、JPG、WebP 格式的图片'],
      [
        { data: Buffer.from('PK\x03\x04 not a picture'), name: 'x.jpg', type: 'image/jpeg' },
        '仅支持 PNG、JPG、WebP 格式的图片',
      ],
      [
        {
          data: Buffer.concat([IMAGES.png, Buffer.alloc(LICENCE_MAX_BYTES)]),
          name: 'big.png',
          type: 'image/png',
        },
        '图片不能超过 2 MB',
      ],
      [undefined, CATALOGUE_MSG.pictureFile],
    ];
    for (const [file, msg] of bad) {
      const answer = await upload(own, file);
      expect(answer.code, file?.name).toBe(400);
      expect(answer.msg, file?.name).toBe(msg);
    }
    expect(await imagesOf(own)).toEqual(before);
    expect(await pictureAudits()).toBe(audits);
  });

  it('answers 403 for another site’s product, a site outside the scope, and a product other sites share', async () => {
    const audits = await pictureAudits();
    // Demo plan: product 7 is not sold on 719.
    const notOn719 = 7;
    const cases: [() => Promise<{ code: number; msg: string }>, string][] = [
      [() => upload(notOn719, png), CATALOGUE_MSG.notListed],
      [() => upload(own, png, tokens.op719, 10110), ADMIN_MSG.forbiddenSite],
      [() => upload(shared, png), CATALOGUE_MSG.picturesShared],
      [() => upload(own, png, tokens.cs10110), ADMIN_MSG.forbidden],
      [
        async () =>
          (
            await admin.call(
              api.arrangePictures,
              { siteId: 719, productId: shared, images: (await imagesOf(shared)) as string[] },
              tokens.op719,
            )
          ).body,
        CATALOGUE_MSG.picturesShared,
      ],
      [
        async () => (await admin.call(api.pictures, { siteId: 719, productId: 7 }, tokens.op719)).body,
        CATALOGUE_MSG.notListed,
      ],
    ];
    for (const [attempt, msg] of cases) expect(await attempt()).toMatchObject({ code: 403, msg });
    expect(await pictureAudits()).toBe(audits);
    // The platform administrator manages every site selling it: allowed.
    const answer = await upload(shared, png, tokens.admin);
    expect(answer.code).toBe(200);
    expect((answer.data as ProductPictures).sites).toEqual(expect.arrayContaining([719, 10110]));
  });

  it(`keeps at most ${MAX_PRODUCT_PICTURES} pictures`, async () => {
    while (((await imagesOf(own)) ?? []).length < MAX_PRODUCT_PICTURES)
      expect((await upload(own, png)).code).toBe(200);
    expect(await upload(own, png)).toMatchObject({ code: 500, msg: CATALOGUE_MSG.picturesFull });
    expect(await imagesOf(own)).toHaveLength(MAX_PRODUCT_PICTURES);
  });
});
