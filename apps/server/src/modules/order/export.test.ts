import { addressApi, orderApi, type PayResult, type SubmitOrderResult, shopUrl } from '@sitemall/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, NANJING, type PickedSpec, pickSpecs } from './order.fixtures';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: { id: number; token: string };
let other: { id: number; token: string };
let goods: PickedSpec[];

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const submit = async (token: string, spec: PickedSpec, num = 1) =>
  (
    await api.post<SubmitOrderResult>(
      orderApi.submitOrder.path,
      {
        siteId: 719,
        productInfos: [{ productId: spec.productId, specificationId: spec.specificationId, num }],
      },
      token,
    )
  ).body.data;
const exportOrders = (payload: object, token = me.token) =>
  t.app.inject({
    method: 'POST',
    url: shopUrl(orderApi.exportOrderList),
    payload: { siteId: 719, ...payload },
    headers: { token },
  });
async function rowsOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { sheet, rows };
}

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719, 10_000_000);
  other = await buyer(t, 719, 10_000_000);
  goods = await pickSpecs(t.db, 719, { count: 2, stock: 50 });
  for (const b of [me, other]) await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, b.token);
});
afterAll(() => t.close());

describe('exportOrderList', () => {
  it('downloads the member’s orders as xlsx, never another member’s', async () => {
    const unpaid = await submit(me.token, goods[0]!, 2);
    const paid = await submit(me.token, goods[1]!);
    const paidAnswer = await api.post<PayResult>(
      orderApi.payOrder.path,
      { siteId: 719, orderNo: paid.orderNo, payWay: 'ye' },
      me.token,
    );
    expect(paidAnswer.body.data.isPaid).toBe(true);
    const foreign = await submit(other.token, goods[0]!);

    const res = await exportOrders({});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{8}\.xlsx"$/);
    const { sheet, rows } = await rowsOf(res.rawPayload);
    expect(rows[0]).toEqual(['订单号', '下单时间', '订单状态', '实付金额（积分）', '商品', '收货人']);
    expect(rows.map((r) => r[0])).toEqual(['订单号', paid.orderNo, unpaid.orderNo]);
    expect(rows.flat().join()).not.toContain(foreign.orderNo);
    const [, first, second] = rows as unknown[][];
    expect(first![2]).toBe('确认中');
    expect(second![2]).toBe('待付款');
    expect(first![3]).toBe(paid.payAmount / 100);
    expect(sheet.getCell('D2').numFmt).toBe('0.00');
    expect(String(first![1])).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(String(second![4])).toMatch(/×2$/);
    expect(first![5]).toContain('张三 13912345678');
    expect(first![5]).toContain('中山路 1 号');

    const onlyPaid = await rowsOf((await exportOrders({ status: 24 })).rawPayload);
    expect(onlyPaid.rows.map((r) => r[0])).toEqual(['订单号', paid.orderNo]);
    const unpaidTab = await rowsOf((await exportOrders({ tab: 'pendingPayment' })).rawPayload);
    expect(unpaidTab.rows.map((r) => r[0])).toEqual(['订单号', unpaid.orderNo]);
  });

  it('answers the envelope when it cannot export', async () => {
    const res = await exportOrders({}, 'no-such-token');
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.json().code).toBe(401);
    const bad = await exportOrders({ status: 'x' });
    expect(bad.json().code).toBe(400);
  });
});
