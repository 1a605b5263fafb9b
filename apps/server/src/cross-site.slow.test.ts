import { addressApi, cartApi, orderApi } from '@sitemall/contract';
import { inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMBERS } from './db/demo/members';
import { memberAddress } from './modules/address/address.tables';
import { cartLine } from './modules/cart/cart.tables';
import { client } from './modules/identity/identity.fixtures';
import { buyer, NANJING, type PickedSpec, pickSpecs } from './modules/order/order.fixtures';
import { childOrder, mallOrder, orderLine } from './modules/order/order.tables';
import { wechatCode } from './modules/payment/payment.tables';
import { postEntry } from './modules/points/points.service';
import { pointsAccount, pointsEntry } from './modules/points/points.tables';
import { type JsonSchema, plausible } from './test/fuzz';
import { type TestApp, testApp } from './test/harness';

/**
 * Every POST route with a member token (the member routes and those that use a token when one
 * comes) × the three demo members (and a second member of site 719) × the other
 * members' objects (addresses, cart lines, pending, paid and child orders), made first through
 * the normal APIs: no answer carries anything of another member, and no row of another member
 * changes.
 */

interface Actor {
  name: string;
  siteId: number;
  id: number;
  phone: string;
  token: string;
  spec: PickedSpec;
  addressId: number;
  addressDetail: string;
  cartLineId: number;
  orderNo: string;
  paidOrderNo: string;
  childOrderNo: string;
}

