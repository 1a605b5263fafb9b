import {
  CATALOGUE_IMPORT_MAX_BYTES,
  CATALOGUE_IMPORT_MAX_ROWS,
  CATALOGUE_MSG,
  type ImportReport,
  type ImportRow,
  MAX_LIMIT_NUM,
  MAX_SITE_PRICE,
} from '@sitemall/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { badRequest, failure } from '../../lib/errors';
import { type OperatorCtx, requireSiteAccess } from '../admin/admin.service';
import { audited, type RecordAudit } from '../admin/audit';
import { type CellRow, normalise, readCells } from '../order/batch-sheet';
import { announceCatalogChange } from './catalog.service';
import { category, product, productSpecification, sitePrice, siteProduct } from './catalog.tables';
import { writePrices } from './catalogue-admin';

/**
 * Importing the product sheet the export writes (one row per specification): list products of
 * the shared catalogue on the site at their prices, change prices, put on or off sale and set
 * purchase limits in one go.
 *
 * All or nothing: the sheet is one price list, and a half-applied price list is a state of the
 * site nobody wrote down. Every row is checked and reported (change / same / error with its
 * reason); only when no row has an error are the changes saved, in one transaction with one
 * audit row per changed product. Re-uploading the same sheet changes nothing and writes no
 * audit row (every row reports "same"). Name, brand, stock and sales columns are read-only
 * here (stock moves only through the stock ledger); the category column is used when a product
 * is listed. The whole check runs under row locks of the site's listings it touches, so what it
 * reports is what it saves.
 */

/** Columns read, by their export titles (matched without spaces and bracketed units). */
const COLUMNS = {
  productId: '商品编号',
  specificationId: '规格编号',
  price: '站点价（元）',
  state: '状态',
  limit: '限购',
  category: '分类',
} as const;
type Column = keyof typeof COLUMNS;
const REQUIRED: Column[] = ['productId', 'specificationId', 'price', 'state', 'limit'];

const ON_SALE: Record<string, boolean> = { 在售: true, 上架: true, 已下架: false, 下架: false };
const NO_LIMIT = new Set(['', '不限', '0']);

interface SheetLine {
  rowNo: number;
  cells: Record<Column, string>;
}

function sheetLines(rows: readonly CellRow[]): SheetLine[] {
  const filled = rows.filter((r) => r.cells.some((c) => c.trim() !== ''));
  const titles = (filled[0]?.cells ?? []).map(normalise);
  const at = Object.fromEntries(
    Object.entries(COLUMNS).map(([key, title]) => [key, titles.indexOf(normalise(title))]),
  ) as Record<Column, number>;
  if (REQUIRED.some((key) => at[key] < 0)) throw badRequest(CATALOGUE_MSG.importNoHeader);
  const lines = filled.slice(1).map(({ rowNo, cells }) => ({
    rowNo,
    cells: Object.fromEntries(
      Object.keys(COLUMNS).map((key) => [key, (cells[at[key as Column]] ?? '').trim()]),
    ) as Record<Column, string>,
  }));
  if (lines.length === 0) throw badRequest(CATALOGUE_MSG.importNoRows);
  if (lines.length > CATALOGUE_IMPORT_MAX_ROWS) throw badRequest(CATALOGUE_MSG.importTooManyRows);
  return lines;
}

/** What one row asks for, or why it cannot be read. */
interface Wanted {
  productId: number;
  specificationId: number;
  price: number;
  isOnSale: boolean;
  limitNum: number;
  category: string;
}

const ROW_ID = /^\d{1,9}$/;
const YUAN = /^\d{1,7}(\.\d{1,2})?$/;

function readLine({ cells }: SheetLine): Wanted | string {
  if (!ROW_ID.test(cells.productId) || Number(cells.productId) < 1) return '商品编号须为正整数';
  if (!ROW_ID.test(cells.specificationId) || Number(cells.specificationId) < 1) return '规格编号须为正整数';
  if (!YUAN.test(cells.price)) return '站点价须为金额（元，最多两位小数）';
  // Fen from the digits as written, never through a float product.
  const [yuan, fen = ''] = cells.price.split('.');
  const price = Number(yuan) * 100 + Number(fen.padEnd(2, '0'));
  if (price < 1 || price > MAX_SITE_PRICE) return `站点价须在 0.01 到 ${MAX_SITE_PRICE / 100} 元之间`;
  const isOnSale = ON_SALE[cells.state];
  if (isOnSale === undefined) return '状态须为“在售”或“已下架”';
  let limitNum = 0;
  if (!NO_LIMIT.has(cells.limit)) {
    if (!/^\d{1,4}$/.test(cells.limit) || Number(cells.limit) > MAX_LIMIT_NUM)
      return `限购须为“不限”或 1-${MAX_LIMIT_NUM} 的整数`;
    limitNum = Number(cells.limit);
  }
  return {
    productId: Number(cells.productId),
    specificationId: Number(cells.specificationId),
    price,
    isOnSale,
    limitNum,
    category: cells.category,
  };
}

