import {
  type BatchPreview,
  type BatchSubmitResult,
  batchApi,
  type OrderDetail,
  orderApi,
  shopUrl,
} from '@sitemall/contract';
import { and, eq, inArray, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { productSpecification, siteProduct } from '../catalog/catalog.tables';
import { client } from '../identity/identity.fixtures';
import { readSheet } from './batch-sheet';
import { buyer, type PickedSpec, pickSpecs, setStock, stockOf } from './order.fixtures';
import { mallOrder } from './order.tables';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: { id: number; token: string };
let goods: (PickedSpec & { value: string })[];

const HEADER = ['商品ID或名称', '规格', '数量', '收货人', '手机号', '省', '市', '区/县', '详细地址'];
const NANJING = ['江苏省', '南京市', '玄武区', '中山路 1 号'];
const SHANGHAI = ['上海', '上海市', '浦东新区', '世纪大道 100 号'];

type Row = (string | number)[];
const csv = (rows: Row[]) =>
  Buffer.from(
    `\ufeff${[HEADER, ...rows].map((r) => r.map((c) => (/[",\n]/.test(String(c)) ? `"${String(c).replaceAll('"', '""')}"` : c)).join(',')).join('\r\n')}\r\n`,
  );
async function xlsx(rows: Row[]) {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('批量下单');
  sheet.addRow(HEADER);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function send(path: string, file: Buffer, token = me.token, siteId = '719') {
  const form = new FormData();
  form.append('siteId', siteId);
  form.append('file', new Blob([file]), 'batch.csv');
  const request = new Request('http://x', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: `/front-mall-api/api/batchOrder/${path}`,
    headers: { 'content-type': request.headers.get('content-type') ?? '', token },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}
const preview = async (file: Buffer, token?: string) =>
  (await send('preview', file, token)).json() as { code: number; msg: string; data: BatchPreview };
const submit = async (file: Buffer, token?: string) =>
  (await send('submit', file, token)).json() as { code: number; msg: string; data: BatchSubmitResult };

const line = (g: PickedSpec & { value: string }, num: number, who: string[], place = NANJING): Row => [
  g.productId,
  g.value,
  num,
  ...who,
  ...place,
];
const alice = ['王小明', '13911110001'];
const bob = ['李小红', '13911110002'];

const batchOrders = async () =>
  t.db
    .select()
    .from(mallOrder)
    .where(
      and(eq(mallOrder.siteId, 719), eq(mallOrder.memberId, me.id), like(mallOrder.remark, '批量下单%')),
    );

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719, 5_000_000);
  const picked = await pickSpecs(t.db, 719, { count: 3, stock: 50 });
  const values = await t.db
    .select({ id: productSpecification.id, value: productSpecification.specificationValue })
    .from(productSpecification)
    .where(
      inArray(
        productSpecification.id,
        picked.map((p) => p.specificationId),
      ),
    );
  goods = picked.map((p) => ({ ...p, value: values.find((v) => v.id === p.specificationId)?.value ?? '' }));
});
afterAll(async () => {
  await t.close();
});

