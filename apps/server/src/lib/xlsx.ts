import type ExcelJS from 'exceljs';

let loading: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, imported on the first export or batch sheet rather than at start-up: importing it
 * takes about a second and 12 MB of heap, paid by every start for a rarely used feature.
 */
export function excel(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((m) => m.default);
  return loading;
}

/** A new workbook, signed by the mall. */
export async function newWorkbook(): Promise<ExcelJS.Workbook> {
  const workbook = new (await excel()).Workbook();
  workbook.creator = 'Sitemall';
  workbook.created = new Date();
  return workbook;
}

/**
 * A sheet of the workbook that reads as a table: its columns, a bold header row (kept in view
 * while scrolling unless `frozen` is false) and one row per record.
 */
export function addTableSheet(
  workbook: ExcelJS.Workbook,
  name: string,
  columns: Partial<ExcelJS.Column>[],
  rows: readonly Record<string, unknown>[] = [],
  options: { frozen?: boolean } = {},
): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name);
  sheet.columns = columns;
  sheet.getRow(1).font = { bold: true };
  if (options.frozen !== false) sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of rows) sheet.addRow(row);
  return sheet;
}

export const workbookFile = async (workbook: ExcelJS.Workbook): Promise<Buffer> =>
  Buffer.from(await workbook.xlsx.writeBuffer());

/** A one-sheet .xlsx file: the table of `rows` under `columns`. */
export async function tableFile(
  name: string,
  columns: Partial<ExcelJS.Column>[],
  rows: readonly Record<string, unknown>[],
  options: { frozen?: boolean } = {},
): Promise<Buffer> {
  const workbook = await newWorkbook();
  addTableSheet(workbook, name, columns, rows, options);
  return workbookFile(workbook);
}
