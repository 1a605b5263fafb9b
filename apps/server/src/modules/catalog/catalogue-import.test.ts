import {
  ADMIN_MSG,
  adminCatalogueApi as api,
  CATALOGUE_IMPORT_MAX_BYTES,
  CATALOGUE_MSG,
  type ImportReport,
} from '@sitemall/contract';
import { and, count, eq } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excel } from '../../lib/xlsx';
import type { TestApp } from '../../test/harness';
import { consoleApp } from '../admin/admin.fixtures';
import { auditLog } from '../admin/admin.tables';
import { IMAGES } from '../media/media.fixtures';
import { category, productSpecification, sitePrice, siteProduct } from './catalog.tables';
import { postForm } from './catalogue.fixtures';

/**
 * Importing the product sheet (real app, real database): the export read back as it is
 * changes nothing; edited, it changes prices, sale and limits and lists new products in one
 * transaction with an audit row per product; a sheet with any bad row saves nothing and says
 * why per row; files are judged by their bytes; other sites answer 403.
 */

let t: TestApp;
let tokens: Record<string, string>;
/** The products the test sheet holds: two that 719 sells. */
let sold: number[];

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const importSheet = (data: Buffer, over: { siteId?: number; dryRun?: boolean; token?: string } = {}) =>
  postForm(
    t,
    api.importProducts,
    {
      siteId: String(over.siteId ?? 719),
      ...(over.dryRun ? { dryRun: 'true' } : {}),
    },
    { data, name: 'products.xlsx', type: XLSX },
    over.token ?? tokens.op719,
  ) as Promise<{ code: number; msg: string; data: ImportReport }>;

/** The export of 719 for these products, as a workbook to edit. */
async function exported(productIds: number[]): Promise<ExcelJS.Workbook> {
  const book = new (await excel()).Workbook();
  const res = await t.app.inject({
    method: 'GET',
    url: `/admin-api${api.exportProducts.path}`,
    query: { siteId: '719' },
    headers: { token: tokens.op719 as string },
  });
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  // Keep the header and the rows of these products only (bottom up, so numbers hold).
  for (let r = sheet.rowCount; r >= 2; r -= 1)
    if (!productIds.includes(Number(sheet.getRow(r).getCell(1).value))) sheet.spliceRows(r, 1);
  return book;
}
const fileOf = async (book: ExcelJS.Workbook) => Buffer.from(await book.xlsx.writeBuffer());
const rowsOf = (book: ExcelJS.Workbook) => {
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  return Array.from({ length: sheet.rowCount - 1 }, (_, i) => sheet.getRow(i + 2));
};
const importAudits = async () =>
  (await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'catalogue.import')))[0]?.n ??
  0;
const listing = async (productId: number) =>
  (
    await t.db
      .select()
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, 719), eq(siteProduct.productId, productId)))
  )[0];
const priceOf = async (specificationId: number) =>
  (
    await t.db
      .select({ price: sitePrice.price })
      .from(sitePrice)
      .where(and(eq(sitePrice.siteId, 719), eq(sitePrice.specificationId, specificationId)))
  )[0]?.price;

beforeAll(async () => {
  ({ t, tokens } = await consoleApp());
  sold = (
    await t.db
      .select({ productId: siteProduct.productId })
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, 719), eq(siteProduct.isOnSale, true), eq(siteProduct.limitNum, 0)))
      .orderBy(siteProduct.productId)
      .limit(2)
  ).map((r) => r.productId);
  expect(sold).toHaveLength(2);
});
afterAll(() => t.close());

