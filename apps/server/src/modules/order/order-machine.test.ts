import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  addressApi,
  canMove,
  ORDER_STATUS,
  ORDER_TRANSITIONS,
  orderApi,
  type SubmitOrderResult,
} from '@sitemall/contract';
import { asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors';
import { RolledBack, type TestApp, testApp } from '../../test/harness';
import { client } from '../identity/identity.fixtures';
import { buyer, NANJING, pickSpecs } from './order.fixtures';
import { moveOrders } from './order.service';
import { childOrder, mallOrder, orderStatusLog } from './order.tables';

/**
 * The server keeps to the contract's order state machine: moveOrders moves every edge of
 * ORDER_TRANSITIONS and refuses every other pair, on the real database; no other code writes
 * an order's status; ARCHITECTURE.md draws the same table.
 */

const STATUSES = Object.values(ORDER_STATUS) as number[];
const PAIRS = STATUSES.flatMap((from) => STATUSES.map((to) => ({ from, to })));

let t: TestApp;
let orderId: number;
let memberId: number;
let childIds: number[];

/** Test arrangement: puts the order and its child orders in `status` (what a history would have). */
async function place(status: number) {
  await t.db.update(mallOrder).set({ status }).where(eq(mallOrder.id, orderId));
  await t.db.update(childOrder).set({ status }).where(eq(childOrder.orderId, orderId));
}
async function state() {
  const [order] = await t.db
    .select({ status: mallOrder.status })
    .from(mallOrder)
    .where(eq(mallOrder.id, orderId));
  const children = await t.db
    .select({ status: childOrder.status })
    .from(childOrder)
    .where(eq(childOrder.orderId, orderId))
    .orderBy(asc(childOrder.id));
  const [logs] = await t.db
    .select({ n: count() })
    .from(orderStatusLog)
    .where(eq(orderStatusLog.orderId, orderId));
  return { status: order?.status, children: children.map((c) => c.status), logs: logs?.n ?? 0 };
}
const refusalOf = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
};

beforeAll(async () => {
  t = await testApp();
  const api = client(t);
  const me = await buyer(t, 719, 1_000_000);
  memberId = me.id;
  const goods = await pickSpecs(t.db, 719, { count: 2, stock: 50 });
  await api.post(addressApi.save.path, { siteId: 719, ...NANJING }, me.token);
  const submitted = await api.post<SubmitOrderResult>(
    orderApi.submitOrder.path,
    {
      siteId: 719,
      productInfos: goods.map((g) => ({
        productId: g.productId,
        specificationId: g.specificationId,
        num: 1,
      })),
    },
    me.token,
  );
  expect(submitted.body.code).toBe(200);
  const [order] = await t.db
    .select({ id: mallOrder.id })
    .from(mallOrder)
    .where(eq(mallOrder.orderNo, submitted.body.data.orderNo));
  orderId = order!.id;
  childIds = (
    await t.db.select({ id: childOrder.id }).from(childOrder).where(eq(childOrder.orderId, orderId))
  ).map((c) => c.id);
  expect(childIds.length).toBeGreaterThan(0);
});
afterAll(() => t.close());