const yuan = (fen: number) => (fen / 100).toFixed(2);

/** The rows of one product that read well, with what the site has for it now. */
interface ProductPlan {
  productId: number;
  name: string;
  rows: { line: ImportRow; wanted: Wanted }[];
}

/** The database's side of the check: products, specifications, listings, prices, categories. */
async function loadState(tx: Db, siteId: number, productIds: number[]) {
  const [products, specs, listings, prices, categories] = await Promise.all([
    tx.select({ id: product.id, name: product.name }).from(product).where(inArray(product.id, productIds)),
    tx
      .select({ id: productSpecification.id, productId: productSpecification.productId })
      .from(productSpecification)
      .where(inArray(productSpecification.productId, productIds)),
    // Locked: what is checked here is what is saved.
    tx
      .select({
        productId: siteProduct.productId,
        isOnSale: siteProduct.isOnSale,
        limitNum: siteProduct.limitNum,
      })
      .from(siteProduct)
      .where(and(eq(siteProduct.siteId, siteId), inArray(siteProduct.productId, productIds)))
      .for('update'),
    tx
      .select({ specificationId: sitePrice.specificationId, price: sitePrice.price })
      .from(sitePrice)
      .where(and(eq(sitePrice.siteId, siteId), inArray(sitePrice.productId, productIds))),
    tx.select({ id: category.id, name: category.catName }).from(category).where(eq(category.siteId, siteId)),
  ]);
  const specsOf = new Map<number, number[]>();
  for (const s of specs) specsOf.set(s.productId, [...(specsOf.get(s.productId) ?? []), s.id]);
  return {
    names: new Map(products.map((p) => [p.id, p.name])),
    specsOf,
    listing: new Map(listings.map((l) => [l.productId, l])),
    priceOf: new Map(prices.map((p) => [p.specificationId, p.price])),
    categories,
  };
}

/**
 * Checks the sheet against the site and, unless a row has an error or it is a dry run, saves
 * it. Answers the per-row report.
 */
