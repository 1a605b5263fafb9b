import { CsvError, parse } from 'csv-parse/sync';
import { badRequest } from './errors';

/**
 * CSV text as rows of cells (RFC 4180: quoted fields with "" escapes and line breaks), for the
 * files members and operators upload. Lenient where spreadsheets are: a BOM is dropped, line
 * ends may be CRLF, LF or CR (mixed), rows may differ in width, a stray quote inside a plain
 * field is kept as text. Empty lines stay as rows so that row numbers match the file's lines.
 * What cannot be read (a quote never closed) is a 400.
 */
export const CSV_MALFORMED = 'CSV 格式不正确：引号没有闭合或位置不对，请检查文件';

export function parseCsv(text: string): string[][] {
  try {
    return parse(text, {
      bom: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (error) {
    // csv-parse counts to where it gave up (the file's end for an open quote), not where the
    // quote opened: a line number would mislead.
    if (error instanceof CsvError) throw badRequest(CSV_MALFORMED);
    throw error;
  }
}
