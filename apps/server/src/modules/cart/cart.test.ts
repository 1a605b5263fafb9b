import { type Cart, cartApi } from '@sitemall/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../test/harness';
import { sitePrice, siteProduct } from '../catalog/catalog.tables';
import { client } from '../identity/identity.fixtures';
import { buyer, type PickedSpec, pickSpecs, setStock } from '../order/order.fixtures';
import { cartLine } from './cart.tables';

let t: TestApp;
let api: ReturnType<typeof client>;
let me: { id: number; token: string };
let other: { id: number; token: string };
let specs: PickedSpec[];

const cart = async (token = me.token) =>
  (await api.post<{ obj: Cart }>(cartApi.getCartProduct.path, { siteId: 719 }, token)).body;
const add = (productInfo: unknown, token = me.token) =>
  api.post<{ obj: Cart }>(cartApi.submitCart.path, { siteId: 719, repeat: true, productInfo }, token);
const line = (s: PickedSpec, num?: number) => ({
  productId: s.productId,
  specificationId: s.specificationId,
  ...(num === undefined ? {} : { num }),
});

beforeAll(async () => {
  t = await testApp();
  api = client(t);
  me = await buyer(t, 719);
  other = await buyer(t, 719);
  specs = await pickSpecs(t.db, 719, { count: 3, stock: 50 });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(cartLine);
  await setStock(
    t.db,
    specs.map((s) => s.specificationId),
    50,
  );
});

