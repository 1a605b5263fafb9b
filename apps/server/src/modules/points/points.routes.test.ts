import { pointsApi } from '@sitemall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { postEntry } from './points.service';

let t: TestApp;
let api: ReturnType<typeof client>;
let token719: string;
let token1000: string;
let member719: number;

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  const login = await api.pwdLogin(719, '13800000719', 'Demo0719');
  token719 = login.body.data.token;
  member719 = login.body.data.user.id;
  token1000 = await api.tokenOf(1000, '13800001000', 'Demo1000');
  await postEntry(t.db, { siteId: 719, memberId: member719, amount: 50_000, type: 'issue', note: '开卡礼' });
  await postEntry(t.db, {
    siteId: 719,
    memberId: member719,
    amount: -12_990,
    type: 'pay',
    orderNo: 'SO202611210001',
  });
});
afterAll(() => t.close());

describe('points routes', () => {
  it('answers the member balance and ledger, newest first', async () => {
    const balance = await api.post(pointsApi.balance.path, { siteId: 719 }, token719);
    expect(balance.body).toMatchObject({ code: 200, data: { balance: 1_037_010 } });
    const bills = await api.post<{
      list: { amount: number; typeName: string; orderNo: string | null }[];
      total: number;
    }>(pointsApi.billList.path, { siteId: 719 }, token719);
    expect(bills.body.data.total).toBe(3);
    expect(bills.body.data.list.map((b) => [b.amount, b.typeName, b.orderNo])).toEqual([
      [-12_990, '积分支付', 'SO202611210001'],
      [50_000, '积分发放', null],
      [1_000_000, '积分发放', null],
    ]);
  });

  it('filters by type and by day', async () => {
    const pay = await api.post<{ total: number }>(
      pointsApi.billList.path,
      { siteId: 719, type: 'pay' },
      token719,
    );
    expect(pay.body.data.total).toBe(1);
    const past = await api.post<{ total: number }>(
      pointsApi.billList.path,
      { siteId: 719, startDate: '2020-01-01', endDate: '2020-12-31' },
      token719,
    );
    expect(past.body.data.total).toBe(0);
  });

  it("shows another site's member only their own ledger", async () => {
    const balance = await api.post(pointsApi.balance.path, { siteId: 1000 }, token1000);
    expect(balance.body.data).toEqual({ balance: 50_000 });
    const bills = await api.post<{ list: { note: string }[] }>(
      pointsApi.billList.path,
      { siteId: 1000 },
      token1000,
    );
    expect(bills.body.data.list.map((b) => b.note)).toEqual(['开户赠送积分']);
    // A token of site 1000 presented on site 719 is not valid there.
    expect((await api.post(pointsApi.balance.path, { siteId: 719 }, token1000)).body.code).toBe(416);
  });

  it('needs a login and refuses bad filters', async () => {
    expect((await api.post(pointsApi.billList.path, { siteId: 719 })).body.code).toBe(401);
    for (const bad of [{ type: 'gift' }, { startDate: '2026-13-01' }, { pageNum: 0 }, { pageNum: 100_000 }]) {
      const { body } = await api.post(pointsApi.billList.path, { siteId: 719, ...bad }, token719);
      expect(body).toMatchObject({ code: 400, success: false });
    }
  });
});