describe('importing the product sheet', () => {
  it('reads its own export back as "same": nothing saved, no audit row', async () => {
    const book = await exported(sold);
    const answer = await importSheet(await fileOf(book));
    expect(answer).toMatchObject({ code: 200, msg: CATALOGUE_MSG.importDone });
    expect(answer.data.applied).toBe(true);
    expect(answer.data.products).toBe(0);
    expect(answer.data.rows.length).toBe(rowsOf(book).length);
    expect(answer.data.rows.every((r) => r.result === 'same')).toBe(true);
    expect(await importAudits()).toBe(0);
  });

  it('a dry run reports the changes and saves none; the import saves them; re-uploading changes nothing', async () => {
    const book = await exported(sold);
    const rows = rowsOf(book);
    const first = rows[0] as ExcelJS.Row;
    const specId = Number(first.getCell(5).value);
    const was = await priceOf(specId);
    first.getCell(7).value = 12.34;
    // The sheet lists newest first: the first row's product is repriced, the other goes off sale.
    const priced = Number(first.getCell(1).value);
    const other = sold.find((id) => id !== priced) as number;
    for (const row of rows.filter((r) => Number(r.getCell(1).value) === other)) {
      row.getCell(9).value = '已下架';
      row.getCell(10).value = 3;
    }
    const file = await fileOf(book);
    const dry = await importSheet(file, { dryRun: true });
    expect(dry).toMatchObject({ code: 200, msg: CATALOGUE_MSG.importChecked });
    expect(dry.data).toMatchObject({ applied: false, products: 2, errors: 0 });
    expect(dry.data.rows[0]).toMatchObject({ result: 'change', specificationId: specId, productId: priced });
    expect(dry.data.rows[0]?.message).toContain('12.34');
    expect(await priceOf(specId)).toBe(was);
    expect((await listing(other))?.isOnSale).toBe(true);

    const done = await importSheet(file);
    expect(done.data).toMatchObject({ applied: true, products: 2, errors: 0 });
    expect(await priceOf(specId)).toBe(1_234);
    expect(await listing(other)).toMatchObject({ isOnSale: false, limitNum: 3 });
    // The list price is the lowest specification price.
    const prices = await t.db
      .select({ price: sitePrice.price })
      .from(sitePrice)
      .where(and(eq(sitePrice.siteId, 719), eq(sitePrice.productId, priced)));
    expect((await listing(priced))?.price).toBe(Math.min(...prices.map((p) => p.price)));
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.action, 'catalogue.import'));
    expect(audits.map((a) => [a.siteId, Number(a.entityId)]).sort()).toEqual(
      [
        [719, sold[0]],
        [719, sold[1]],
      ].sort(),
    );
    expect(audits.find((a) => Number(a.entityId) === priced)).toMatchObject({
      before: { prices: { [specId]: was } },
      after: { prices: { [specId]: 1_234 } },
    });

    const again = await importSheet(file);
    expect(again.data).toMatchObject({ applied: true, products: 0, errors: 0 });
    expect(again.data.rows.every((r) => r.result === 'same')).toBe(true);
    expect(await importAudits()).toBe(2);
  });

  it('lists a shared product the site does not sell, under the named category, at the sheet prices', async () => {
    // Demo plan: product 7 is not sold on 719; a category name that is unique on 719.
    expect(await listing(7)).toBeUndefined();
    const cats = await t.db
      .select({ id: category.id, name: category.catName })
      .from(category)
      .where(eq(category.siteId, 719));
    const unique = cats.find((c) => cats.filter((o) => o.name === c.name).length === 1);
    const specs = await t.db
      .select({ id: productSpecification.id })
      .from(productSpecification)
      .where(eq(productSpecification.productId, 7));
    const book = await exported([]);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    for (const [i, s] of specs.entries())
      sheet.addRow([7, '', '', unique?.name, s.id, '', 20 + i, '', '在售', '不限', '']);
    const answer = await importSheet(await fileOf(book));
    expect(answer.data).toMatchObject({ applied: true, products: 1, errors: 0 });
    expect(answer.data.rows.every((r) => r.result === 'change' && r.message === '上架')).toBe(true);
    expect(await listing(7)).toMatchObject({
      categoryId: unique?.id,
      price: 2_000,
      isOnSale: true,
      limitNum: 0,
    });
  });

  it('saves nothing when any row is wrong, and says why for each row', async () => {
    const book = await exported([sold[0] as number]);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    const good = sheet.getRow(2);
    const specId = Number(good.getCell(5).value);
    good.getCell(7).value = 99.99;
    const otherSpec = (
      await t.db
        .select({ id: productSpecification.id })
        .from(productSpecification)
        .where(eq(productSpecification.productId, 7))
    )[0]?.id;
    const bad: [unknown[], string][] = [
      [[sold[0], '', '', '', specId, '', 'abc', '', '在售', '不限'], '站点价须为金额'],
      [[sold[0], '', '', '', specId, '', '<script>alert(1)</script>', '', '在售', '不限'], '站点价须为金额'],
      [[sold[0], '', '', '', otherSpec, '', 10, '', '在售', '不限'], CATALOGUE_MSG.specMissing],
      [[999_999_999, '', '', '', specId, '', 10, '', '在售', '不限'], CATALOGUE_MSG.productMissing],
      [[sold[0], '', '', '', specId, '', 10, '', '待定', '不限'], '状态须为'],
      [[sold[0], '', '', '', specId, '', 10, '', '在售', -1], '限购须为'],
      [[sold[0], '', '', '', specId, '', 0, '', '在售', '不限'], '站点价须在'],
      [[sold[0], '', '', '', specId, '', 10, '', '在售', '不限'], '同一规格出现在多行'],
    ];
    const goodRows = sheet.rowCount - 1;
    for (const [cells] of bad) sheet.addRow(cells);
    const was = await priceOf(specId);
    const answer = await importSheet(await fileOf(book));
    expect(answer).toMatchObject({ code: 200, msg: CATALOGUE_MSG.importHasErrors });
    expect(answer.data.applied).toBe(false);
    expect(answer.data.errors).toBe(bad.length);
    expect(answer.data.rows[0]).toMatchObject({ rowNo: 2, result: 'change' });
    for (const [i, [, reason]] of bad.entries()) {
      const row = answer.data.rows[goodRows + i];
      expect(row, reason).toMatchObject({ rowNo: goodRows + i + 2, result: 'error' });
      expect(row?.message).toContain(reason);
    }
    expect(await priceOf(specId)).toBe(was);
    expect(await importAudits()).toBe(3);
  });

  it('judges the file by its bytes and size: a picture or text named .xlsx, oversize, none, no header', async () => {
    const header = await exported([]);
    const noHeader = new (await excel()).Workbook();
    noHeader.addWorksheet('x').addRow(['编号', '价格']);
    noHeader.worksheets[0]?.addRow([1, 2]);
    const cases: [Buffer, string][] = [
      [IMAGES.png, '文件格式不支持'],
      [Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 7)]), '无法读取 xlsx 文件'],
      [
        Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(CATALOGUE_IMPORT_MAX_BYTES)]),
        CATALOGUE_MSG.importTooLarge,
      ],
      [await fileOf(noHeader), CATALOGUE_MSG.importNoHeader],
      [await fileOf(header), CATALOGUE_MSG.importNoRows],
    ];
    for (const [data, msg] of cases) {
      const answer = await importSheet(data);
      expect(answer.code, msg).toBe(400);
      expect(answer.msg, msg).toContain(msg);
    }
    const none = await postForm(t, api.importProducts, { siteId: '719' }, undefined, tokens.op719);
    expect(none).toMatchObject({ code: 400, msg: CATALOGUE_MSG.importNoFile });
    expect(await importAudits()).toBe(3);
  });

  it('answers 403 for a site outside the scope and for operators without catalogue:manage', async () => {
    const file = await fileOf(await exported(sold));
    expect(await importSheet(file, { siteId: 10110 })).toMatchObject({
      code: 403,
      msg: ADMIN_MSG.forbiddenSite,
    });
    expect((await importSheet(file, { token: tokens.cs10110 })).code).toBe(403);
    expect((await importSheet(file, { token: tokens.finance })).code).toBe(403);
  });
});