describe('moveOrders keeps to ORDER_TRANSITIONS', () => {
  it('moves the order, its child orders and the log along every edge, and refuses every other pair', async () => {
    for (const { from, to } of PAIRS) {
      await place(from);
      const before = await state();
      const move = () =>
        t.db.transaction((tx) => moveOrders(tx, [orderId], { from, to, note: `测试 ${from}→${to}` }));
      if (canMove(from, to)) {
        expect(
          (await move()).map((o) => o.status),
          `${from}→${to}`,
        ).toEqual([to]);
        expect(await state(), `${from}→${to}`).toEqual({
          status: to,
          children: before.children.map(() => to),
          logs: before.logs + 1,
        });
      } else {
        const refused = await refusalOf(move);
        expect(refused, `${from}→${to}`).toBeInstanceOf(AppError);
        expect((refused as AppError).msg).toMatch(/^订单状态不能从「.+」\(\d+\) 变为「.+」\(\d+\)$/);
        expect(await state(), `${from}→${to}`).toEqual(before);
      }
    }
    // Every edge with a from status was walked (submission edges create orders, see submit.ts).
    const walked = PAIRS.filter((p) => canMove(p.from, p.to)).length;
    expect(walked).toBe(ORDER_TRANSITIONS.filter((e) => e.from !== null).length);
  });

  it('moves child orders alone along every edge, and refuses every other pair', async () => {
    const [childId] = childIds as [number];
    for (const { from, to } of PAIRS) {
      await place(from);
      const before = await state();
      const move = () => t.db.transaction((tx) => moveOrders(tx, [childId], { childOrders: true, from, to }));
      if (canMove(from, to)) {
        expect((await move()).map((c) => c.status)).toEqual([to]);
        const after = await state();
        expect(after.status).toBe(from);
        expect(after.children[0]).toBe(to);
        expect(after.logs).toBe(before.logs);
      } else {
        expect(await refusalOf(move), `${from}→${to}`).toBeInstanceOf(AppError);
        expect(await state()).toEqual(before);
      }
    }
  });

  it('moves only rows still in `from`: an edge of the table from another status changes nothing', async () => {
    await place(ORDER_STATUS.completed);
    const before = await state();
    const moved = await t.db.transaction((tx) =>
      moveOrders(tx, [orderId], {
        from: ORDER_STATUS.pendingPayment,
        to: ORDER_STATUS.confirming,
        note: '测试',
      }),
    );
    expect(moved).toEqual([]);
    expect(await state()).toEqual(before);
  });

  it('moves the order alone when asked, its child orders keep their status', async () => {
    await place(ORDER_STATUS.confirming);
    const before = await state();
    await t.db.transaction((tx) =>
      moveOrders(tx, [orderId], {
        from: ORDER_STATUS.confirming,
        to: ORDER_STATUS.awaitingReceipt,
        note: '测试',
        withChildren: false,
      }),
    );
    expect(await state()).toEqual({ ...before, status: ORDER_STATUS.awaitingReceipt, logs: before.logs + 1 });
  });
});