export async function importProducts(
  ctx: OperatorCtx,
  body: { siteId: number; file?: unknown; dryRun?: boolean },
): Promise<ImportReport> {
  requireSiteAccess(ctx, 'catalogue:manage', body.siteId);
  const file = body.file;
  if (!Buffer.isBuffer(file) || file.length === 0) throw badRequest(CATALOGUE_MSG.importNoFile);
  if (file.length > CATALOGUE_IMPORT_MAX_BYTES) throw badRequest(CATALOGUE_MSG.importTooLarge);
  // xlsx told by its zip bytes (or UTF-8 csv text); anything else is refused whatever its name.
  const lines = sheetLines(await readCells(file));
  const siteId = body.siteId;

  return audited(ctx, async (tx, record) => {
    const read = lines.map((line) => ({ line, wanted: readLine(line) }));
    const ids = [...new Set(read.flatMap((r) => (typeof r.wanted === 'string' ? [] : [r.wanted.productId])))];
    const state = await loadState(tx, siteId, ids.length ? ids : [0]);
    const report: ImportRow[] = [];
    const plans = new Map<number, ProductPlan>();
    const seenSpecs = new Set<number>();

    for (const { line, wanted } of read) {
      const row: ImportRow = {
        rowNo: line.rowNo,
        productId: ROW_ID.test(line.cells.productId) ? Number(line.cells.productId) : null,
        specificationId: ROW_ID.test(line.cells.specificationId) ? Number(line.cells.specificationId) : null,
        name: state.names.get(Number(line.cells.productId)) ?? '',
        result: 'error',
        message: '',
      };
      report.push(row);
      if (typeof wanted === 'string') {
        row.message = wanted;
        continue;
      }
      if (!state.names.has(wanted.productId)) row.message = CATALOGUE_MSG.productMissing;
      else if (!state.specsOf.get(wanted.productId)?.includes(wanted.specificationId))
        row.message = CATALOGUE_MSG.specMissing;
      else if (seenSpecs.has(wanted.specificationId)) row.message = '同一规格出现在多行';
      if (row.message) continue;
      seenSpecs.add(wanted.specificationId);
      const plan = plans.get(wanted.productId) ?? { productId: wanted.productId, name: row.name, rows: [] };
      plans.set(wanted.productId, plan);
      const first = plan.rows[0]?.wanted;
      if (first && (first.isOnSale !== wanted.isOnSale || first.limitNum !== wanted.limitNum)) {
        row.message = '同一商品各行的状态和限购须相同';
        continue;
      }
      plan.rows.push({ line: row, wanted });
    }

    /** Writes of each product, run only when the whole sheet is good. */
    const writes: ((tx: Db, record: RecordAudit) => Promise<void>)[] = [];
    for (const plan of plans.values()) {
      const fail = (message: string) => {
        for (const { line } of plan.rows) Object.assign(line, { result: 'error', message });
      };
      const rows = plan.rows;
      const first = rows[0]?.wanted as Wanted;
      const prices = rows.map(({ wanted }) => ({
        specificationId: wanted.specificationId,
        price: wanted.price,
      }));
      const listed = state.listing.get(plan.productId);
      if (!listed) {
        const all = state.specsOf.get(plan.productId) ?? [];
        if (rows.length !== all.length) {
          fail(`${CATALOGUE_MSG.pricesIncomplete}（该商品未在本站点上架，共 ${all.length} 个规格）`);
          continue;
        }
        const named = state.categories.filter((c) => c.name === first.category);
        if (named.length !== 1) {
          fail(named.length ? '本站点有多个同名分类，请在控制台上架' : CATALOGUE_MSG.categoryMissing);
          continue;
        }
        const categoryId = named[0]?.id as number;
        for (const { line } of rows) Object.assign(line, { result: 'change', message: '上架' });
        writes.push(async (tx, record) => {
          const [inserted] = await tx
            .insert(siteProduct)
            .values({
              siteId,
              productId: plan.productId,
              categoryId,
              price: Math.min(...prices.map((p) => p.price)),
              limitNum: first.limitNum,
              isOnSale: first.isOnSale,
            })
            .onConflictDoNothing()
            .returning({ productId: siteProduct.productId });
          // Listed by someone else since the check: the whole import is refused, re-upload.
          if (!inserted) throw failure(`${plan.name}：${CATALOGUE_MSG.alreadyListed}`);
          await writePrices(tx, siteId, plan.productId, prices);
          await record({
            siteId,
            action: 'catalogue.import',
            entity: 'site_product',
            entityId: plan.productId,
            before: null,
            after: {
              categoryId,
              prices: Object.fromEntries(prices.map((p) => [p.specificationId, p.price])),
              limitNum: first.limitNum,
              isOnSale: first.isOnSale,
            },
            reason: '导入商品表',
          });
        });
        continue;
      }
      const changedPrices = prices.filter((p) => state.priceOf.get(p.specificationId) !== p.price);
      const saleChanged = listed.isOnSale !== first.isOnSale;
      const limitChanged = listed.limitNum !== first.limitNum;
      for (const { line, wanted } of rows) {
        const was = state.priceOf.get(wanted.specificationId);
        const notes = [
          was !== wanted.price
            ? `站点价 ${was === undefined ? '无' : yuan(was)} → ${yuan(wanted.price)}`
            : '',
          saleChanged ? (first.isOnSale ? '上架' : '下架') : '',
          limitChanged ? `限购 ${listed.limitNum || '不限'} → ${first.limitNum || '不限'}` : '',
        ].filter(Boolean);
        Object.assign(
          line,
          notes.length ? { result: 'change', message: notes.join('；') } : { result: 'same' },
        );
      }
      if (!changedPrices.length && !saleChanged && !limitChanged) continue;
      writes.push(async (tx, record) => {
        if (changedPrices.length) await writePrices(tx, siteId, plan.productId, changedPrices);
        if (saleChanged || limitChanged)
          await tx
            .update(siteProduct)
            .set({ isOnSale: first.isOnSale, limitNum: first.limitNum })
            .where(and(eq(siteProduct.siteId, siteId), eq(siteProduct.productId, plan.productId)));
        await record({
          siteId,
          action: 'catalogue.import',
          entity: 'site_product',
          entityId: plan.productId,
          before: {
            prices: Object.fromEntries(
              changedPrices.map((p) => [p.specificationId, state.priceOf.get(p.specificationId) ?? null]),
            ),
            isOnSale: listed.isOnSale,
            limitNum: listed.limitNum,
          },
          after: {
            prices: Object.fromEntries(changedPrices.map((p) => [p.specificationId, p.price])),
            isOnSale: first.isOnSale,
            limitNum: first.limitNum,
          },
          reason: '导入商品表',
        });
      });
    }

    const errors = report.filter((r) => r.result === 'error').length;
    const applied = errors === 0 && !body.dryRun;
    if (applied) {
      for (const write of writes) await write(tx, record);
      await announceCatalogChange(tx, siteId);
    }
    return { applied, products: writes.length, errors, rows: report };
  });
}
