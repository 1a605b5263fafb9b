import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../lib/csv';
import { resolveAddressNames } from './batch';
import { sheetKind, sheetRows } from './batch-sheet';

const HEADER = ['商品ID或名称', '规格', '数量', '收货人', '手机号', '省', '市', '区/县', '详细地址'];

describe('batch sheet parsing', () => {
  it('reads RFC 4180 csv: quotes, escaped quotes, line breaks in fields, CRLF, BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\n"two\nlines",\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\nlines', ''],
    ]);
    expect(parseCsv('a,b')).toEqual([['a', 'b']]);
    expect(parseCsv('')).toEqual([]);
  });

  it('tells the file kind by content', () => {
    expect(sheetKind(Buffer.from('PK\x03\x04rest'))).toBe('xlsx');
    expect(sheetKind(Buffer.from('商品,规格\n'))).toBe('csv');
    expect(() => sheetKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toThrow('文件格式不支持');
    expect(() => sheetKind(Buffer.from('a\u0000b'))).toThrow('文件格式不支持');
    expect(() => sheetKind(Buffer.alloc(0))).toThrow('请上传');
  });

  it('maps columns by header title, skips empty and example rows, keeps sheet row numbers', () => {
    const reordered = [...HEADER].reverse();
    const rows = sheetRows(
      [
        [],
        reordered,
        ['中山路 1 号', '玄武区', '南京市', '江苏省', '13800000000', '张三', '1', '500g', '示例：商品'],
        ['', '', '', '', '', '', '', '', ''],
        ['中山路 1 号', '玄武区', '南京市', '江苏省', ' 13800000000 ', '张三', '2', '500g', ' 1001 '],
      ].map((cells, i) => ({ rowNo: i + 1, cells })),
    );
    expect(rows).toEqual([
      {
        rowNo: 5,
        cells: {
          product: '1001',
          specification: '500g',
          num: '2',
          consignee: '张三',
          phone: '13800000000',
          province: '江苏省',
          city: '南京市',
          district: '玄武区',
          detail: '中山路 1 号',
        },
      },
    ]);
    expect(() => sheetRows([{ rowNo: 1, cells: ['商品', '数量'] }])).toThrow('未找到表头');
    expect(() => sheetRows([{ rowNo: 1, cells: HEADER }])).toThrow('没有需要下单的行');
  });

  it('resolves province, city and district by name, short names and municipalities included', () => {
    expect(resolveAddressNames('江苏', '南京', '玄武区')).toMatchObject({
      ok: true,
      codes: { provinceCode: '320000', cityCode: '320100', districtCode: '320102' },
    });
    expect(resolveAddressNames('上海市', '', '浦东新区')).toMatchObject({ ok: true });
    expect(resolveAddressNames('北京', '市辖区', '朝阳区')).toMatchObject({ ok: true });
    expect(resolveAddressNames('江苏省', '杭州市', '西湖区')).toEqual({
      ok: false,
      error: '城市“杭州市”不属于江苏省',
    });
    expect(resolveAddressNames('江苏省', '南京市', '')).toEqual({ ok: false, error: '请填写区/县' });
    expect(resolveAddressNames('火星', '南京市', '玄武区')).toEqual({ ok: false, error: '省份“火星”不存在' });
  });
});