describe('moveOrders plans', () => {
  it('refuses a debit for more than one order before writing anything', async () => {
    await place(ORDER_STATUS.pendingPayment);
    const before = await state();
    const debit = { siteId: 719, memberId, amount: 1, orderNo: 'TWO-ORDERS', note: '测试' };
    await expect(
      moveOrders(t.db, [orderId, orderId + 1], {
        from: ORDER_STATUS.pendingPayment,
        to: ORDER_STATUS.confirming,
        note: '积分支付成功',
        debit,
      }),
    ).rejects.toThrow('a debit pays one order');
    expect(await state()).toEqual(before);
  });

  it('keeps one generic plan for a payment of one order (PostgreSQL planned it again at every payment)', async () => {
    await place(ORDER_STATUS.pendingPayment);
    const moved: { status: number }[] = [];
    let plans: { generic: number; custom: number }[] = [];
    const run = t.db.transaction(async (tx) => {
      // A mall where most orders are paid long ago (as the bench's): planned for the values of
      // one payment (status 0, expire_at > now), the partial index of unpaid orders looks
      // cheaper than the primary key.
      if (t.database.kind === 'postgres') {
        await tx.execute(sql`insert into mall_order (order_no, site_id, member_id, status, goods_amount,
            freight_amount, pay_amount, is_virtual, expire_at, paid_at)
          select 'PLAN' || n, site_id, member_id, ${ORDER_STATUS.completed}, 1, 0, 1, true,
            now() - interval '1 day', now() - interval '1 day'
          from mall_order, generate_series(1, 20000) n where id = ${orderId}`);
        await tx.execute(sql`analyze mall_order`);
      }
      // One transaction: one connection, whose plan cache pg_prepared_statements shows.
      for (let i = 0; i < 8; i++) {
        const at = new Date();
        moved.push(
          ...(await moveOrders(tx, [orderId], {
            from: ORDER_STATUS.pendingPayment,
            to: ORDER_STATUS.confirming,
            note: '积分支付成功',
            set: { payWay: 'ye', paidAt: at },
            unexpiredAt: at,
            // A payment with points: the move carries the debit (pay.ts).
            debit: { siteId: 719, memberId, amount: 1, orderNo: 'PLAN-TEST', note: '测试' },
          })),
        );
      }
      const { rows } = (await tx.execute(
        sql`select generic_plans::int as generic, custom_plans::int as custom
          from pg_prepared_statements where name like 'order_move_%paidAt_payWay_u%_d'`,
      )) as unknown as { rows: { generic: number; custom: number }[] };
      plans = rows;
      throw new RolledBack();
    });
    await expect(run).rejects.toBeInstanceOf(RolledBack);
    // The first run paid the order; the others found it paid and moved nothing (a run plans, or
    // reuses its plan, all the same).
    expect(moved.map((o) => o.status)).toEqual([ORDER_STATUS.confirming]);
    // PGlite's client sends its statements by names of its own (db/pglite-statements.ts).
    // PostgreSQL plans a statement's first five runs for their values, then keeps the generic plan
    // when it is no dearer. The connection may have paid before in this file: at least the last
    // three of these eight used the generic plan (before: { generic: 0, custom: 8 }).
    if (t.database.kind === 'postgres') {
      expect(plans).toHaveLength(1);
      expect(plans[0]?.custom).toBe(5);
      expect(plans[0]?.generic).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('the only writer of order status', () => {
  const root = join(import.meta.dirname, '../..');
  const sources = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sources(path);
      return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
    });
  // A Drizzle update of either table whose set() names status, or such an UPDATE in SQL.
  const WRITES = [
    /\.update\((?:mallOrder|childOrder)\)\s*\.set\(\{[^}]*\bstatus\b/,
    /update\s+(?:mall_order|child_order)\s+set\b[^;`]*\bstatus\b/i,
  ];

  it('is moveOrders: no other server code writes the status of orders or child orders', () => {
    const writers = sources(root).filter((path) => WRITES.some((w) => w.test(readFileSync(path, 'utf8'))));
    expect(writers.map((p) => relative(root, p))).toEqual(['modules/order/order.service.ts']);
  });

  it('the scan finds a status write', () => {
    expect(WRITES.some((w) => w.test('tx.update(mallOrder).set({ payWay, status: 22 })'))).toBe(true);
    expect(WRITES.some((w) => w.test('update child_order set status = 22 where id = 1'))).toBe(true);
    expect(WRITES.some((w) => w.test('tx.update(mallOrder).set({ payWay, paidAt })'))).toBe(false);
  });
});

describe('ARCHITECTURE.md', () => {
  it('draws exactly the edges of ORDER_TRANSITIONS', () => {
    const text = readFileSync(join(import.meta.dirname, '../../../../../ARCHITECTURE.md'), 'utf8');
    const block = /```mermaid\n(stateDiagram-v2\n[\s\S]*?)```/.exec(text)?.[1] ?? '';
    const drawn = [...block.matchAll(/^\s*(\[\*\]|s\d+)\s*-->\s*s(\d+)\s*:\s*(\w+)\s*$/gm)].map(
      ([, from, to, event]) => `${from === '[*]' ? 'null' : from?.slice(1)}->${to}:${event}`,
    );
    const table = ORDER_TRANSITIONS.map((e) => `${e.from}->${e.to}:${e.event}`);
    expect(drawn.length).toBeGreaterThan(0);
    expect([...drawn].sort()).toEqual([...table].sort());
  });
});
