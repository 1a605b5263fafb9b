import { type Address, addressApi, type District } from '@sitemall/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, NANJING, URUMQI } from '../order/order.fixtures';
import { memberAddress } from './address.tables';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: { token: string };
let other: { token: string };
let elsewhere: { token: string };

const save = (payload: object, token = me.token) =>
  api.post<Address>(addressApi.save.path, { siteId: 719, ...payload }, token);
const list = async (token = me.token, siteId = 719) =>
  (await api.post<{ list: Address[] }>(addressApi.list.path, { siteId }, token)).body.data.list;

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719);
  other = await buyer(t, 719);
  elsewhere = await buyer(t, 1000);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(memberAddress);
});

describe('addresses', () => {
  it('saves addresses with names from the GB/T 2260 codes; the first is the default', async () => {
    const first = await save(NANJING);
    expect(first.body).toMatchObject({
      code: 200,
      data: { provinceName: '江苏省', cityName: '南京市', districtName: '玄武区', isDefault: true },
    });
    const second = await save({ ...URUMQI, isDefault: true });
    expect(second.body.data).toMatchObject({ provinceName: '新疆维吾尔自治区', isDefault: true });
    const all = await list();
    expect(all.filter((a) => a.isDefault).map((a) => a.id)).toEqual([second.body.data.id]);
    const updated = await save({ ...NANJING, id: first.body.data.id, detail: '中山路 2 号' });
    expect(updated.body.data).toMatchObject({ detail: '中山路 2 号', isDefault: false });
    const def = await api.post<Address>(addressApi.getDefault.path, { siteId: 719 }, me.token);
    expect(def.body.data?.id).toBe(second.body.data.id);
    const set = await api.post<Address>(
      addressApi.setDefault.path,
      { siteId: 719, id: first.body.data.id },
      me.token,
    );
    expect(set.body.data.isDefault).toBe(true);
    expect((await list()).filter((a) => a.isDefault).map((a) => a.id)).toEqual([first.body.data.id]);
    const deleted = await api.post(
      addressApi.delete.path,
      { siteId: 719, id: second.body.data.id },
      me.token,
    );
    expect(deleted.body.code).toBe(200);
    expect((await list()).map((a) => a.id)).toEqual([first.body.data.id]);
  });

  it('refuses bad phones, names and districts that do not belong together', async () => {
    for (const bad of [
      { phone: '23912345678' },
      { phone: '1391234567' },
      { phone: '139123456789' },
      { consignee: '   ' },
      { cityCode: '330100', districtCode: '330102' },
      { districtCode: '320202' },
      { districtCode: '' },
      { provinceCode: '999999' },
    ]) {
      const { body } = await save({ ...NANJING, ...bad });
      expect(body.success, JSON.stringify(bad)).toBe(false);
      expect(body.code).toBe(400);
    }
    expect(await list()).toEqual([]);
    // A city without districts (Dongguan) needs none.
    const dongguan = await save({ ...NANJING, provinceCode: '440000', cityCode: '441900', districtCode: '' });
    expect(dongguan.body.data).toMatchObject({ cityName: '东莞市', districtName: '' });
  });

  it('lets a member see and change only their own addresses, on their own site', async () => {
    const theirs = (await save(NANJING, other.token)).body.data;
    for (const [url, payload] of [
      [addressApi.save.path, { ...URUMQI, id: theirs.id }],
      [addressApi.delete.path, { id: theirs.id }],
      [addressApi.setDefault.path, { id: theirs.id }],
    ] as const) {
      const { body } = await api.post(url, { siteId: 719, ...payload }, me.token);
      expect(body).toMatchObject({ success: false, msg: '收货地址不存在' });
    }
    expect(await list()).toEqual([]);
    expect(await list(other.token)).toEqual([theirs]);
    expect(await list(elsewhere.token, 1000)).toEqual([]);
    const { body } = await api.post(addressApi.delete.path, { siteId: 1000, id: theirs.id }, elsewhere.token);
    expect(body.msg).toBe('收货地址不存在');
    expect((await api.post(addressApi.list.path, { siteId: 719 }, elsewhere.token)).body.code).toBe(416);
  });

  it('keeps one default under parallel set-default calls', async () => {
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push((await save({ ...NANJING, detail: `第 ${i} 号` })).body.data.id);
    const answers = await Promise.all(
      ids.flatMap((id) =>
        [1, 2].map(() => api.post(addressApi.setDefault.path, { siteId: 719, id }, me.token)),
      ),
    );
    expect(answers.every((a) => a.body.code === 200)).toBe(true);
    expect((await list()).filter((a) => a.isDefault)).toHaveLength(1);
  });

  it('lists provinces, cities and districts from the national standard', async () => {
    const districts = async (parentCode?: string) =>
      (await api.post<{ list: District[] }>(addressApi.districtList.path, { siteId: 719, parentCode })).body
        .data.list;
    const provinces = await districts();
    expect(provinces.length).toBeGreaterThanOrEqual(31);
    expect(provinces).toContainEqual({ code: '320000', name: '江苏省', hasChildren: true });
    expect(await districts('110000')).toEqual([{ code: '110100', name: '北京市', hasChildren: true }]);
    expect((await districts('320100')).map((d) => d.name)).toContain('玄武区');
    expect(await districts('999999')).toEqual([]);
  });
});