describe('batch order', () => {
  it('needs a login and a site', async () => {
    const [g] = goods;
    const res = await send('preview', csv([line(g!, 1, alice)]), '');
    expect(res.json().code).toBe(401);
  });

  it('serves a template that reads back as a sheet with only its example row', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${shopUrl(batchApi.template)}?siteId=719`,
      headers: { token: me.token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('attachment');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['批量下单', '填写说明']);
    expect((wb.worksheets[0]?.getRow(1).values as string[]).slice(1)).toEqual(HEADER);
    expect(wb.worksheets[0]?.rowCount).toBe(2);
    // The example row alone is nothing to order.
    await expect(readSheet(res.rawPayload)).rejects.toThrow('没有需要下单的行');
    // The template filled in (example row kept) is a good sheet.
    const ws = wb.worksheets[0]!;
    ws.addRow(line(goods[0]!, 2, alice));
    const filled = Buffer.from(await wb.xlsx.writeBuffer());
    const answer = await preview(filled);
    expect(answer.code).toBe(200);
    expect(answer.data.rows).toHaveLength(1);
    expect(answer.data.rows[0]?.rowNo).toBe(3);
    expect(answer.data.errorCount).toBe(0);
  });

  it('previews a good csv: rows priced, grouped per recipient, freight and balance', async () => {
    const [a, b] = goods as [PickedSpec & { value: string }, PickedSpec & { value: string }];
    const sheet = csv([line(a, 2, alice), line(b, 1, alice), line(a, 1, bob, SHANGHAI)]);
    const { code, data } = await preview(sheet);
    expect(code).toBe(200);
    expect(data.errorCount).toBe(0);
    expect(data.rows.map((r) => r.groupNo)).toEqual([1, 1, 2]);
    expect(data.rows[0]).toMatchObject({
      productId: a.productId,
      specificationId: a.specificationId,
      price: a.price,
    });
    expect(data.rows[0]?.amount).toBe(a.price * 2);
    expect(data.groups).toHaveLength(2);
    expect(data.groups[0]).toMatchObject({
      consignee: '王小明',
      rowNos: [2, 3],
      goodsAmount: a.price * 2 + b.price,
    });
    expect(data.groups[1]?.address).toBe('上海市 浦东新区 世纪大道 100 号');
    for (const g of data.groups) expect(g.totalAmount).toBe(g.goodsAmount + g.freightAmount);
    expect(data.totalAmount).toBe(data.groups.reduce((s, g) => s + g.totalAmount, 0));
    expect(data.balance).toBe(5_000_000);
    expect(data.isBalanceEnough).toBe(true);
  });

  it('reports a bad row by number with the reason, the others fine (xlsx)', async () => {
    const [a, b] = goods as [PickedSpec & { value: string }, PickedSpec & { value: string }];
    const sheet = await xlsx([
      line(a, 1, alice),
      [a.productId, a.value, 0, '张三', '12345', '江苏省', '杭州市', '西湖区', ''],
      line(b, 1, bob),
      ['不存在的商品名称', '', 1, ...bob, ...NANJING],
    ]);
    const { code, data } = await preview(sheet);
    expect(code).toBe(200);
    expect(data.errorCount).toBe(2);
    const bad = data.rows.find((r) => r.rowNo === 3);
    expect(bad?.errors).toEqual([
      '数量须为 1-999 的整数',
      '手机号须为 11 位数字，以 1 开头',
      '城市“杭州市”不属于江苏省',
      '详细地址须为 1-120 个字',
    ]);
    expect(bad?.groupNo).toBeNull();
    expect(data.rows.find((r) => r.rowNo === 5)?.errors).toEqual([
      '商品“不存在的商品名称”不存在或本站未销售',
    ]);
    expect(data.rows.filter((r) => r.errors.length === 0).map((r) => r.rowNo)).toEqual([2, 4]);
    // A sheet with wrong rows is not submitted at all.
    const refused = await submit(sheet);
    expect(refused.code).not.toBe(200);
    expect(refused.msg).toContain('第 3 行');
    expect(await batchOrders()).toHaveLength(0);
  });

  it('finds products by name and specifications by id, and checks stock and quantity', async () => {
    const [a] = goods as [PickedSpec & { value: string }];
    const [named] = await t.db
      .select({ name: productSpecification.specificationValue })
      .from(productSpecification)
      .where(eq(productSpecification.id, a.specificationId));
    expect(named).toBeDefined();
    const { data } = await preview(
      csv([
        [a.productId, a.specificationId, 1, ...alice, ...NANJING],
        [a.productId, '没有这个规格', 1, ...alice, ...NANJING],
        [a.productId, a.value, 51, ...alice, ...NANJING],
        [a.productId, a.value, '1.5', ...alice, ...NANJING],
      ]),
    );
    expect(data.rows[0]?.errors).toEqual([]);
    expect(data.rows[0]?.specificationId).toBe(a.specificationId);
    expect(data.rows[1]?.errors[0]).toContain('规格“没有这个规格”不存在');
    expect(data.rows[2]?.errors).toEqual(['库存不足，仅剩 50 件']);
    expect(data.rows[3]?.errors).toEqual(['数量须为 1-999 的整数']);
  });

  it("refuses another site's product", async () => {
    const on719 = t.db
      .select({ id: siteProduct.productId })
      .from(siteProduct)
      .where(eq(siteProduct.siteId, 719));
    const ids719 = new Set((await on719).map((r) => r.id));
    const elsewhere = await t.db
      .select({ id: siteProduct.productId })
      .from(siteProduct)
      .where(eq(siteProduct.siteId, 10110));
    let foreign = elsewhere.find((r) => !ids719.has(r.id))?.id;
    if (!foreign) {
      foreign = elsewhere[0]?.id ?? 0;
      await t.db
        .delete(siteProduct)
        .where(and(eq(siteProduct.siteId, 719), eq(siteProduct.productId, foreign)));
    }
    const { data } = await preview(csv([[foreign, '', 1, ...alice, ...NANJING]]));
    expect(data.rows[0]?.errors).toEqual([`商品“${foreign}”不存在或本站未销售`]);
    expect(data.rows[0]?.price).toBe(0);
  });

  it('refuses a forged or broken file by its content', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64, 1),
    ]);
    expect((await preview(png)).msg).toBe('文件格式不支持，请上传 xlsx 或 UTF-8 编码的 csv 文件');
    const gbk = Buffer.from([0xc9, 0xcc, 0xc6, 0xb7, 0x2c, 0xb9, 0xe6, 0xb8, 0xf1]);
    expect((await preview(gbk)).msg).toBe('文件格式不支持，请上传 xlsx 或 UTF-8 编码的 csv 文件');
    const fakeZip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100, 7)]);
    expect((await preview(fakeZip)).msg).toBe('无法读取 xlsx 文件，请使用下载的模板填写');
    expect((await preview(Buffer.from('a,b,c\n1,2,3\n'))).msg).toBe('未找到表头，请使用下载的模板填写');
    expect(await preview(Buffer.from(`${HEADER.join(',')}\n"1001,,1\n`))).toMatchObject({
      code: 400,
      msg: 'CSV 格式不正确：引号没有闭合或位置不对，请检查文件',
    });
    expect((await preview(Buffer.alloc(1024 * 1024 + 1, 0x41))).msg).toBe('文件不能超过 1 MB');
    const many = csv(Array.from({ length: 501 }, () => line(goods[0]!, 1, alice)));
    expect((await preview(many)).msg).toBe('一次最多 500 行，请分批上传');
  });

  it('submits one order per recipient; submitting the batch again makes no duplicates', async () => {
    const [a, b] = goods as [PickedSpec & { value: string }, PickedSpec & { value: string }];
    await setStock(t.db, [a.specificationId, b.specificationId], 50);
    const sheet = csv([line(a, 2, alice), line(b, 1, alice), line(a, 3, bob, SHANGHAI)]);
    const first = await submit(sheet);
    expect(first.code).toBe(200);
    expect(first.data.successCount).toBe(2);
    expect(first.data.failureCount).toBe(0);
    const orderNos = first.data.results.map((r) => r.orderNo);
    expect(orderNos.every((n) => typeof n === 'string')).toBe(true);
    expect(await stockOf(t.db, a.specificationId)).toBe(45);

    const detail = (
      await api.post<OrderDetail>(orderApi.orderDetail.path, { siteId: 719, orderNo: orderNos[1] }, me.token)
    ).body.data;
    expect(detail.status).toBe(0);
    expect(detail.address).toMatchObject({
      consignee: '李小红',
      provinceName: '上海市',
      districtName: '浦东新区',
    });

    const again = await submit(sheet);
    expect(again.data.results.map((r) => r.orderNo)).toEqual(orderNos);
    expect(await batchOrders()).toHaveLength(2);
    expect(await stockOf(t.db, a.specificationId)).toBe(45);
    // The same rows as xlsx are the same batch.
    const asXlsx = await submit(
      await xlsx([line(a, 2, alice), line(b, 1, alice), line(a, 3, bob, SHANGHAI)]),
    );
    expect(asXlsx.data.results.map((r) => r.orderNo)).toEqual(orderNos);
    expect(await batchOrders()).toHaveLength(2);

    const report = await send('report', sheet);
    expect(report.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(report.rawPayload as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(3);
    expect(ws.getRow(2).getCell(6).text).toBe(orderNos[0]);
    expect(ws.getRow(2).getCell(5).text).toBe('已下单');
  });

  it('is all-or-nothing per recipient: a sold-out line fails its recipient only', async () => {
    const [a, b, c] = goods as [
      PickedSpec & { value: string },
      PickedSpec & { value: string },
      PickedSpec & { value: string },
    ];
    await setStock(t.db, [a.specificationId, b.specificationId, c.specificationId], 10);
    const carol = ['赵小刚', '13911110003'];
    const sheet = csv([line(a, 1, carol), line(c, 2, carol), line(b, 2, bob)]);
    expect((await preview(sheet)).data.errorCount).toBe(0);
    // Sold out between preview and submit.
    await setStock(t.db, [c.specificationId], 1);
    const { code, data } = await submit(sheet);
    expect(code).toBe(200);
    expect(data.successCount).toBe(1);
    expect(data.failureCount).toBe(1);
    const [forCarol, forBob] = data.results;
    expect(forCarol).toMatchObject({ consignee: '赵小刚', isSuccess: false, orderNo: null });
    expect(forCarol?.msg).toContain('库存不足');
    expect(forBob).toMatchObject({ consignee: '李小红', isSuccess: true });
    // Carol's other line kept its stock; Bob's order took his.
    expect(await stockOf(t.db, a.specificationId)).toBe(10);
    expect(await stockOf(t.db, c.specificationId)).toBe(1);
    expect(await stockOf(t.db, b.specificationId)).toBe(8);

    const report = await send('report', sheet);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(report.rawPayload as unknown as ExcelJS.Buffer);
    expect(wb.worksheets[0]?.getRow(2).getCell(5).text).toBe('未下单');
    expect(wb.worksheets[0]?.getRow(3).getCell(6).text).toBe(forBob?.orderNo);
  });
});
