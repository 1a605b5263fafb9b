import { catalogApi, shopUrl } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renameLabel } from '../modules/catalog/catalog.service';
import { type TestApp, testApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

/** A POST read of the site with `payload`, sent with the client's own headers (its ETag). */
const postRead =
  (endpoint: Parameters<typeof shopUrl>[0], payload: Record<string, unknown> = {}) =>
  (siteId: number, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: shopUrl(endpoint), payload: { siteId, ...payload }, headers });

const lableList = postRead(catalogApi.lableList);
const pcInfo = (siteId: number, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `${shopUrl(catalogApi.templatePcInfo)}?siteId=${siteId}`, headers });

/** Answers kept in catalogue-answers.ts: a search, a product page and a page of the product list. */
const search = postRead(catalogApi.search, { itemName: '手机' });
const productDetail = postRead(catalogApi.productDetail, { productId: 1 });
const productList = postRead(catalogApi.productList, { pageNum: 1 });

describe('HTTP validators on the public catalogue reads', () => {
  it('answers 304 without a body to a client holding the current ETag', async () => {
    for (const read of [lableList, pcInfo, search, productDetail, productList]) {
      const first = await read(10110);
      expect(first.statusCode).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"10110-/);
      expect(first.headers['cache-control']).toBe('no-cache');
      const again = await read(10110, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      // The same answer again, byte for byte, the envelope's schema kept.
      const third = await read(10110);
      expect(third.body).toBe(first.body);
      expect(third.json()).toMatchObject({ code: 200, success: true });
    }
  });

  it('never lets one site’s ETag stand for another’s answer', async () => {
    const etag = String((await lableList(1000)).headers.etag);
    const other = await lableList(719, { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
    expect(other.json().code).toBe(200);
  });

  it('changes the ETag once a catalogue change is announced', async () => {
    const first = await lableList(10110);
    const etag = String(first.headers.etag);
    const label = first.json().data.mallCateLables[0] as { id: number; lableName: string };
    await renameLabel(t.db, 10110, label.id, `${label.lableName}新`);
    await expect.poll(async () => (await lableList(10110, { 'if-none-match': etag })).statusCode).toBe(200);
    const changed = await lableList(10110, { 'if-none-match': etag });
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().data.mallCateLables[0].lableName).toBe(`${label.lableName}新`);
  });
});