interface Operation {
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** Calls whose effect is on the caller's own session only. */
const SKIPPED = /\/logout$/;

describe('cross-site and cross-member matrix', () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  const actors: Actor[] = [];
  /** Every POST route: those that need a member, and those that only use one when a token comes. */
  const routes: { path: string; properties: Record<string, JsonSchema>; required: Set<string> }[] = [];
  let memberOnly = 0;

  async function makeActor(
    name: string,
    siteId: number,
    member: { id: number; phone: string; token: string },
  ) {
    const n = actors.length + 1;
    await postEntry(t.db, {
      siteId,
      memberId: member.id,
      amount: 100_000_000,
      type: 'issue',
      note: '测试发放',
    });
    const [spec, other] = await pickSpecs(t.db, siteId, { count: 2, stock: 500 });
    if (!spec || !other) throw new Error('no goods');
    const must = async <T>(url: string, payload: object) => {
      const res = await api.post<T>(url, { siteId, ...payload }, member.token);
      if (res.body.code !== 200) throw new Error(`${name} ${url}: ${res.body.msg}`);
      return res.body.data;
    };
    const addressDetail = `保密大街${n}号${name}`;
    const address = await must<{ id: number }>(addressApi.save.path, {
      ...NANJING,
      consignee: `收件人${n}`,
      detail: addressDetail,
    });
    const cart = await must<{ obj: { list: { id: number }[] } }>(cartApi.submitCart.path, {
      productInfo: { productId: spec.productId, specificationId: spec.specificationId, num: 1 },
    });
    const line = { productId: other.productId, specificationId: other.specificationId, num: 1 };
    const pending = await must<{ orderNo: string; childOrderNo: string[] }>(orderApi.submitOrder.path, {
      productInfos: [line],
      addressId: address.id,
    });
    const paid = await must<{ orderNo: string }>(orderApi.submitOrder.path, {
      productInfos: [line],
      addressId: address.id,
    });
    await must(orderApi.payOrder.path, { orderNo: paid.orderNo, payWay: 'ye' });
    actors.push({
      name,
      siteId,
      ...member,
      spec,
      addressId: address.id,
      addressDetail,
      cartLineId: cart.obj.list[0]?.id ?? 0,
      orderNo: pending.orderNo,
      paidOrderNo: paid.orderNo,
      childOrderNo: pending.childOrderNo[0] ?? '',
    });
  }

  beforeAll(async () => {
    t = await testApp();
    api = client(t);
    for (const demo of DEMO_MEMBERS) {
      const phone = demo.phone ?? '';
      const login = await api.pwdLogin(demo.siteId, phone, demo.password);
      if (login.body.code !== 200) throw new Error(`demo ${demo.siteId}: ${login.body.msg}`);
      await makeActor(`demo${demo.siteId}`, demo.siteId, {
        id: login.body.data.user.id,
        phone,
        token: login.body.data.token,
      });
    }
    await makeActor('second719', 719, await buyer(t, 719));

    const docs = (await t.app.inject({ method: 'GET', url: '/front-mall-api/docs/json' })).json() as {
      paths: Record<string, { post?: Operation }>;
    };
    for (const [path, ops] of Object.entries(docs.paths)) {
      if (!path.startsWith('/front-mall-api/') || !ops.post || SKIPPED.test(path)) continue;
      const schema = Object.values(ops.post.requestBody?.content ?? {})[0]?.schema;
      const properties = schema?.properties ?? {};
      const required = new Set(schema?.required ?? []);
      const probe = await api.post(path.replace('/front-mall-api', ''), {
        siteId: 719,
        ...Object.fromEntries([...required].map((k) => [k, plausible(properties[k] ?? {}, k, 719)])),
      });
      if (probe.body.code === 401) memberOnly += 1;
      routes.push({ path, properties, required });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The payloads an attacker sends at a victim's objects on one route. */
  function attacks(route: (typeof routes)[number], attacker: Actor, victim: Actor): object[] {
    const { path, properties, required } = route;
    const has = (k: string) => k in properties;
    const base: Record<string, unknown> = {};
    for (const k of required) base[k] = plausible(properties[k] ?? {}, k, attacker.siteId);
    // Valid values for the fields that are not under attack.
    const known: Record<string, unknown> = {
      ...NANJING,
      detail: `攻击者${attacker.name}`,
      payWay: 'ye',
      num: 2,
      isSelected: false,
      reason: '测试',
    };
    for (const [k, v] of Object.entries(known)) if (has(k)) base[k] = v;
    // The victim's objects, by the field names the routes use.
    if (has('id') && path.includes('/address/')) base.id = victim.addressId;
    if (has('id') && path.includes('/productCarts/')) base.id = victim.cartLineId;
    if (has('ids')) base.ids = [victim.cartLineId];
    if (has('addressId')) base.addressId = victim.addressId;
    const line = { productId: victim.spec.productId, specificationId: victim.spec.specificationId, num: 1 };
    let variants: Record<string, unknown>[] = [base];
    if (has('cartIds') || has('productInfos') || has('productInfo')) {
      const { cartIds: _c, productInfos: _p, productInfo: _q, ...rest } = base;
      variants = [
        ...(has('cartIds') ? [{ ...rest, cartIds: [victim.cartLineId] }] : []),
        ...(has('productInfos') ? [{ ...rest, productInfos: [line] }] : []),
        ...(has('productInfo') ? [{ ...rest, productInfo: line }] : []),
      ];
    }
    if (has('payWay'))
      variants = variants.flatMap((v) => ['ye', 'wx_pc'].map((payWay) => ({ ...v, payWay })));
    if (has('orderNo'))
      variants = variants.flatMap((v) =>
        [victim.orderNo, victim.paidOrderNo, victim.childOrderNo].map((orderNo) => ({ ...v, orderNo })),
      );
    // From the attacker's own site, and naming the victim's site with the attacker's token.
    const sites = [...new Set([attacker.siteId, victim.siteId])];
    const siteField = has('siteId') || !has('id') ? 'siteId' : 'id';
    return variants.flatMap((v) => sites.map((siteId) => ({ ...v, [siteField]: siteId })));
  }

  /** Every row of every member but one, as the database holds it. */
  async function othersRows(exceptMemberId: number) {
    const orders = await t.db.select().from(mallOrder).where(ne(mallOrder.memberId, exceptMemberId));
    const orderIds = orders.map((o) => o.id);
    return {
      addresses: await t.db.select().from(memberAddress).where(ne(memberAddress.memberId, exceptMemberId)),
      cart: await t.db.select().from(cartLine).where(ne(cartLine.memberId, exceptMemberId)),
      orders,
      children: orderIds.length
        ? await t.db.select().from(childOrder).where(inArray(childOrder.orderId, orderIds))
        : [],
      lines: orderIds.length
        ? await t.db.select().from(orderLine).where(inArray(orderLine.orderId, orderIds))
        : [],
      accounts: await t.db.select().from(pointsAccount).where(ne(pointsAccount.memberId, exceptMemberId)),
      entries: await t.db.select().from(pointsEntry).where(ne(pointsEntry.memberId, exceptMemberId)),
      wechatCodes: await t.db.select().from(wechatCode).where(ne(wechatCode.memberId, exceptMemberId)),
    };
  }
  const sortById = <T extends { id?: unknown }>(rows: T[]) =>
    [...rows].sort((a, b) => String(a.id).localeCompare(String(b.id)));
  const normalised = (rows: Awaited<ReturnType<typeof othersRows>>) =>
    Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, sortById(v as { id?: unknown }[])]));

  it('finds the member routes and the objects to attack', () => {
    expect(memberOnly).toBeGreaterThan(25);
    expect(routes.length).toBeGreaterThan(80);
    expect(actors.map((a) => a.siteId)).toEqual([719, 10110, 1000, 719]);
    for (const a of actors) expect(a.cartLineId).toBeGreaterThan(0);
  });

  it('no route called with a member token reads or changes another member’s or another site’s objects', async () => {
    const leaks: string[] = [];
    let sent = 0;
    for (const attacker of actors) {
      const before = normalised(await othersRows(attacker.id));
      for (const route of routes) {
        for (const victim of actors) {
          if (victim === attacker) continue;
          const markers = [
            victim.addressDetail,
            victim.orderNo,
            victim.paidOrderNo,
            victim.childOrderNo,
            victim.phone,
          ];
          for (const payload of attacks(route, attacker, victim)) {
            const res = await t.app.inject({
              method: 'POST',
              url: route.path,
              payload,
              headers: { token: attacker.token },
            });
            sent += 1;
            const label = `${attacker.name} → ${victim.name} ${route.path} ${JSON.stringify(payload)}`;
            if (res.statusCode >= 500) leaks.push(`${label}: HTTP ${res.statusCode}`);
            const found = markers.find((m) => m && res.body.includes(m));
            if (found) leaks.push(`${label}: answer contains ${found}`);
          }
        }
      }
      const after = normalised(await othersRows(attacker.id));
      for (const table of Object.keys(before))
        if (JSON.stringify(before[table]) !== JSON.stringify(after[table]))
          leaks.push(`${attacker.name} changed another member's ${table}`);
    }
    expect(leaks).toEqual([]);
    expect(sent).toBeGreaterThan(500);
    // A few seconds alone; the time limit (vitest.config.ts) is generous for a busy shared machine.
  });

  it('the attacked objects were real: each owner still reads them', async () => {
    for (const owner of actors) {
      for (const orderNo of [owner.orderNo, owner.paidOrderNo]) {
        const res = await api.post(orderApi.orderDetail.path, { siteId: owner.siteId, orderNo }, owner.token);
        expect(res.body).toMatchObject({ code: 200, data: { orderNo } });
        expect(JSON.stringify(res.body.data)).toContain(owner.addressDetail);
      }
      const cart = await api.post<{ obj: { list: { id: number }[] } }>(
        cartApi.getCartProduct.path,
        { siteId: owner.siteId },
        owner.token,
      );
      expect(cart.body.data.obj.list.map((l) => l.id)).toContain(owner.cartLineId);
    }
  });
});
