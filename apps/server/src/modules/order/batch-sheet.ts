import {
  BATCH_COLUMNS,
  BATCH_MAX_BYTES,
  BATCH_MAX_ROWS,
  BATCH_MSG,
  type BatchColumnKey,
} from '@sitemall/contract';
import type ExcelJS from 'exceljs';
import { parseCsv } from '../../lib/csv';
import { badRequest } from '../../lib/errors';
import { addTableSheet, excel, newWorkbook, tableFile, workbookFile } from '../../lib/xlsx';

/**
 * Reading a batch-order sheet (xlsx or csv) into plain rows: pure, no database. The file is
 * judged by its content, never by a name or a content type the client chose: an xlsx is a zip
 * (it starts with "PK\x03\x04"), a csv is UTF-8 text (a BOM is dropped).
 */

export type SheetKind = 'xlsx' | 'csv';

export interface SheetRow {
  /** Row number as the member sees it in the sheet (the header is row 1). */
  rowNo: number;
  cells: Record<BatchColumnKey, string>;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export function sheetKind(file: Buffer): SheetKind {
  if (file.length === 0) throw badRequest(BATCH_MSG.noFile);
  if (file.length > BATCH_MAX_BYTES) throw badRequest(BATCH_MSG.tooLarge);
  if (ZIP_MAGIC.every((b, i) => file[i] === b)) return 'xlsx';
  // Text only: valid UTF-8 without NUL or other control bytes than tab and line ends.
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    throw badRequest(BATCH_MSG.badType);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: binary content is what we look for
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) throw badRequest(BATCH_MSG.badType);
  return 'csv';
}

/** A row of cells with its number in the sheet (empty rows may be left out). */
export interface CellRow {
  rowNo: number;
  cells: string[];
}

/**
 * The non-empty rows of the first worksheet, cells as the member sees them (numbers and dates
 * as shown). Only values count: a sheet whose formatting reaches row 1,048,576 is fine.
 */
async function xlsxCells(file: Buffer): Promise<CellRow[]> {
  const workbook = new (await excel()).Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ExcelJS.Buffer);
  } catch {
    throw badRequest(BATCH_MSG.badXlsx);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest(BATCH_MSG.badXlsx);
  const rows: CellRow[] = [];
  const width = Math.min(sheet.columnCount, 50);
  sheet.eachRow({ includeEmpty: false }, (row, rowNo) => {
    const cells: string[] = [];
    for (let c = 1; c <= width; c += 1) {
      const cell = row.getCell(c);
      cells.push(cell.value === null || cell.value === undefined ? '' : String(cell.text ?? ''));
    }
    rows.push({ rowNo, cells });
  });
  return rows;
}

export async function readCells(file: Buffer): Promise<CellRow[]> {
  const kind = sheetKind(file);
  if (kind === 'xlsx') return xlsxCells(file);
  return parseCsv(file.toString('utf8')).map((cells, i) => ({ rowNo: i + 1, cells }));
}

export const normalise = (s: string) => s.replace(/\s+/g, '').replace(/[（(].*?[）)]/g, '');

/** Column index of each key, found by the header's titles (columns may be in any order). */
function headerMap(header: readonly string[]): Map<BatchColumnKey, number> | undefined {
  const found = new Map<BatchColumnKey, number>();
  for (const [i, title] of header.entries()) {
    const t = normalise(title);
    const column = BATCH_COLUMNS.find((c) => normalise(c.title) === t);
    if (column && !found.has(column.key)) found.set(column.key, i);
  }
  return BATCH_COLUMNS.every((c) => found.has(c.key)) ? found : undefined;
}

/** A row that only shows how to fill the sheet (the template's example) is never ordered. */
export const EXAMPLE_PREFIX = '示例';

/**
 * Data rows of a sheet: the first non-empty row is the header; empty rows and example rows
 * are skipped; every cell is trimmed.
 */
