import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads quotes, escaped quotes, commas and line breaks inside quotes', () => {
    expect(parseCsv('a,"b,c","d ""e"""\n"two\nlines",x\n')).toEqual([
      ['a', 'b,c', 'd "e"'],
      ['two\nlines', 'x'],
    ]);
  });

  it('drops a BOM and takes CRLF, LF and CR line ends, mixed', () => {
    expect(parseCsv('\uFEFFa,b\r\n1,2\n3,4\r5,6')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ]);
  });

  it('keeps empty lines as rows (row numbers are file lines), rows of any width, stray quotes as text', () => {
    expect(parseCsv('a\n\nb,c,d\nx"y,z')).toEqual([['a'], [''], ['b', 'c', 'd'], ['x"y', 'z']]);
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('a,')).toEqual([['a', '']]);
  });

  it('refuses a quote never closed with a 400', () => {
    expect(() => parseCsv('a,b\n"c,d\ne,f\n')).toThrow(
      expect.objectContaining({ code: 400, message: 'CSV 格式不正确：引号没有闭合或位置不对，请检查文件' }),
    );
  });
});