describe('cart', () => {
  it('adds lines with a default quantity of 1 and sums a line added again', async () => {
    const first = await add(JSON.stringify(line(specs[0]!)));
    expect(first.body).toMatchObject({ code: 200, msg: '加入购物车成功' });
    expect(first.body.data.obj.list).toHaveLength(1);
    expect(first.body.data.obj.list[0]).toMatchObject({ itemId: specs[0]!.productId, num: 1, isValid: true });
    await add(line(specs[0]!, 3));
    const body = await cart();
    expect(body.data.obj.list).toHaveLength(1);
    expect(body.data.obj.list[0]).toMatchObject({
      num: 4,
      specificationId: specs[0]!.specificationId,
      price: specs[0]!.price,
    });
    expect(body.data.obj.list[0]!.productSpecifications.length).toBeGreaterThan(0);
    expect(body.data.obj.count).toBe(4);
    expect(body.data.obj.selectedAmount).toBe(4 * specs[0]!.price);
    const count = await api.post(cartApi.cartCount.path, { siteId: 719 }, me.token);
    expect(count.body.data).toEqual({ count: 4 });
  });

  it('merges a guest cart into the member cart, summing quantities', async () => {
    await add(line(specs[0]!, 2));
    const merged = await api.post<{ obj: Cart }>(
      cartApi.mergeCart.path,
      { siteId: 719, productInfos: JSON.stringify([line(specs[0]!, 3), line(specs[1]!, 1)]) },
      me.token,
    );
    expect(merged.body.code).toBe(200);
    const nums = Object.fromEntries(merged.body.data.obj.list.map((l) => [l.specificationId, l.num]));
    expect(nums).toEqual({ [specs[0]!.specificationId]: 5, [specs[1]!.specificationId]: 1 });
  });

  it('merges only where the site keeps a guest cart', async () => {
    const token = await api.tokenOf(10110, '13800010110', 'Demo10110');
    const merged = await api.post(
      cartApi.mergeCart.path,
      { siteId: 10110, productInfos: [line(specs[0]!, 1)] },
      token,
    );
    expect(merged.body).toMatchObject({ success: false, msg: '本站不支持游客购物车' });
  });

  it('changes quantities, selects and removes lines', async () => {
    await add([line(specs[0]!, 1), line(specs[1]!, 1), line(specs[2]!, 1)]);
    const ids = (await cart()).data.obj.list.map((l) => l.id);
    const updated = await api.post<{ obj: Cart }>(
      cartApi.updateNum.path,
      { siteId: 719, id: ids[0], num: 7 },
      me.token,
    );
    expect(updated.body.data.obj.list.find((l) => l.id === ids[0])?.num).toBe(7);
    const unselected = await api.post<{ obj: Cart }>(
      cartApi.selectCart.path,
      { siteId: 719, ids: String(ids[1]), isSelected: false },
      me.token,
    );
    expect(unselected.body.data.obj.selectedCount).toBe(8);
    const removed = await api.post<{ obj: Cart }>(
      cartApi.deleteCart.path,
      { siteId: 719, ids: [ids[0], ids[2]] },
      me.token,
    );
    expect(removed.body.data.obj.list.map((l) => l.id)).toEqual([ids[1]]);
  });

  it('refuses an add that stock or the purchase limit stops, with the reason, and adds nothing', async () => {
    await setStock(t.db, [specs[1]!.specificationId], 3);
    await add([line(specs[1]!, 2)]);
    const over = await api.post(
      cartApi.submitCart.path,
      { siteId: 719, productInfo: [line(specs[1]!, 2)] },
      me.token,
    );
    expect(over.body).toMatchObject({ success: false, msg: '库存不足，仅剩 3 件' });
    await t.db.update(siteProduct).set({ limitNum: 2 }).where(eq(siteProduct.productId, specs[1]!.productId));
    const limited = await api.post(
      cartApi.submitCart.path,
      { siteId: 719, productInfo: [line(specs[1]!, 1)] },
      me.token,
    );
    expect(limited.body).toMatchObject({ success: false, msg: '该商品每单限购 2 件' });
    await t.db.update(siteProduct).set({ limitNum: 0 }).where(eq(siteProduct.productId, specs[1]!.productId));
    const { list } = (await cart()).data.obj;
    expect(list.find((l) => l.specificationId === specs[1]!.specificationId)?.num).toBe(2);
  });

  it('re-checks each line live: current price, stock, sale and limit', async () => {
    await add([line(specs[0]!, 3), line(specs[1]!, 2), line(specs[2]!, 1)]);
    await t.db
      .update(sitePrice)
      .set({ price: 1234 })
      .where(eq(sitePrice.specificationId, specs[0]!.specificationId));
    await setStock(t.db, [specs[1]!.specificationId], 1);
    await t.db
      .update(siteProduct)
      .set({ isOnSale: false })
      .where(eq(siteProduct.productId, specs[2]!.productId));
    const { list } = (await cart()).data.obj;
    const by = (s: PickedSpec) => list.find((l) => l.specificationId === s.specificationId)!;
    expect(by(specs[0]!)).toMatchObject({ price: 1234, isValid: true });
    expect(by(specs[1]!)).toMatchObject({ stock: 1, isValid: false, msg: '库存不足，仅剩 1 件' });
    expect(by(specs[2]!)).toMatchObject({ isOnSale: false, isValid: false, msg: '商品不存在或已下架' });
    await t.db
      .update(siteProduct)
      .set({ isOnSale: true })
      .where(eq(siteProduct.productId, specs[2]!.productId));
    await t.db
      .update(sitePrice)
      .set({ price: specs[0]!.price })
      .where(eq(sitePrice.specificationId, specs[0]!.specificationId));
  });

  it('refuses zero, negative, fractional, huge and non-numeric quantities and changes nothing', async () => {
    await add(line(specs[0]!, 2));
    const id = (await cart()).data.obj.list[0]!.id;
    for (const num of [0, -1, 1.5, 1000, 100_000_000, 'abc']) {
      const added = await add(JSON.stringify(line(specs[0]!, num as number)));
      expect(added.body).toMatchObject({ success: false, code: 400 });
      const updated = await api.post(cartApi.updateNum.path, { siteId: 719, id, num }, me.token);
      expect(updated.body).toMatchObject({ success: false, code: 400 });
    }
    const merged = await api.post(
      cartApi.mergeCart.path,
      { siteId: 719, productInfos: [line(specs[1]!, 1), line(specs[0]!, -5)] },
      me.token,
    );
    expect(merged.body.success).toBe(false);
    const body = await cart();
    expect(body.data.obj.list.map((l) => [l.specificationId, l.num])).toEqual([
      [specs[0]!.specificationId, 2],
    ]);
  });

  it('reads ids in lists by the contract rule: "1, 2" and ["1"] yes, hex, exponents and fractions no', async () => {
    await add([line(specs[0]!, 1), line(specs[1]!, 1)]);
    const [a, b] = (await cart()).data.obj.list.map((l) => l.id);
    for (const ids of [`0x${a!.toString(16)}`, `${a}e0`, `${a}.0`, `[${a}.5]`, `["${a}", true]`, '', ' , ']) {
      const res = await api.post(cartApi.deleteCart.path, { siteId: 719, ids }, me.token);
      expect(res.body, ids).toMatchObject({ success: false, code: 400, msg: '参数 ids 格式不正确' });
    }
    expect((await cart()).data.obj.list).toHaveLength(2);
    const selected = await api.post<{ obj: Cart }>(
      cartApi.selectCart.path,
      { siteId: 719, ids: `${a}, ${b}`, isSelected: false },
      me.token,
    );
    expect(selected.body.data.obj.selectedCount).toBe(0);
    const removed = await api.post<{ obj: Cart }>(
      cartApi.deleteCart.path,
      { siteId: 719, ids: `["${a}"]` },
      me.token,
    );
    expect(removed.body.data.obj.list.map((l) => l.id)).toEqual([b]);
  });

  it("refuses another member's lines and products the site does not sell", async () => {
    await add(line(specs[0]!, 2), other.token);
    const theirs = (await cart(other.token)).data.obj.list[0]!.id;
    await add(line(specs[1]!, 1));
    const mine = (await cart()).data.obj.list[0]!.id;
    for (const [url, payload] of [
      [cartApi.updateNum.path, { id: theirs, num: 9 }],
      [cartApi.deleteCart.path, { ids: [mine, theirs] }],
      [cartApi.selectCart.path, { ids: [theirs], isSelected: false }],
    ] as const) {
      const { body } = await api.post(url, { siteId: 719, ...payload }, me.token);
      expect(body).toMatchObject({ success: false, msg: '购物车商品不存在' });
    }
    expect((await cart(other.token)).data.obj.list[0]).toMatchObject({ num: 2, isSelected: true });
    expect((await cart()).data.obj.list).toHaveLength(1);
    // A specification of another product, or a product this site does not sell.
    const wrong = await add({ productId: specs[1]!.productId, specificationId: specs[0]!.specificationId });
    expect(wrong.body).toMatchObject({ success: false, msg: '商品不存在或已下架' });
    // A token of site 719 is not valid on site 1000.
    const elsewhere = await api.post(cartApi.getCartProduct.path, { siteId: 1000 }, me.token);
    expect(elsewhere.body.code).toBe(416);
    expect((await api.post(cartApi.getCartProduct.path, { siteId: 719 })).body.code).toBe(401);
  });
});