export function sheetRows(cells: readonly CellRow[]): SheetRow[] {
  const filled = cells.filter((r) => r.cells.some((c) => c.trim() !== ''));
  const header = filled[0] ? headerMap(filled[0].cells) : undefined;
  if (!header) throw badRequest(BATCH_MSG.noHeader);
  const rows: SheetRow[] = [];
  for (const { rowNo, cells: raw } of filled.slice(1)) {
    const values = Object.fromEntries(
      BATCH_COLUMNS.map((c) => [c.key, (raw[header.get(c.key) ?? -1] ?? '').trim()]),
    ) as Record<BatchColumnKey, string>;
    if (values.product.startsWith(EXAMPLE_PREFIX)) continue;
    rows.push({ rowNo, cells: values });
    if (rows.length > BATCH_MAX_ROWS) throw badRequest(BATCH_MSG.tooManyRows);
  }
  if (rows.length === 0) throw badRequest(BATCH_MSG.noRows);
  return rows;
}

export async function readSheet(file: Buffer): Promise<SheetRow[]> {
  return sheetRows(await readCells(file));
}

/** The template: the header, one example row, and a second sheet explaining each column. */
export async function templateWorkbook(): Promise<Buffer> {
  const workbook = await newWorkbook();
  const sheet = addTableSheet(
    workbook,
    '批量下单',
    BATCH_COLUMNS.map((c) => ({
      header: c.title,
      key: c.key,
      width: c.key === 'detail' ? 32 : c.key === 'product' ? 22 : 14,
    })),
  );
  sheet.getRow(1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEFEFEF' } };
  // Phone numbers and ids stay text, so Excel does not turn them into 1.38E+10.
  for (const key of ['product', 'specification', 'phone'] as const) sheet.getColumn(key).numFmt = '@';
  sheet.addRow({
    product: `${EXAMPLE_PREFIX}：商品ID或名称`,
    specification: '规格值',
    num: 1,
    consignee: '张三',
    phone: '13800000000',
    province: '江苏省',
    city: '南京市',
    district: '玄武区',
    detail: '中山路 1 号',
  }).font = { color: { argb: 'FF999999' }, italic: true };

  const help = addTableSheet(
    workbook,
    '填写说明',
    [
      { header: '列', key: 'title', width: 16 },
      { header: '说明', key: 'note', width: 60 },
    ],
    BATCH_COLUMNS.map((c) => ({ title: c.title, note: c.note })),
    { frozen: false },
  );
  help.addRow({});
  for (const note of [
    `以“${EXAMPLE_PREFIX}”开头的行不会下单，可删除或保留。`,
    `每行一种商品；收货人、手机号和地址都相同的行合并为一个订单。`,
    `一次最多 ${BATCH_MAX_ROWS} 行，文件不超过 1 MB；也可另存为 UTF-8 编码的 CSV 上传。`,
    '每个收货人的订单单独提交：某个订单失败不影响其他订单。',
    '订单提交后为待付款，请到“我的订单”中支付。',
  ])
    help.addRow({ title: '', note });
  return workbookFile(workbook);
}

export interface ReportLine {
  consignee: string;
  phone: string;
  address: string;
  rowNos: number[];
  result: string;
  orderNo: string;
  payAmount: string;
  msg: string;
}

/** The result report: one row per recipient. */
export async function reportWorkbook(lines: readonly ReportLine[]): Promise<Buffer> {
  return tableFile(
    '批量下单结果',
    [
      { header: '收货人', key: 'consignee', width: 12 },
      { header: '手机号', key: 'phone', width: 14 },
      { header: '收货地址', key: 'address', width: 40 },
      { header: '表格行号', key: 'rows', width: 12 },
      { header: '结果', key: 'result', width: 10 },
      { header: '订单号', key: 'orderNo', width: 28 },
      { header: '应付金额', key: 'payAmount', width: 12 },
      { header: '说明', key: 'msg', width: 40 },
    ],
    lines.map((l) => ({ ...l, rows: l.rowNos.join(',') })),
    { frozen: false },
  );
}
