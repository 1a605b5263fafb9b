import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { productSpecification, stockMove } from './catalog.tables';

/**
 * Inventory: the only writer of `product_specification.stock`. Stock is taken when an order is
 * submitted and given back when it ends unpaid, is cancelled or refunded, each time inside the
 * caller's transaction so the stock and the order move together.
 */

export interface StockMove {
  specificationId: number;
  num: number;
}

/** Sums moves per specification, in id order: parallel transactions lock rows in one order. */
function mergeMoves(moves: readonly StockMove[]): StockMove[] {
  const sums = new Map<number, number>();
  for (const m of moves) sums.set(m.specificationId, (sums.get(m.specificationId) ?? 0) + m.num);
  return [...sums].sort(([a], [b]) => a - b).map(([specificationId, num]) => ({ specificationId, num }));
}

/**
 * Stock taken by the statement that writes its order (order/submit.ts), as CTEs of it: one per
 * specification in id order, each taking its row only when it has enough and the one before it
 * took, so parallel orders lock rows in one order and a short row stops the rest. In `parts`,
 * `all` is the condition of the order's rows (every specification taken) and `taken` counts
 * those taken, so the first short specification is `shortAt(taken)`. Rows taken before a short one stay taken: an
 * order of more than one specification runs the statement in a transaction it rolls back.
 * Placeholders are stock_id_<i> and stock_num_<i>; `params` gives their values.
 */
export function stockTaking(moves: readonly StockMove[]) {
  const merged = mergeMoves(moves);
  const name = (i: number) => sql.raw(`stock_${i}`);
  return {
    /** The SQL, built only when a statement of this many specifications is built. */
    parts: () => ({
      ctes: Object.fromEntries(
        merged.map((_, i) => {
          const num = sql`${sql.placeholder(`stock_num_${i}`)}::int`;
          const after = i > 0 ? sql` and exists (select 1 from ${name(i - 1)})` : sql``;
          return [
            `stock_${i}`,
            sql`update product_specification set stock = stock - ${num}
              where id = ${sql.placeholder(`stock_id_${i}`)}::int and stock >= ${num}${after} returning id`,
          ];
        }),
      ),
      all: sql`exists (select 1 from ${name(merged.length - 1)})`,
      taken: sql.join(
        merged.map((_, i) => sql`(select count(*) from ${name(i)})`),
        sql` + `,
      ),
    }),
    params: Object.fromEntries(
      merged.flatMap((m, i) => [
        [`stock_id_${i}`, m.specificationId],
        [`stock_num_${i}`, m.num],
      ]),
    ),
    shortAt: (taken: number) => merged[taken]?.specificationId,
  };
}

/** Gives stock back (a cancelled or expired order); run in the transaction that ends the order. */
export async function returnStock(tx: Db, moves: readonly StockMove[]): Promise<void> {
  for (const { specificationId, num } of mergeMoves(moves)) {
    await tx
      .update(productSpecification)
      .set({ stock: sql`${productSpecification.stock} + ${num}` })
      .where(eq(productSpecification.id, specificationId));
  }
}

export interface StockAdjustment {
  specificationId: number;
  /** Pieces added (positive) or taken (negative). */
  delta: number;
  /** The site the operator made it through, who and why: the ledger row's fields. */
  siteId: number;
  operatorId: number;
  reason: string;
  /** The stock may not end above this. */
  max: number;
}

/**
 * An operator's adjustment: one guarded UPDATE (the stock never goes below 0 nor above `max`;
 * parallel adjusters queue on the row lock and each sees the other's result) and its row in
 * the stock ledger, in the caller's transaction. Answers the stock after it, or undefined
 * when the guard refused it (nothing changed).
 */
export async function adjustStock(tx: Db, move: StockAdjustment): Promise<number | undefined> {
  const [row] = await tx
    .update(productSpecification)
    .set({ stock: sql`${productSpecification.stock} + ${move.delta}` })
    .where(
      and(
        eq(productSpecification.id, move.specificationId),
        sql`${productSpecification.stock} + ${move.delta} between 0 and ${move.max}`,
      ),
    )
    .returning({ stock: productSpecification.stock });
  if (!row) return undefined;
  await tx.insert(stockMove).values({
    specificationId: move.specificationId,
    siteId: move.siteId,
    delta: move.delta,
    stockAfter: row.stock,
    reason: move.reason,
    operatorId: move.operatorId,
  });
  return row.stock;
}

/**
 * The specifications of a new product with their opening stock, each opening recorded in the
 * stock ledger like an adjustment; in the caller's transaction. Answers the new ids in order.
 */
export async function openSpecifications(
  tx: Db,
  productId: number,
  specs: { specificationValue: string; stock: number }[],
  by: { siteId: number; operatorId: number; reason: string },
): Promise<number[]> {
  const rows = await tx
    .insert(productSpecification)
    .values(
      specs.map((s, sort) => ({ productId, specificationValue: s.specificationValue, stock: s.stock, sort })),
    )
    .returning({ id: productSpecification.id, stock: productSpecification.stock });
  const opened = rows.filter((r) => r.stock > 0);
  if (opened.length)
    await tx
      .insert(stockMove)
      .values(opened.map((r) => ({ specificationId: r.id, delta: r.stock, stockAfter: r.stock, ...by })));
  return rows.map((r) => r.id);
}
