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
